/* emu_internal.h - what the emulator runtime's source files share: the
 * diagnostics channel, the last-error slot, fiber stacks, the block
 * scheduler, shared-memory bookkeeping, the device's limits and the
 * stack-overflow handler. Not seen by student code. */
#ifndef CUGRADE_EMU_INTERNAL_H
#define CUGRADE_EMU_INTERNAL_H

#include <cstddef>
#include <cstdint>

#include "cuda_runtime.h"

namespace cugrade::emu {

/* ---- emulated device limits (documented in device.cpp and docs/emulator.md) */
constexpr unsigned kMaxThreadsPerBlock = 1024;
constexpr unsigned kMaxBlockDimXY = 1024;
constexpr unsigned kMaxBlockDimZ = 64;
constexpr unsigned kMaxGridDimX = 2147483647u;
constexpr unsigned kMaxGridDimYZ = 65535;
constexpr size_t kSharedPerBlock = 48 * 1024;
constexpr size_t kSharedPerBlockOptin = CUGRADE_MAX_DYNAMIC_SMEM;
constexpr size_t kTotalGlobalMem = size_t(16) << 30;

/* ---- diagnostics (diag.cpp) --------------------------------------------------
 * Each goes to stderr as "cugrade-emu: <severity>: <message>" and, when
 * CUGRADE_EMU_DIAG names a file, is appended there as
 * "<severity>\t<kind>\t<message>". */
enum class severity { error, warning };
enum class diag_kind {
    launch,
    barrier_divergence,
    barrier_mismatch,
    stack_overflow,
    race,
    shared_oob,
    global_oob,
    invalid_address,
    host_pointer,
    uninit_shared,
    uninit_global,
    count
};

const char *diag_kind_name(diag_kind kind);
/* Writes one diagnostic now, without rate limiting. Uses only write(2) and
 * open(2) after formatting, so the stack-overflow handler may call it. */
void diag_emit(severity sev, diag_kind kind, const char *message);
/* Formats and reports a diagnostic, at most kDiagPerKind per kind per launch;
 * repeats are counted and summarised by diag_launch_end. */
void diag_report(severity sev, diag_kind kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
constexpr int kDiagPerKind = 10;
void diag_launch_begin();
void diag_launch_end(const launch_site &site);
unsigned long long diag_total();
/* How many diagnostics of kind this launch has reported so far (shown or not). */
unsigned diag_launch_count(diag_kind kind);
/* "stat\t<key>\t<value>" to the diagnostics file only (not stderr). */
void diag_stat(const char *key, unsigned long long value);
/* "info\t<kind>\t<message>" to the diagnostics file, and
 * "cugrade-emu: info: <message>" to stderr: an explanation, not a fault. */
void diag_info(const char *kind, const char *message);

/* ---- last error (errors.cpp) ------------------------------------------------- */
/* Records a failure as the calling thread's last error; returns it. */
cudaError_t record_error(cudaError_t err);

/* ---- shared memory (shared.cpp) ---------------------------------------------- */
size_t static_shared_size();
/* Fills the static shared variables and the first dynamic_bytes of the
 * dynamic buffer with a NaN pattern, as a fresh block's shared memory. */
void poison_shared(size_t dynamic_bytes);
constexpr uint32_t kSharedPoison = 0x7FBADBADu;

/* ---- fiber stacks (fiber.cpp) ------------------------------------------------ */
constexpr size_t kFiberStackBytes = 64 * 1024;
constexpr size_t kFiberGuardBytes = 64 * 1024;
/* Makes room for nthreads fiber stacks (kept and reused); false on failure. */
bool fiber_stacks_reserve(unsigned nthreads);
/* Builds a fresh fiber frame at the top of stack `slot` whose first switch
 * enters cugrade_fiber_start; returns the saved stack pointer to switch to. */
void *fiber_initial_frame(unsigned slot, uint32_t fp_control);
/* The floating-point control state (MXCSR, x87 control word) packed for
 * fiber_initial_frame. */
uint32_t fiber_current_fp_control();
/* Slot whose guard region holds addr, or -1. Async-signal-safe. */
long fiber_guard_slot(const void *addr);
/* The whole mapping of the fiber stacks (guards included): [*lo, *hi). */
void fiber_stacks_range(uintptr_t *lo, uintptr_t *hi);

/* ---- scheduler (scheduler.cpp) ----------------------------------------------- */
/* CUGRADE_EMU_SCHEDULE: forward (default), reverse, or shuffle:SEED (threads
 * of each block in a seeded random order, blocks forward). */
enum class schedule_order { forward, reverse, shuffle };
struct schedule {
    schedule_order order;
    uint64_t seed;
};
schedule schedule_from_env();

struct grid_job {
    const launch_site *site;
    dim3 grid;
    dim3 block;
    size_t shmem;
    kernel_invoker invoke;
    const void *call;
    schedule order;
    bool checking; /* the checking mode is on: keep g_exec current (check.h) */
};
/* Runs every block of a validated launch on the calling thread. */
void run_grid(const grid_job &job);
/* While a kernel runs: its site, the block and the thread running now. */
bool running_thread(const launch_site **site, uint3 *block, uint3 *thread);
struct run_counters {
    unsigned long long blocks, threads, barriers;
};
run_counters scheduler_counters();

/* ---- stack-overflow handler (guard.cpp) -------------------------------------- */
/* Installs the SIGSEGV handler (once) and an alternate signal stack for the
 * calling thread (once per thread). */
void guard_install();

/* ---- streams (events.cpp) ---------------------------------------------------- */
/* The default stream (0, cudaStreamLegacy, cudaStreamPerThread) or a live one. */
bool stream_is_valid(cudaStream_t stream);

/* ---- memory (memory.cpp) ----------------------------------------------------- */
/* Frees every allocation (cudaDeviceReset). */
void memory_release_all();

/* ---- asynchronous copies (pipeline.cpp) -------------------------------------- */
/* Set once a kernel has issued an asynchronous copy: from then on a thread
 * that returns completes the copies it still has in flight. */
extern bool g_pipeline_used;
void pipeline_thread_exit();

/* ---- launch attributes (launch.cpp) ------------------------------------------ */
void launch_reset_attributes();

} // namespace cugrade::emu

#endif
