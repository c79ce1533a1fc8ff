/* check_internal.h - what the checking mode's own files share beyond check.h:
 * the address ranges the hooks classify by, the launch's byte counters, the
 * findings store, the shared-variable table, the per-launch parts of the
 * shared and global checkers, the device-memory registry they read, and the
 * kernel parameter names. Not seen by student code or by traffic.cpp. */
#ifndef CUGRADE_EMU_CHECK_INTERNAL_H
#define CUGRADE_EMU_CHECK_INTERNAL_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "check.h"

namespace cugrade::emu {

/* ---- address classification (check_core.cpp; read by hooks.cpp) ------------------
 * Each range is [lo, lo + len): a test is one subtraction and one compare. */
struct address_ranges {
    uintptr_t shared_lo, shared_len; /* the cugrade_shared section */
    uintptr_t image_lo, image_len;   /* the program's own code and static data */
    uintptr_t stacks_lo, stacks_len; /* the fiber stacks */
    uintptr_t call_lo, call_len;     /* the launch's stored arguments (host stack) */
};
extern address_ranges g_ranges;
void enable_checks(); /* __tsan_init */

/* ---- the running launch's counters (check_core.cpp) -------------------------------- */
struct check_counters {
    unsigned long long global_load_bytes, global_store_bytes;
    unsigned long long shared_load_bytes, shared_store_bytes;
    unsigned long long shared_staged_loads;
};
extern check_counters g_check_counts;

/* threadIdx of a linear thread index of the running launch's block shape. */
uint3 thread_of(unsigned linear);

/* ---- findings (findings.cpp) --------------------------------------------------------
 * A finding is identified by (kind, pc0, pc1) and reported once per launch
 * with the number of times it happened. Its message is formatted at the
 * first occurrence; CUGRADE_LOC0 and CUGRADE_LOC1 in it stand for the
 * file:line of pc0 and pc1, filled in when the launch ends (addr2line runs
 * once for all). */
#define CUGRADE_LOC0 "\x01"
#define CUGRADE_LOC1 "\x02"
/* True (and counted `times` more) if this finding was already recorded in
 * this launch. */
bool finding_repeat(diag_kind kind, uintptr_t pc0, uintptr_t pc1, unsigned long long times = 1);
void finding_add(diag_kind kind, uintptr_t pc0, uintptr_t pc1, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Records and reports at once, symbolised now: for an access that may
 * crash the process right after the hook returns. */
void finding_add_now(diag_kind kind, uintptr_t pc0, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void findings_launch_begin();
/* Symbolises and reports what the launch collected. */
void findings_launch_end();
/* From a fatal signal handler: reports what is collected, with raw addresses
 * where a line is not known yet. */
void findings_flush_on_crash();

/* ---- symbolisation (symbolize.cpp, beyond check.h's symbolize) ---------------------- */
/* Looks up all of pcs with one addr2line run and caches the answers. */
void symbolize_batch(const std::vector<uintptr_t> &pcs);
/* The cached answer, or null; never runs anything (signal handlers). */
const char *symbolize_cached(uintptr_t pc);
/* "0x1234": pc as an address in the executable file, for addr2line -e. */
void format_raw_pc(uintptr_t pc, char *buf, size_t len);

/* ---- shared variables (shared_vars.cpp) ---------------------------------------------
 * The symbols of section cugrade_shared, read once from the program's ELF
 * symbol table, in address order. */
struct shared_var {
    uintptr_t lo, hi;
    std::string name; /* last component of the demangled name: "tileA" ("the dynamic shared memory") */
    bool dynamic;     /* __cugrade_dynamic_smem */
};
const std::vector<shared_var> &shared_vars();

/* ---- the shared checker's launch lifecycle (shared_check.cpp) ----------------------- */
void shared_check_launch_begin(size_t dynamic_shared_bytes);
/* Renumbers the epochs when their low 32 bits (all the shadow keeps) come
 * near wrapping: at a block's start, before anything is recorded in it. */
void shared_check_block_begin();
/* End of a barrier interval (a barrier released, or the block ended): reads
 * of never-written words become uninit-shared findings unless another
 * thread wrote the word later in the same interval (then it is a race). */
void shared_check_interval_end();
/* Decides the shared-oob findings from what each instruction touched. */
void shared_check_launch_end();
/* An atomic operation (atomicAdd, __tsan_atomic*): initialises the word and
 * never races with another atomic; reads_old: its result depends on the old
 * value (a read of it for the uninitialised check). */
void shared_atomic(uintptr_t addr, unsigned size, bool reads_old, uintptr_t pc);

/* ---- the global checker (global_check.cpp) ------------------------------------------ */
/* Takes the device-memory snapshot, names buffers after the kernel's
 * pointer parameters and reports host pointers among them. */
void global_check_launch_begin(const launch_site &site, const launch_args &args);
void global_atomic(uintptr_t addr, unsigned size, bool reads_old, uintptr_t pc);
/* An in-kernel access to none of the program's memory: invalid-address. */
void invalid_access(uintptr_t addr, unsigned size, bool is_write, uintptr_t pc);

/* ---- an access made by the runtime for the running thread (hooks.cpp) ------------------
 * Classified and checked as the hooks do (size bytes at addr, its pc). */
void check_access(uintptr_t addr, unsigned size, bool is_write, uintptr_t pc);

/* ---- asynchronous copies in flight (async_check.cpp) --------------------------------
 * How many copies into the shared section are in flight in the running
 * block; while there are any, shared_access asks async_inflight_access
 * whether an access touches one (then reported as a race; true). */
extern size_t g_async_inflight;
bool async_inflight_access(uintptr_t addr, unsigned size, bool is_write, uintptr_t pc);

/* ---- what an address is, for messages ------------------------------------------------ */
/* The buffer holding addr, its red zones included ("A", "device allocation
 * #2 (4096 bytes)"), and addr's byte offset from its start (negative
 * before it); null if none (global_check.cpp). */
const char *global_buffer_at(uintptr_t addr, long long *offset);
/* The shared variable holding addr ("tileA", "the dynamic shared memory")
 * and addr's byte offset in it (shared_check.cpp). */
const char *shared_address_label(uintptr_t addr, size_t *offset);
/* "shared " before a variable's name, nothing before "the dynamic shared memory". */
const char *shared_label_prefix(const char *label);

/* ---- misaligned accesses (align_check.cpp) -------------------------------------------
 * An access of size bytes (2, 4, 8 or 16) that the compiler took to be
 * aligned to its size, at an address that is not: a GPU stops the kernel
 * with cudaErrorMisalignedAddress. Reported as invalid-address. */
void misaligned_access(uintptr_t addr, unsigned size, bool is_write, uintptr_t pc);

/* ---- device memory (memory.cpp) -----------------------------------------------------
 * With checks on, a device allocation of size bytes lies between two red
 * zones of red_zone_bytes(size) each, filled with kSharedPoison, and has one
 * "written" bit per 4-byte word (cudaMemcpy/cudaMemset to it and kernel
 * stores set them). */
struct device_region {
    uintptr_t lo, hi;    /* red zones included */
    uintptr_t base;      /* what cudaMalloc returned */
    size_t size;         /* what it asked for */
    unsigned serial;     /* n-th allocation of the process, from 1 */
    bool device;         /* false: cudaMallocHost memory (no zones, no tracking) */
    uint64_t *written;   /* one bit per 4-byte word; null when not tracked */
};
size_t red_zone_bytes(size_t size);
/* The live allocations, in address order. */
void memory_regions(std::vector<device_region> *out);

/* ---- kernel parameter names (kernel_params.cpp) ------------------------------------- */
/* The names registered for the kernel a launch expression names
 * ("ns::k<float>" -> "k") with nargs parameters, or null. */
const std::vector<std::string> *kernel_param_names(const char *launch_name, int nargs);

} // namespace cugrade::emu

#endif
