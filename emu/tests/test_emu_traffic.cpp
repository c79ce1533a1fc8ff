/* test_emu_traffic.cpp - the checking mode's traffic analysis (traffic.cpp),
 * driven with synthetic access sequences through the traffic:: API while
 * these tests play the scheduler (g_exec: block, thread, barrier epoch).
 * Covered: sectors of coalesced, strided and misaligned warp accesses;
 * bank wavefronts with broadcasts, consecutive words and 16-way conflicts;
 * the k-th execution grouping, regrouping after a barrier, partial warps,
 * the block sample, the emitted stat/info lines. A last test prints the
 * module's cost per access (informational, never a failure). */
#include <algorithm>
#include <chrono>
#include <criterion/criterion.h>
#include <cstdio>
#include <string>
#include <vector>

#include "check.h"
#include "emu_test_helpers.h"
#include "traffic_detail.h"

namespace emu = cugrade::emu;
namespace tr = cugrade::emu::traffic;

/* ---- playing the scheduler ------------------------------------------------------ */
constexpr uintptr_t kGlobal = 0x7f0000100000; /* a 256-byte-aligned "device allocation" */
constexpr uintptr_t kShared = 0x600000;       /* a "shared tile" */
constexpr uintptr_t kPcA = 0x401234, kPcB = 0x401280, kPcC = 0x4012c0;

static std::string g_diag_path;
static const cugrade::launch_site kSite = {nullptr, "transpose", "t.cu", 40};

static void start_launch(dim3 grid, dim3 block)
{
    g_diag_path = use_scratch_diag_file();
    emu::g_exec = emu::exec_context{};
    emu::g_exec.in_kernel = true;
    emu::g_exec.site = &kSite;
    emu::g_exec.grid = grid;
    emu::g_exec.block = block;
    tr::launch_begin();
}

static void start_block(unsigned linear)
{
    dim3 g = emu::g_exec.grid;
    emu::g_exec.block_idx = uint3{linear % g.x, linear / g.x % g.y, linear / (g.x * g.y)};
    emu::g_exec.epoch++;
    emu::g_exec.block_epoch = emu::g_exec.epoch;
    tr::block_begin();
}

static void barrier() { emu::g_exec.epoch++; }

/* Threads 0..n-1 in the order the scheduler runs them (run_all.sh also runs
 * these tests with CUGRADE_EMU_SCHEDULE=reverse). */
static std::vector<unsigned> schedule(unsigned n)
{
    const char *order = getenv("CUGRADE_EMU_SCHEDULE");
    bool reverse = order && std::string(order) == "reverse";
    std::vector<unsigned> threads(n);
    for (unsigned i = 0; i < n; i++)
        threads[i] = reverse ? n - 1 - i : i;
    return threads;
}

static void as_thread(unsigned t) { emu::g_exec.thread_linear = t; }
static void load(uintptr_t pc, uintptr_t addr, unsigned size = 4) { tr::access(false, addr, size, false, pc); }
static void store(uintptr_t pc, uintptr_t addr, unsigned size = 4) { tr::access(false, addr, size, true, pc); }
static void shared_load(uintptr_t pc, uintptr_t addr, unsigned size = 4) { tr::access(true, addr, size, false, pc); }

/* Ends the block and the launch; returns the diagnostics lines written. */
static std::string end_launch()
{
    tr::block_end();
    tr::launch_end();
    emu::g_exec.in_kernel = false;
    return read_file(g_diag_path);
}

/* ---- reading the output ----------------------------------------------------------- */
static long long stat_of(const std::string &out, const char *key)
{
    std::string prefix = std::string("stat\t") + key + "\t";
    size_t at = out.compare(0, prefix.size(), prefix) == 0 ? 0 : out.find("\n" + prefix);
    if (at == std::string::npos)
        return -1;
    at += at == 0 ? 0 : 1;
    return atoll(out.c_str() + at + prefix.size());
}

/* The message of the (single) info line of a kind, or "" if none. */
static std::string info_of(const std::string &out, const char *kind)
{
    std::string prefix = std::string("info\t") + kind + "\t";
    size_t at = out.compare(0, prefix.size(), prefix) == 0 ? 0 : out.find("\n" + prefix);
    if (at == std::string::npos)
        return "";
    at += (at == 0 ? 0 : 1) + prefix.size();
    return out.substr(at, out.find('\n', at) - at);
}

static bool has(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }
static std::string where(uintptr_t pc) { return emu::symbolize(pc); }

#define assert_sectors(out, have, need)                                                                      \
    do {                                                                                                    \
        cr_assert_eq(stat_of(out, "coalesced_sectors"), have, "coalesced_sectors in:\n%s", out.c_str());   \
        cr_assert_eq(stat_of(out, "min_sectors"), need, "min_sectors in:\n%s", out.c_str());               \
    } while (0)
#define assert_wavefronts(out, have, need)                                                                   \
    do {                                                                                                    \
        cr_assert_eq(stat_of(out, "bank_wavefronts"), have, "bank_wavefronts in:\n%s", out.c_str());       \
        cr_assert_eq(stat_of(out, "min_wavefronts"), need, "min_wavefronts in:\n%s", out.c_str());         \
    } while (0)

/* One block of `threads` threads, each loading base + t * stride once. */
static std::string one_strided_load(unsigned threads, uintptr_t base, unsigned stride)
{
    start_launch(dim3(1), dim3(threads));
    start_block(0);
    for (unsigned t : schedule(threads)) {
        as_thread(t);
        load(kPcA, base + uintptr_t(t) * stride);
    }
    return end_launch();
}

/* ---- coalescing -------------------------------------------------------------------- */
Test(emu_traffic, a_warp_reading_32_consecutive_floats_touches_4_sectors)
{
    std::string out = one_strided_load(32, kGlobal, 4);
    assert_sectors(out, 4, 4);
    std::string info = info_of(out, "coalescing");
    cr_assert(has(info, "global accesses are coalesced: 4 sectors touched where 4 would do"), "%s", info.c_str());
    cr_assert(has(info, "(kernel transpose launched at t.cu:40; 1 of 1 blocks analysed)"), "%s", info.c_str());
}

Test(emu_traffic, a_warp_reading_a_column_of_a_512_wide_matrix_touches_32_sectors)
{
    std::string out = one_strided_load(32, kGlobal, 2048);
    assert_sectors(out, 32, 4);
    std::string info = info_of(out, "coalescing");
    std::string head = "global loads at " + where(kPcA) + " touch 32 sectors per warp access where 4 would do (8.0x): "
                       "consecutive threads (threadIdx.x) read addresses 2048 bytes apart; make threadIdx.x index the "
                       "contiguous dimension";
    cr_assert(has(info, head), "%s", info.c_str());
}

Test(emu_traffic, an_array_of_structures_is_named_as_such)
{
    std::string out = one_strided_load(32, kGlobal, 8); /* one float of each 8-byte struct */
    assert_sectors(out, 8, 4);
    std::string info = info_of(out, "coalescing");
    cr_assert(has(info, "(2.0x): consecutive threads (threadIdx.x) read 4-byte elements 8 bytes apart"), "%s",
              info.c_str());
}

Test(emu_traffic, a_slightly_misaligned_warp_is_still_called_coalesced)
{
    std::string out = one_strided_load(32, kGlobal + 4, 4);
    assert_sectors(out, 5, 4); /* 1.25x: under the 1.5x threshold */
    cr_assert(has(info_of(out, "coalescing"), "global accesses are coalesced"), "%s", out.c_str());
}

Test(emu_traffic, the_worst_instruction_is_named_and_stores_are_called_stores)
{
    start_launch(dim3(1), dim3(32));
    start_block(0);
    for (unsigned t : schedule(32)) {
        as_thread(t);
        load(kPcA, kGlobal + 4 * t);            /* coalesced */
        store(kPcB, kGlobal + 4096 + 256 * t);  /* 32 sectors, 4 would do */
        load(kPcC, kGlobal + 65536 + 8 * t);    /* 2x */
    }
    std::string out = end_launch();
    assert_sectors(out, 4 + 32 + 8, 4 + 4 + 4);
    std::string info = info_of(out, "coalescing");
    cr_assert(has(info, "global stores at " + where(kPcB) + " touch 32 sectors"), "%s", info.c_str());
    cr_assert(has(info, "threads (threadIdx.x) write addresses 256 bytes apart"), "%s", info.c_str());
}

Test(emu_traffic, the_worst_instruction_is_the_one_with_the_worst_ratio)
{
    start_launch(dim3(1), dim3(32));
    start_block(0);
    for (unsigned t : schedule(32)) {
        as_thread(t);
        load(kPcA, kGlobal + 8 * t); /* 8 sectors for 4: 2x */
        if (t < 4)
            load(kPcB, kGlobal + 8192 + 2048 * t); /* 4 sectors for 1: 4x, fewer wasted */
    }
    std::string out = end_launch();
    assert_sectors(out, 8 + 4, 4 + 1);
    std::string info = info_of(out, "coalescing");
    cr_assert(has(info, "global loads at " + where(kPcB) + " touch 4 sectors per warp access where 1 would do (4.0x)"),
              "%s", info.c_str());
}

/* ---- bank conflicts --------------------------------------------------------------------- */
/* A 16x16 block reading a 16x16 float tile: for k in 0..15 the thread
 * (ty, tx) reads tile[row(ty, tx, k)][col(ty, tx, k)]. */
template <class Index> static std::string tile_reads(Index index)
{
    start_launch(dim3(1), dim3(16, 16));
    start_block(0);
    for (unsigned t : schedule(256)) {
        as_thread(t);
        for (unsigned k = 0; k < 16; k++)
            shared_load(kPcA, kShared + 4 * index(t / 16, t % 16, k));
    }
    return end_launch();
}

Test(emu_traffic, reading_a_row_of_a_tile_is_a_broadcast)
{
    /* As[ty][k]: 16 threads of a row share one word; the warp's two rows
     * are 16 words apart, in different banks. */
    std::string out = tile_reads([](unsigned ty, unsigned, unsigned k) { return ty * 16 + k; });
    assert_wavefronts(out, 8 * 16, 8 * 16);
    cr_assert(has(info_of(out, "bank-conflicts"), "free of bank conflicts"), "%s", out.c_str());
}

Test(emu_traffic, reading_consecutive_columns_of_a_tile_is_one_wavefront)
{
    /* Bs[k][tx]: 16 consecutive words, read by both rows of the warp. */
    std::string out = tile_reads([](unsigned, unsigned tx, unsigned k) { return k * 16 + tx; });
    assert_wavefronts(out, 8 * 16, 8 * 16);
}

Test(emu_traffic, reading_a_column_of_16_float_rows_is_a_16_way_conflict)
{
    start_launch(dim3(1), dim3(32));
    start_block(0);
    for (unsigned t : schedule(32)) {
        as_thread(t);
        shared_load(kPcB, kShared + 64 * t); /* tile[tx][0] of a [32][16] float tile */
    }
    std::string out = end_launch();
    assert_wavefronts(out, 16, 1);
    std::string info = info_of(out, "bank-conflicts");
    cr_assert(has(info, "shared loads"), "%s", info.c_str());
    cr_assert(has(info, " at " + where(kPcB) + " are 16-way bank conflicts (16 wavefronts per warp access where 1 "
                                                "would do): consecutive threads (threadIdx.x) access addresses 64 "
                                                "bytes apart"),
              "%s", info.c_str());
}

Test(emu_traffic, two_words_of_one_bank_need_two_wavefronts_and_8_byte_words_need_two_anyway)
{
    start_launch(dim3(1), dim3(32));
    start_block(0);
    for (unsigned t : schedule(32)) {
        as_thread(t);
        shared_load(kPcA, kShared + (t < 16 ? 0 : 128));  /* words 0 and 32: both bank 0 */
        shared_load(kPcB, kShared + 1024 + 8 * t, 8);     /* 64 consecutive words */
    }
    std::string out = end_launch();
    assert_wavefronts(out, 2 + 2, 1 + 2);
    std::string info = info_of(out, "bank-conflicts");
    cr_assert(has(info, "at " + where(kPcA) + " are 2-way"), "%s", info.c_str());
}

/* ---- grouping ------------------------------------------------------------------------------ */
Test(emu_traffic, each_execution_of_an_instruction_is_its_own_warp_access)
{
    start_launch(dim3(1), dim3(32));
    start_block(0);
    for (unsigned t : schedule(32)) {
        as_thread(t);
        for (unsigned k = 0; k < 2; k++) {
            load(kPcA, k == 0 ? kGlobal + 4 * t : kGlobal + 4096 + 64 * t); /* 4 sectors, then 32 */
            shared_load(kPcB, kShared + (k == 0 ? 4 * t : 8 * t));         /* 1 wavefront, then 2 */
        }
    }
    std::string out = end_launch();
    assert_sectors(out, 4 + 32, 4 + 4);
    assert_wavefronts(out, 1 + 2, 2);
    std::string info = info_of(out, "coalescing"); /* explained by its worse warp access */
    cr_assert(has(info, "touch 18 sectors per warp access where 4 would do (4.5x): consecutive threads (threadIdx.x) "
                        "read addresses 64 bytes apart"),
              "%s", info.c_str());
}

Test(emu_traffic, a_barrier_starts_the_count_of_executions_again)
{
    start_launch(dim3(1), dim3(32));
    start_block(0);
    for (unsigned t : schedule(32)) {
        as_thread(t);
        load(kPcA, kGlobal + 4 * t);
        if (t == 0)
            load(kPcA, kGlobal + 4096); /* thread 0 alone runs the instruction twice */
    }
    barrier();
    for (unsigned t : schedule(32)) {
        as_thread(t);
        load(kPcA, kGlobal + 8192 + 4 * t);
    }
    std::string out = end_launch();
    /* 4 + 1 + 4; counting executions across the barrier would have paired
     * thread 0's second access with the others' third: 4 + 5 + 1. */
    assert_sectors(out, 9, 9);
}

Test(emu_traffic, only_the_first_32_executions_per_barrier_interval_are_grouped)
{
    start_launch(dim3(1), dim3(32));
    start_block(0);
    for (unsigned t : schedule(32)) {
        as_thread(t);
        for (unsigned k = 0; k < tr::kMaxExecs + 8; k++)
            load(kPcA, kGlobal + 128 * k + 4 * t);
    }
    tr::launch_totals sums = tr::totals();
    std::string out = end_launch();
    assert_sectors(out, 4 * tr::kMaxExecs, 4 * tr::kMaxExecs);
    cr_assert_eq(sums.ungrouped_accesses, 8 * 32);
    cr_assert_eq(sums.global_load_bytes, 4 * 32 * (tr::kMaxExecs + 8));
}

Test(emu_traffic, a_16x16_block_is_8_warps_of_two_rows)
{
    start_launch(dim3(1), dim3(16, 16));
    start_block(0);
    for (unsigned t : schedule(256)) {
        as_thread(t);
        unsigned ty = t / 16, tx = t % 16;
        load(kPcA, kGlobal + 4 * (ty * 512 + tx)); /* two 64-byte row pieces per warp */
        load(kPcB, kGlobal + 4 * (tx * 512 + ty)); /* 16 rows, two adjacent floats in each */
    }
    std::string out = end_launch();
    assert_sectors(out, 8 * 4 + 8 * 16, 8 * 4 + 8 * 4);
    cr_assert(has(info_of(out, "coalescing"), "at " + where(kPcB) + " touch 16 sectors per warp access where 4"),
              "%s", out.c_str());
}

Test(emu_traffic, a_block_of_48_threads_has_a_half_warp)
{
    std::string out = one_strided_load(48, kGlobal, 4);
    assert_sectors(out, 4 + 2, 4 + 2);
    out = one_strided_load(48, kGlobal, 2048);
    assert_sectors(out, 32 + 16, 4 + 2);
}

Test(emu_traffic, a_warp_of_12_threads_needs_2_sectors_for_its_48_bytes)
{
    std::string out = one_strided_load(44, kGlobal, 4); /* warps of 32 and 12 threads */
    assert_sectors(out, 4 + 2, 4 + 2);
}

Test(emu_traffic, the_naive_kernels_row_broadcast_is_two_sectors_for_two_addresses)
{
    /* A[row * 512 + k] in 16x16 blocks: each warp reads one float of each of two rows. */
    start_launch(dim3(1), dim3(16, 16));
    start_block(0);
    for (unsigned t : schedule(256)) {
        as_thread(t);
        for (unsigned k = 0; k < 3; k++)
            load(kPcA, kGlobal + 4 * (t / 16 * 512 + k));
    }
    std::string out = end_launch();
    assert_sectors(out, 8 * 3 * 2, 8 * 3 * 1);
    std::string info = info_of(out, "coalescing");
    cr_assert(has(info, "touch 2 sectors per warp access where 1 would do (2.0x): groups of consecutive threads "
                        "(threadIdx.x) read the same address, but the 32 threads of a warp read 2 distinct addresses "
                        "spread over 2052 bytes (a warp spans 2 values of threadIdx.y)"),
              "%s", info.c_str());
}

Test(emu_traffic, a_scattered_gather_is_called_scattered)
{
    start_launch(dim3(1), dim3(32));
    start_block(0);
    uintptr_t lowest = ~uintptr_t(0), highest = 0;
    for (unsigned t : schedule(32)) {
        as_thread(t);
        uintptr_t addr = kGlobal + 64 * ((37 * t * t + 11) % 97); /* 32 distinct, no common step */
        lowest = std::min(lowest, addr);
        highest = std::max(highest, addr);
        load(kPcA, addr);
    }
    std::string out = end_launch();
    assert_sectors(out, 32, 4);
    std::string info = info_of(out, "coalescing");
    std::string span = std::to_string(highest + 4 - lowest);
    cr_assert(has(info, "the 32 threads of a warp read 32 distinct addresses spread over " + span + " bytes"), "%s",
              info.c_str());
}

Test(emu_traffic, bytes_of_one_word_read_by_different_threads_are_one_word)
{
    start_launch(dim3(1), dim3(32));
    start_block(0);
    for (unsigned t : schedule(32)) {
        as_thread(t);
        shared_load(kPcA, kShared + 2 * t, 1); /* every other byte: two threads per word */
    }
    std::string out = end_launch();
    assert_wavefronts(out, 1, 1);
}

/* ---- the sample and the output ------------------------------------------------------------- */
Test(emu_traffic, the_sample_is_the_first_4_every_64th_and_the_last_block)
{
    const uint64_t sampled[] = {0, 1, 2, 3, 64, 128, 999};
    unsigned count = 0;
    for (uint64_t b = 0; b < 1000; b++)
        count += tr::block_is_sampled(b, 1000);
    cr_assert_eq(count, 4 + 15 + 1); /* 0..3, 64..960, 999 */
    for (uint64_t b : sampled)
        cr_assert(tr::block_is_sampled(b, 1000), "block %lu", (unsigned long)b);
    cr_assert_not(tr::block_is_sampled(4, 1000));
    cr_assert_not(tr::block_is_sampled(998, 1000));
}

Test(emu_traffic, only_sampled_blocks_are_analysed_but_every_byte_is_counted)
{
    start_launch(dim3(10, 13), dim3(32)); /* 130 blocks: 0-3, 64, 128, 129 analysed */
    for (unsigned b = 0; b < 130; b++) {
        start_block(b);
        for (unsigned t : schedule(32)) {
            as_thread(t);
            load(kPcA, kGlobal + 128 * b + 4 * t);
            store(kPcB, kGlobal + 65536 + 128 * b + 4 * t);
            tr::access(true, kShared + 4 * t, 4, true, kPcC);
        }
        tr::block_end();
    }
    tr::launch_totals sums = tr::totals();
    std::string out = end_launch();
    cr_assert_eq(stat_of(out, "analysed_blocks"), 7, "%s", out.c_str());
    assert_sectors(out, 7 * 8, 7 * 8);
    assert_wavefronts(out, 7, 7);
    cr_assert_eq(sums.global_load_bytes, 130 * 128);
    cr_assert_eq(sums.global_store_bytes, 130 * 128);
    cr_assert_eq(sums.shared_store_bytes, 130 * 128);
    cr_assert_eq(sums.shared_load_bytes, 0);
    cr_assert(has(info_of(out, "coalescing"), "7 of 130 blocks analysed"), "%s", out.c_str());
}

Test(emu_traffic, a_launch_emits_its_five_stats_once_and_not_the_byte_counts)
{
    std::string out = one_strided_load(32, kGlobal, 2048);
    cr_assert_eq(count_lines(out, "stat\t"), 5, "%s", out.c_str());
    for (const char *key : {"coalesced_sectors", "min_sectors", "bank_wavefronts", "min_wavefronts", "analysed_blocks"})
        cr_assert_eq(count_lines(out, std::string("stat\t") + key + "\t"), 1, "%s in:\n%s", key, out.c_str());
    cr_assert_not(has(out, "_bytes"), "%s", out.c_str());
    cr_assert_eq(count_lines(out, "info\tcoalescing\t"), 1, "%s", out.c_str());
    cr_assert_eq(count_lines(out, "info\tbank-conflicts\t"), 0, "no shared access, no line:\n%s", out.c_str());
}

Test(emu_traffic, a_launch_without_accesses_says_nothing_but_its_zero_stats)
{
    start_launch(dim3(2), dim3(64));
    start_block(0);
    tr::block_end();
    start_block(1);
    std::string out = end_launch();
    cr_assert_eq(stat_of(out, "coalesced_sectors"), 0);
    cr_assert_eq(stat_of(out, "bank_wavefronts"), 0);
    cr_assert_eq(stat_of(out, "analysed_blocks"), 2);
    cr_assert_eq(count_lines(out, "info\t"), 0, "%s", out.c_str());
}

/* ---- cost (printed, not asserted) ------------------------------------------------------------ */
using access_fn = void (*)(bool, uintptr_t, unsigned, bool, uintptr_t);
__attribute__((noinline)) static void no_access(bool, uintptr_t, unsigned, bool, uintptr_t) { asm volatile(""); }

/* The reference tiled kernel's accesses (TILE 16) in blocks first..first +
 * count - 1 of a width x width x width product: per phase two global loads
 * and two shared stores, a barrier, 32 shared loads, a barrier; one global
 * store at the end. Returns the number of accesses. */
static unsigned long long tiled_matmul(access_fn access, unsigned width, unsigned first, unsigned count)
{
    unsigned long long n = 0;
    const uintptr_t tile_a = kShared, tile_b = kShared + 1024, B = kGlobal + (1u << 24), C = kGlobal + (1u << 25);
    const unsigned tiles = width / 16;
    for (unsigned b = first; b < first + count; b++) {
        start_block(b);
        unsigned row0 = b / tiles % tiles * 16, col0 = b % tiles * 16;
        for (unsigned phase = 0; phase < tiles; phase++) {
            for (unsigned t = 0; t < 256; t++) {
                unsigned ty = t / 16, tx = t % 16;
                as_thread(t);
                access(false, kGlobal + 4 * ((row0 + ty) * width + phase * 16 + tx), 4, false, kPcA);
                access(false, B + 4 * ((phase * 16 + ty) * width + col0 + tx), 4, false, kPcB);
                access(true, tile_a + 4 * (ty * 16 + tx), 4, true, kPcA + 8);
                access(true, tile_b + 4 * (ty * 16 + tx), 4, true, kPcB + 8);
            }
            barrier();
            for (unsigned t = 0; t < 256; t++) {
                as_thread(t);
                for (unsigned k = 0; k < 16; k++) {
                    access(true, tile_a + 4 * (t / 16 * 16 + k), 4, false, kPcC);
                    access(true, tile_b + 4 * (k * 16 + t % 16), 4, false, kPcC + 8);
                }
            }
            barrier();
            n += 256 * 36;
        }
        for (unsigned t = 0; t < 256; t++) {
            as_thread(t);
            access(false, C + 4 * ((row0 + t / 16) * width + col0 + t % 16), 4, true, kPcC + 16);
        }
        n += 256;
        tr::block_end();
    }
    return n;
}

/* Seconds per access of the traffic module on blocks first.. of a grid of
 * grid_blocks, less the same loop calling an empty function (best of 3). */
static double net_cost(unsigned width, unsigned grid_blocks, unsigned first, unsigned count,
                       unsigned long long *accesses)
{
    double best[2] = {1e9, 1e9};
    for (int rep = 0; rep < 6; rep++) {
        int pass = rep % 2;
        start_launch(dim3(grid_blocks), dim3(16, 16));
        auto start = std::chrono::steady_clock::now();
        *accesses = tiled_matmul(pass == 0 ? no_access : tr::access, width, first, count);
        best[pass] = std::min(best[pass], std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        end_launch();
    }
    return (best[1] - best[0]) / double(*accesses);
}

Test(emu_traffic, cost_per_access_is_printed)
{
    /* CUGRADE_TRAFFIC_BENCH=1: the benchmark's 512^3 (1024 blocks); else 128^3. */
    const unsigned width = getenv("CUGRADE_TRAFFIC_BENCH") ? 512 : 128, blocks = (width / 16) * (width / 16);
    unsigned long long all, sampled, unsampled;
    double launch = net_cost(width, blocks, 0, blocks, &all);
    tr::launch_totals sums = tr::totals();
    double in_sample = net_cost(width, 4, 0, 4, &sampled);
    double outside = net_cost(width, 1u << 20, 4, 60, &unsampled); /* blocks 4..63: not sampled */
    cr_assert_eq(sums.analysed_blocks, 4 + (blocks - 1) / 64 + 1); /* 0-3, 64k, the last */
    fprintf(stderr,
            "traffic cost, tiled %u^3 pattern (%llu accesses, %llu of %u blocks analysed): %.2f ns/access "
            "over the launch; %.2f ns/access in an analysed block, %.2f ns/access in another\n",
            width, all, sums.analysed_blocks, blocks, 1e9 * launch, 1e9 * in_sample, 1e9 * outside);
}
