/* check_core.cpp - the checking mode's lifecycle: whether it is on, who is
 * running (g_exec), the address ranges the hooks classify by, the launch's
 * byte counters, and the order in which the shared checker, the global
 * checker, the findings and the traffic analysis hear of a launch, a block,
 * a barrier. At the end of a launch it reports the findings and the
 * launch's stat lines:
 *   global_load_bytes global_store_bytes shared_load_bytes
 *   shared_store_bytes shared_staged_loads blocks threads
 * (and the traffic analysis adds its own). */
#include "check_internal.h"

extern "C" {
/* Linker-defined bounds of the program image (code, read-only and writable
 * static data, .bss): __device__ and __constant__ variables live there. */
extern char __executable_start[];
extern char _end[];
extern unsigned char __start_cugrade_shared[] __attribute__((weak));
extern unsigned char __stop_cugrade_shared[] __attribute__((weak));
}

namespace cugrade::emu {

exec_context g_exec;
address_ranges g_ranges;
check_counters g_check_counts;

namespace {

bool g_checks_on;

/* Hides the origin of a linker symbol from the optimiser (see shared.cpp). */
uintptr_t symbol_address(const void *p)
{
    asm("" : "+r"(p));
    return reinterpret_cast<uintptr_t>(p);
}

void set_ranges(const launch_args &args)
{
    address_ranges &r = g_ranges;
    r.shared_lo = symbol_address(__start_cugrade_shared);
    r.shared_len = __start_cugrade_shared ? symbol_address(__stop_cugrade_shared) - r.shared_lo : 0;
    r.image_lo = symbol_address(__executable_start);
    r.image_len = symbol_address(_end) - r.image_lo;
    uintptr_t lo, hi;
    fiber_stacks_range(&lo, &hi);
    r.stacks_lo = lo;
    r.stacks_len = hi - lo;
    r.call_lo = reinterpret_cast<uintptr_t>(args.call);
    r.call_len = args.call ? args.call_size : 0;
}

void emit_stats()
{
    const check_counters &c = g_check_counts;
    unsigned long long blocks = 1ull * g_exec.grid.x * g_exec.grid.y * g_exec.grid.z;
    diag_stat("global_load_bytes", c.global_load_bytes);
    diag_stat("global_store_bytes", c.global_store_bytes);
    diag_stat("shared_load_bytes", c.shared_load_bytes);
    diag_stat("shared_store_bytes", c.shared_store_bytes);
    diag_stat("shared_staged_loads", c.shared_staged_loads);
    diag_stat("blocks", blocks);
    diag_stat("threads", blocks * g_exec.block.x * g_exec.block.y * g_exec.block.z);
    diag_stat("launches", 1); /* with the shape's sums: one launch's shape when there was one */
    diag_stat("block_x", g_exec.block.x);
    diag_stat("block_y", g_exec.block.y);
    diag_stat("grid_x", g_exec.grid.x);
    diag_stat("grid_y", g_exec.grid.y);
}

} // namespace

void enable_checks() { g_checks_on = true; }
bool checks_enabled() { return g_checks_on; }

uint3 thread_of(unsigned linear)
{
    const dim3 &b = g_exec.block;
    return uint3{linear % b.x, linear / b.x % b.y, linear / (b.x * b.y)};
}

void check_launch_begin(const launch_site &site, dim3 grid, dim3 block, size_t dynamic_shared_bytes,
                        const launch_args &args)
{
    g_exec.in_kernel = false;
    g_exec.site = &site;
    g_exec.grid = grid;
    g_exec.block = block;
    g_exec.block_idx = uint3{0, 0, 0};
    g_exec.thread_linear = 0;
    g_check_counts = check_counters{};
    set_ranges(args);
    findings_launch_begin();
    shared_check_launch_begin(dynamic_shared_bytes);
    global_check_launch_begin(site, args);
    traffic::launch_begin();
    g_exec.in_kernel = true;
}

void check_block_begin()
{
    shared_check_block_begin();
    traffic::block_begin();
}

void check_barrier() { shared_check_interval_end(); }

void check_block_end()
{
    shared_check_interval_end();
    traffic::block_end();
}

void check_launch_end()
{
    g_exec.in_kernel = false;
    shared_check_launch_end();
    findings_launch_end();
    emit_stats();
    traffic::launch_end();
    g_exec.site = nullptr;
}

} // namespace cugrade::emu
