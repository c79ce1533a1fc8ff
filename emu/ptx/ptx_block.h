/* ptx_block.h - one block of a launch as the executor runs it (internal to
 * emu/ptx/): its registers, shared and local memory, its warps and their
 * program counters, and the checks' state. ptx_exec.cpp schedules its warps
 * and barriers; ptx_block_ops.cpp is what each instruction does to it
 * (memory, arithmetic, atomics, warp operations, printf, the checks). */
#ifndef CUGRADE_PTX_BLOCK_H
#define CUGRADE_PTX_BLOCK_H

#include "ptx_device.h"
#include "ptx_fast.h"

#include <string>
#include <vector>

namespace ptx {

constexpr int WARP = 32;

class Block {
  public:
    /* sampled: the checks look at this block (races, uninitialised shared
     * reads, sectors and wavefronts); a block they do not sample runs its
     * accesses on the fast paths (handlers), its bounds, its uninitialised
     * device reads and its bytes still checked and counted */
    Block(Device &dev, const Function &k, const std::vector<Handler> &handlers, ptx_dim3_t grid,
          ptx_dim3_t blk, ptx_dim3_t ctaid, size_t dyn_shared, const std::vector<uint8_t> &params,
          ptx_launch_result_t &res, uint64_t budget, bool sampled = true)
        : d(dev), fn(k), handlers(handlers), grid(grid), bdim(blk), ctaid(ctaid), params(params),
          result(res), budget(budget), sampled(sampled)
    {
        nthreads = blk.x * blk.y * blk.z;
        nwarps = (nthreads + WARP - 1) / WARP;
        regs.assign((size_t)fn.nregs * nthreads, 0);
        uint64_t dyn_at = (fn.shared_bytes + fn.shared_align - 1) / fn.shared_align * fn.shared_align;
        shared.assign(dyn_at + dyn_shared, 0xff); /* never written: NaN as floats */
        local.assign((size_t)fn.local_bytes * nthreads, 0xff);
        warps.resize(nwarps);
        for (int w = 0; w < nwarps; w++) {
            int n = std::min(WARP, nthreads - w * WARP);
            warps[w].live = n == WARP ? ~0u : (1u << n) - 1;
            for (int l = 0; l < WARP; l++)
                warps[w].pc[l] = 0;
        }
        lanes = {regs.data(), nthreads, shared.data(), shared.size(), params.data(), params.size(), &d};
        lanes.count = !sampled && (d.checks & PTX_CHECK_TRAFFIC);
        lanes.uninit = !sampled && (d.checks & PTX_CHECK_UNINIT);
        if ((d.checks & PTX_CHECK_RACES) && sampled)
            shadow.assign((shared.size() + 3) / 4, Shadow{-1, -1, -1, false, 0});
        if ((d.checks & PTX_CHECK_UNINIT) && sampled)
            written.assign((shared.size() + 3) / 4, 0);
    }
    ptx_status_t run();
    /* the fast paths' counts of an unsampled block, into the launch's traffic */
    void fold_counts()
    {
        result.traffic.global_load_bytes += lanes.global_load_bytes;
        result.traffic.global_store_bytes += lanes.global_store_bytes;
        result.traffic.shared_loads += lanes.shared_loads;
        result.traffic.shared_load_bytes += lanes.shared_load_bytes;
    }

  private:
    struct Warp {
        uint32_t pc[WARP];    /* each lane's, except while converged */
        uint32_t live = 0;    /* lanes not exited */
        uint32_t waiting = 0; /* lanes at a barrier */
        bool converged = true; /* every lane live and not waiting is at cpc (pc[] stale) */
        uint32_t cpc = 0;
    };
    Device &d;
    const Function &fn;
    const std::vector<Handler> &handlers;
    Lanes lanes;
    ptx_dim3_t grid, bdim, ctaid;
    const std::vector<uint8_t> &params;
    ptx_launch_result_t &result;
    uint64_t budget;
    bool sampled;
    int nthreads, nwarps;
    std::vector<uint64_t> regs; /* [reg][thread] */
    std::vector<uint8_t> shared, local;
    std::vector<Warp> warps;
    bool barrier_reported = false;
    struct Shadow { /* the race check's state of a shared word in this interval */
        int32_t writer, reader, reader2; /* reader2: a reader not reader (-1: none) */
        bool reported;
        uint32_t epoch;
    };
    std::vector<Shadow> shadow; /* a word each, when the races are checked */
    uint32_t epoch = 1;         /* barrier intervals so far */
    bool in_atomic = false;
    std::vector<uint8_t> written; /* PTX_CHECK_UNINIT: a shared word written in this block */
    std::vector<uint32_t> uninit_lines; /* the source lines with an uninitialised read found */
    bool uninit_shared = false; /* the uninitialised read being reported is of shared memory */
    void uninit(const Insn &in, int t, uint64_t addr, uint32_t size, bool in_shared)
    {
        for (uint32_t l : uninit_lines) /* one finding a line and block */
            if (l == in.line)
                return;
        uninit_lines.push_back(in.line);
        uninit_shared = in_shared;
        finding(PTX_FIND_UNINIT, t, in, addr, size, 0);
    }
    void race_check(const Insn &in, int t, uint64_t addr, uint32_t size, int store);

    uint64_t &reg(int r, int t) { return regs[(size_t)r * nthreads + t]; }
    ptx_dim3_t thread_of(int t) const
    {
        return {(unsigned)(t % bdim.x), (unsigned)(t / bdim.x % bdim.y), (unsigned)(t / (bdim.x * bdim.y))};
    }
    uint64_t special(uint8_t sp, int t) const;
    uint64_t value(const Operand &o, int t)
    {
        uint64_t v = o.kind == Operand::Reg ? reg(o.reg, t) : o.kind == Operand::Imm ? (uint64_t)o.imm
                                                            : special(o.special, t);
        return o.neg ? (v & 1) ^ 1 : v;
    }
    void finding(ptx_finding_kind_t kind, int t, const Insn &in, uint64_t addr, uint32_t size, int store,
                 const Allocation *near = nullptr);
    Allocation *last_hit = nullptr; /* the allocation of the last global access */
    uint8_t stray[64]; /* what a near out-of-bounds access reads (NaN) or writes (dropped) */
    uint8_t *access(const Insn &in, int t, uint64_t addr, uint32_t size, int store);
    bool step(Warp &w, int wi);
    uint32_t guarded(const Insn &in, int base, uint32_t lanes);
    void diverge(Warp &w);
    void exec(const Insn &in, uint32_t pc, int wi, uint32_t at, Warp &w);
    void general(const Insn &in, int base, uint32_t on, uint32_t at);
    void memory(const Insn &in, int base, uint32_t on);
    void count_traffic(Space space, bool store, const uint64_t *addr, uint32_t on, uint32_t size);
    void atomic(const Insn &in, int base, uint32_t on);
    void shuffle(const Insn &in, int base, uint32_t on);
    void vote(const Insn &in, int base, uint32_t on);
    void copy_async(const Insn &in, int base, uint32_t on);
    void print(const Insn &in, int base, uint32_t on);
    void alu(const Insn &in, int t);
    bool open_barrier();
};

} // namespace ptx

#endif
