/* ptx_exec.cpp - one launch on the executor's device (ptx_device.h): the
 * grid's blocks one after another; in a block, each warp of 32 threads runs
 * in step, an instruction for all its lanes at once. Lanes that branch apart
 * keep a program counter each; the warp runs the lanes with the lowest one
 * first, so paths that split at a branch meet again where they join (a
 * loop's exit waits for the lanes still looping, an if's "then" reaches the
 * join before its "else" starts). A warp whose lanes all wait at bar.sync
 * yields to the next; once every thread of the block that has not exited
 * waits, the barrier opens (at different bar.sync instructions: a finding).
 * Every access is checked (access()): a bad one is a finding, its load
 * reads 0 (NaN in an array's red zone) and its store is dropped, and the
 * launch goes on to its end; one a GPU would fault on (not in a red zone)
 * makes the launch's status PTX_ERR_ADDRESS. */
#include "ptx_block.h"

#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>

namespace ptx {

uint32_t Block::guarded(const Insn &in, int base, uint32_t lanes_in)
{
    if (in.guard < 0)
        return lanes_in;
    uint32_t on = lanes_in;
    const uint64_t *p = &reg(in.guard, base);
    for (uint32_t m = lanes_in; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        if (((p[l] & 1) != 0) == in.guard_neg)
            on &= ~(1u << l);
    }
    return on;
}

/* Leaves converged mode: each ready lane's pc is the warp's. */
void Block::diverge(Warp &w)
{
    if (!w.converged)
        return;
    for (uint32_t m = w.live & ~w.waiting; m; m &= m - 1)
        w.pc[__builtin_ctz(m)] = w.cpc;
    w.converged = false;
}

/* Runs in, at pc, on the lanes `at` of warp wi (all its ready lanes when
 * converged), and moves their program counters on. */
void Block::exec(const Insn &in, uint32_t pc, int wi, uint32_t at, Warp &w)
{
    int base = wi * WARP;
    uint32_t on = guarded(in, base, at);
    result.instructions += at == ~0u ? WARP : (uint64_t)__builtin_popcount(at);
    result.warp_instructions++;
    if (in.type.kind == Kind::Float && (in.op == Op::Add || in.op == Op::Sub || in.op == Op::Mul ||
                                        in.op == Op::Fma || in.op == Op::Mad))
        result.traffic.flops += (uint64_t)__builtin_popcount(on) * (in.op == Op::Fma || in.op == Op::Mad ? 2 : 1);
    switch (in.op) {
    case Op::Bra:
        if (w.converged && (on == at || on == 0)) {
            w.cpc = on ? (uint32_t)in.target : pc + 1;
            return;
        }
        diverge(w);
        for (uint32_t m = at; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            w.pc[l] = on >> l & 1 ? (uint32_t)in.target : pc + 1;
        }
        return;
    case Op::Ret:
    case Op::Exit:
        w.live &= ~on;
        if (w.converged)
            w.cpc = pc + 1;
        else
            for (uint32_t m = at & ~on; m; m &= m - 1)
                w.pc[__builtin_ctz(m)] = pc + 1;
        return;
    case Op::Bar:
        diverge(w);
        w.waiting |= on;
        for (uint32_t m = at & ~on; m; m &= m - 1)
            w.pc[__builtin_ctz(m)] = pc + 1;
        return;
    default:
        break;
    }
    Handler h = handlers[pc];
    if (!on || !h || !h(lanes, in, base, on))
        general(in, base, on, at);
    if (w.converged) {
        w.cpc = pc + 1;
    } else {
        for (uint32_t m = at; m; m &= m - 1)
            w.pc[__builtin_ctz(m)] = pc + 1;
    }
}

/* The general path: in on the lanes `on` (their guard holds). */
bool Block::step(Warp &w, int wi)
{
    uint32_t ready = w.live & ~w.waiting;
    if (!ready)
        return false;
    uint32_t pc, at;
    if (w.converged) {
        pc = w.cpc, at = ready;
    } else {
        pc = UINT32_MAX, at = 0;
        for (uint32_t m = ready; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            if (w.pc[l] < pc)
                pc = w.pc[l], at = 0;
            if (w.pc[l] == pc)
                at |= 1u << l;
        }
        if (at == ready) /* their paths have met */
            w.converged = true, w.cpc = pc;
    }
    if (pc >= fn.code.size()) { /* ran off the end: as ret */
        w.live &= ~at;
        return true;
    }
    exec(fn.code[pc], pc, wi, at, w);
    return true;
}

/* All the block's threads that have not exited wait at a barrier: lets them
 * through. A finding (once a block) where some threads wait at another
 * barrier, or exited without reaching this one: __syncthreads() in code
 * that not every thread of the block runs. */
bool Block::open_barrier()
{
    uint32_t bar_pc = UINT32_MAX;
    int other = -1; /* a thread that is not at bar_pc */
    for (int wi = 0; wi < nwarps; wi++) {
        const Warp &w = warps[wi];
        for (uint32_t m = w.waiting & w.live; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            if (bar_pc == UINT32_MAX)
                bar_pc = w.pc[l];
            else if (w.pc[l] != bar_pc && other < 0)
                other = wi * WARP + l;
        }
    }
    if (bar_pc == UINT32_MAX)
        return false;
    for (int wi = 0; wi < nwarps && other < 0; wi++) {
        int n = std::min(WARP, nthreads - wi * WARP);
        uint32_t all = n == WARP ? ~0u : (1u << n) - 1;
        if (uint32_t gone = all & ~warps[wi].live)
            other = wi * WARP + __builtin_ctz(gone);
    }
    if (other >= 0 && !barrier_reported) {
        finding(PTX_FIND_BARRIER, other, fn.code[bar_pc], 0, 0, 0);
        barrier_reported = true;
    }
    for (Warp &w : warps) {
        for (uint32_t m = w.waiting & w.live; m; m &= m - 1)
            w.pc[__builtin_ctz(m)]++;
        w.waiting = 0;
        w.converged = false; /* step() finds out whether they are together again */
    }
    epoch++; /* what was written before the barrier is every thread's to read */
    return true;
}

ptx_status_t Block::run()
{
    for (;;) {
        bool progressed = false;
        for (int wi = 0; wi < nwarps; wi++) {
            Warp &w = warps[wi];
            while (step(w, wi)) {
                progressed = true;
                if (budget && result.instructions > budget)
                    return PTX_ERR_BUDGET;
            }
        }
        if (!open_barrier() && !progressed)
            break;
        bool live = false;
        for (const Warp &w : warps)
            live = live || w.live;
        if (!live)
            break;
    }
    return PTX_OK;
}

/* With sampling, the blocks the checks look at in a grid of more than
 * SAMPLE_ALL_UP_TO blocks: the first four, the last, every eighth, and
 * every block on the grid's edge in a dimension of more than one block
 * (where a boundary check matters); in a smaller grid, all. */
constexpr uint64_t SAMPLE_ALL_UP_TO = 64;
static bool on_edge(unsigned at, unsigned size) { return size > 1 && (at == 0 || at + 1 == size); }
bool sampled_block(ptx_dim3_t grid, ptx_dim3_t b, uint64_t nblocks)
{
    uint64_t linear = ((uint64_t)b.z * grid.y + b.y) * grid.x + b.x;
    return nblocks <= SAMPLE_ALL_UP_TO || linear < 4 || linear + 1 == nblocks || linear % 8 == 0 ||
           on_edge(b.x, grid.x) || on_edge(b.y, grid.y) || on_edge(b.z, grid.z);
}

ptx_status_t execute(Device &d, const Function &k, ptx_dim3_t grid, ptx_dim3_t block,
                     size_t dynamic_shared, const std::vector<uint8_t> &params,
                     uint64_t max_instructions, ptx_launch_result_t &result)
{
    std::vector<Handler> handlers(k.code.size()), unsampled(k.code.size());
    for (size_t i = 0; i < k.code.size(); i++) { /* a checked shared access takes the general path */
        const Insn &in = k.code[i];
        bool checked = ((d.checks & PTX_CHECK_RACES) && in.space == Space::Shared) ||
                       ((d.checks & PTX_CHECK_UNINIT) && (in.op == Op::Ld || in.space == Space::Shared)) ||
                       ((d.checks & PTX_CHECK_TRAFFIC) && (in.op == Op::Ld || in.op == Op::St));
        handlers[i] = d.fast_paths && !checked ? fast_handler(in) : nullptr;
        unsampled[i] = d.fast_paths ? fast_handler(in) : nullptr;
    }
    uint64_t nblocks = (uint64_t)grid.x * grid.y * grid.z;
    for (unsigned z = 0; z < grid.z; z++)
        for (unsigned y = 0; y < grid.y; y++)
            for (unsigned x = 0; x < grid.x; x++) {
                bool sampled = !d.sample_blocks || sampled_block(grid, {x, y, z}, nblocks);
                Block b(d, k, sampled ? handlers : unsampled, grid, block, {x, y, z}, dynamic_shared,
                        params, result, max_instructions, sampled);
                ptx_status_t s = b.run();
                b.fold_counts();
                result.sampled_blocks += sampled;
                if (s == PTX_ERR_BUDGET)
                    return PTX_ERR_BUDGET;
            }
    return result.nfault ? PTX_ERR_ADDRESS : result.nbarrier ? PTX_ERR_BARRIER : PTX_OK;
}

} // namespace ptx
