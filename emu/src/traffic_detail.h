/* traffic_detail.h - what traffic.cpp shows beyond check.h: the sampling
 * rule, the shape of one warp access, and the running launch's totals (the
 * byte counts are not emitted by traffic.cpp, since the checker core emits
 * global/shared load/store bytes itself). For traffic.cpp and its tests. */
#ifndef CUGRADE_EMU_TRAFFIC_DETAIL_H
#define CUGRADE_EMU_TRAFFIC_DETAIL_H

#include <cstdint>

namespace cugrade::emu::traffic {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kSectorBytes = 32;
constexpr unsigned kBanks = 32;
constexpr unsigned kBankWordBytes = 4;

/* Sampling: the warp analysis runs on blocks whose linear index b (x
 * fastest) of n satisfies b < kSampleFirst, b == n - 1 or b % kSampleEvery
 * == 0; every block's bytes are counted. */
constexpr uint64_t kSampleFirst = 4;
constexpr uint64_t kSampleEvery = 64;
bool block_is_sampled(uint64_t linear, uint64_t nblocks);

/* Bounds of the analysis of one warp in one barrier interval (accesses
 * beyond them are counted in bytes but not grouped; see traffic.cpp). */
constexpr unsigned kMaxExecs = 32;        /* executions of one pc per thread */
constexpr unsigned kMaxWarpSites = 256;   /* distinct (pc, space, direction) */
constexpr unsigned kMaxGroups = 4096;     /* warp accesses */
constexpr unsigned kMaxLaneBytes = 128;   /* bytes of one thread's access */
constexpr unsigned kMaxLaunchSites = 2048; /* distinct sites per launch */

/* One warp access: the lanes that took part, with their addresses. */
struct warp_group {
    uint32_t mask;
    uint8_t size[kWarpSize];
    uintptr_t addr[kWarpSize];
};

/* What one warp access costs and how its addresses are laid out. */
struct warp_shape {
    unsigned lanes;
    unsigned distinct_addrs;
    uint64_t union_bytes; /* bytes of the distinct addresses */
    uint64_t span;        /* highest end - lowest start */
    uint64_t sectors, min_sectors;
    uint64_t wavefronts, min_wavefronts;
    int64_t stride; /* address step between consecutive lanes, if regular */
    bool regular;   /* at least half the consecutive lane pairs step by stride */
};
warp_shape analyse(const warp_group &g, bool is_shared);

struct launch_totals {
    unsigned long long global_load_bytes, global_store_bytes;
    unsigned long long shared_load_bytes, shared_store_bytes;
    unsigned long long coalesced_sectors, min_sectors;
    unsigned long long bank_wavefronts, min_wavefronts;
    unsigned long long analysed_blocks, launch_blocks;
    unsigned long long ungrouped_accesses; /* in sampled blocks, past a bound above */
};
/* The current (or last ended) launch's counts. */
launch_totals totals();

} // namespace cugrade::emu::traffic

#endif
