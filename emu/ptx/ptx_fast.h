/* ptx_fast.h - the executor's fast paths (internal to emu/ptx/): for the
 * instructions kernels spend their time in (integer and f32 arithmetic,
 * compares, moves, loads and stores of 4 and 8 bytes), a handler made for
 * the instruction's operation, type and operands, run over a warp's lanes
 * in one loop. ptx_exec.cpp calls it where there is one and runs the
 * general path otherwise; a handler declines (returns false, having changed
 * nothing) what it does not do, such as an access that needs a finding. */
#ifndef CUGRADE_PTX_FAST_H
#define CUGRADE_PTX_FAST_H

#include "ptx_device.h"

namespace ptx {

/* What a handler reaches: the block's registers ([reg][thread]), its
 * shared memory, the parameters, the device (global memory) and the last
 * allocation an access found (most accesses hit it again). */
struct Lanes {
    uint64_t *regs;
    int nthreads;
    uint8_t *shared;
    uint64_t shared_size;
    const uint8_t *params;
    uint64_t params_size;
    Device *dev;
    uint64_t hit_base = 0, hit_size = 0;
    uint8_t *hit_bytes = nullptr;
    uint8_t *hit_origin = nullptr; /* that allocation's Origin per word */
    uint8_t *hit_read = nullptr;   /* and its words read (null: not tracked) */
    /* a block the checks do not sample (ptx_set_sampling): its loads and
     * stores run here, counting their bytes (count), and a global load of
     * a word nothing wrote declines (uninit), so the general path finds it */
    bool count = false, uninit = false;
    uint64_t global_load_bytes = 0, global_store_bytes = 0, shared_loads = 0, shared_load_bytes = 0;
};

/* Runs in on the lanes `on` of the warp whose first thread is base. */
using Handler = bool (*)(Lanes &, const Insn &, int base, uint32_t on);

/* in's handler, or null (the general path runs it). */
Handler fast_handler(const Insn &in);

} // namespace ptx

#endif
