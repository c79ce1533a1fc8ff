/* check.h - the emulator's checking mode: what the instrumentation hooks,
 * the memory checker, the race detector and the traffic analysis share.
 *
 * A student file compiled with `emucc --checks` (-fsanitize=thread -O1 -g,
 * linked WITHOUT libtsan) calls __tsan_read4(addr), __tsan_write4(addr), ...
 * for every load and store; hooks.cpp defines those hooks, ignores calls made
 * outside a kernel, classifies the address and hands the access to:
 *   - the shared-memory checker (races, uninitialised and out-of-bounds
 *     shared accesses; shared_check.cpp),
 *   - the global-memory checker (red zones, uninitialised device memory,
 *     host pointers; global_check.cpp),
 *   - the traffic analysis (bytes, coalescing, bank conflicts; traffic.cpp).
 * Programs built without --checks never call the hooks and pay nothing.
 *
 * Findings go through the diagnostics channel (diag.cpp) as
 * "<severity>\t<kind>\t<message>"; statistics as "stat\t<key>\t<value>" and
 * explanations as "info\t<kind>\t<message>", once per launch. The grader
 * maps kinds to its checks:
 *   race                                   -> race-free
 *   barrier-divergence, barrier-mismatch   -> barriers-uniform
 *   shared-oob, global-oob, invalid-address,
 *   host-pointer, uninit-shared, uninit-global -> memory-safe
 *   stat shared_staged_loads > 0           -> uses-shared-memory
 *   stat global_load_bytes + global_store_bytes per FLOP -> traffic-reduced */
#ifndef CUGRADE_EMU_CHECK_H
#define CUGRADE_EMU_CHECK_H

#include <cstddef>
#include <cstdint>

#include "emu_internal.h"

namespace cugrade::emu {

/* ---- who is running (kept current by the scheduler) ---------------------------- */
struct exec_context {
    bool in_kernel;           /* false on the host: hooks return at once */
    const launch_site *site;  /* the launch being run */
    dim3 grid, block;
    uint3 block_idx;          /* the block running now */
    unsigned thread_linear;   /* threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) */
    uint64_t epoch;           /* barrier interval: +1 at every block start and barrier release,
                                 never reset, so an old epoch never matches a new one */
    uint64_t block_epoch;     /* the epoch at which the current block started */
};
extern exec_context g_exec;

/* ---- symbolisation (symbolize.cpp) ---------------------------------------------- */
/* "matmul.cu:21" for a return address in the instrumented program (file
 * names as the compiler saw them, i.e. the student's own thanks to #line),
 * or "0x1234" when unknown. Cached; may run addr2line once per batch. */
const char *symbolize(uintptr_t pc);
/* Name of the shared variable holding addr ("tileA"), or NULL. */
const char *shared_variable_name(uintptr_t addr, uintptr_t *var_base, size_t *var_size);

/* ---- the checkers (called by hooks.cpp for in-kernel accesses) ----------------- */
bool is_shared_address(uintptr_t addr);
void shared_access(uintptr_t addr, unsigned size, bool is_write, uintptr_t pc);
/* Returns true if addr lies in (or in a red zone of) a device allocation,
 * false if it is none of the program's device memory. */
bool global_access(uintptr_t addr, unsigned size, bool is_write, uintptr_t pc);

/* ---- asynchronous copies (async_check.cpp; called by pipeline.cpp) ------------- */
/* A copy of size bytes into shared memory at dst was issued at pc by the
 * running thread: its words are in flight until async_check_complete. */
void async_check_issue(uintptr_t dst, unsigned size, uintptr_t pc);
/* The copy lands now, in its issuing thread: its words are no longer in
 * flight, and it reads src_size bytes at src and writes size at dst. */
void async_check_complete(uintptr_t dst, uintptr_t src, unsigned size, unsigned src_size, uintptr_t pc);

/* ---- lifecycle (called by the scheduler / launch code) -------------------------- */
/* True once instrumented code has called __tsan_init (before main): the
 * program was built with `emucc --checks`. Device allocations then get red
 * zones and the launch code calls the functions below. */
bool checks_enabled();
/* args: what the launcher knows of the kernel's arguments (cugrade_launch.h):
 * which are pointers and their values (host-pointer check, buffer names),
 * and where the stored arguments lie (the kernel's invoker reads them from
 * the launching host thread's stack). dynamic_shared_bytes: the launch's
 * third <<<>>> argument. */
void check_launch_begin(const launch_site &site, dim3 grid, dim3 block, size_t dynamic_shared_bytes,
                        const launch_args &args);
void check_block_begin();  /* after g_exec.block_idx and epoch are set; may renumber the
                              epochs (once in 2^31 intervals) before traffic sees them */
void check_barrier();      /* after the epoch advanced at a barrier release */
void check_block_end();
void check_launch_end();   /* emits the launch's stat and info lines */

/* ---- traffic analysis (traffic.cpp) --------------------------------------------- */
namespace traffic {
void launch_begin();
void block_begin();
void access(bool is_shared, uintptr_t addr, unsigned size, bool is_write, uintptr_t pc);
void block_end();
void launch_end(); /* emits stat lines and the worst coalescing / bank-conflict lines */
}

} // namespace cugrade::emu

#endif
