/* test_emu_checks.cpp - the checking mode on the lab's kernel: a tiled
 * matrix multiply missing its first or its second barrier has a race on its
 * shared tiles, reported with the variable, both lines, the threads and the
 * block, under forward, reverse and shuffled schedules; the correct kernel
 * (tile widths 8, 16 and 32, even and uneven shapes) has no finding at all;
 * threads that return before a barrier are named; the stat lines count the
 * bytes each kernel moves. The kernels are in check_kernels_matmul.cpp,
 * built with -fsanitize=thread (see check_kernels.h). */
#include <criterion/criterion.h>

#include "check_test_helpers.h"

static const char *const kTiledFile = "check_tiled_kernel.h";

/* ---- races ------------------------------------------------------------------ */
/* The race lines of a 16-tiled 64x64x64 product with the given bug. */
static std::vector<std::string> races_with(unsigned bug, const char *schedule)
{
    use_schedule(schedule);
    matrices m(64, 64, 64);
    std::string diag = captured([&] { launch_tiled(16, m.dA, m.dB, m.dC, m.M, m.K, m.N, bug); });
    return lines_starting(diag, "error\trace\t");
}

/* A race line on tile (tileA or tileB) between the line that stores it and
 * the line that reads it, naming threads and the block. */
static bool names_tile_race(const std::vector<std::string> &races, const char *tile, int store_line)
{
    for (const std::string &r : races)
        if (contains(r, std::string("Race on shared ") + tile + " (element ") &&
            contains(r, at(kTiledFile, store_line)) && contains(r, at(kTiledFile, g_lines.read_tiles)) &&
            contains(r, "writes it at") && contains(r, "reads it at") && contains(r, " of block (") &&
            contains(r, "a __syncthreads() is missing between them"))
            return true;
    return false;
}

static void expect_tile_races(unsigned bug, const char *schedule)
{
    std::vector<std::string> races = races_with(bug, schedule);
    std::string all;
    for (const std::string &r : races)
        all += r + "\n";
    cr_assert(names_tile_race(races, "tileA", g_lines.load_a), "%s schedule:\n%s", schedule, all.c_str());
    cr_assert(names_tile_race(races, "tileB", g_lines.load_b), "%s schedule:\n%s", schedule, all.c_str());
}

Test(emu_checks, missing_first_barrier_forward) { expect_tile_races(kMissingFirstBarrier, "forward"); }
Test(emu_checks, missing_first_barrier_reverse) { expect_tile_races(kMissingFirstBarrier, "reverse"); }
Test(emu_checks, missing_first_barrier_shuffled) { expect_tile_races(kMissingFirstBarrier, "shuffle:7"); }
Test(emu_checks, missing_second_barrier_forward) { expect_tile_races(kMissingSecondBarrier, "forward"); }
Test(emu_checks, missing_second_barrier_reverse) { expect_tile_races(kMissingSecondBarrier, "reverse"); }
Test(emu_checks, missing_second_barrier_shuffled) { expect_tile_races(kMissingSecondBarrier, "shuffle:12345"); }

Test(emu_checks, missing_first_barrier_is_a_race_not_an_uninitialised_read)
{
    use_schedule("forward"); /* thread 0 reads tile elements before their threads store them */
    matrices m(64, 64, 64);
    std::string diag = captured([&] { launch_tiled(16, m.dA, m.dB, m.dC, m.M, m.K, m.N, kMissingFirstBarrier); });
    cr_assert_eq(lines_starting(diag, "error\tuninit-shared\t").size(), 0u, "%s", diag.c_str());
    cr_assert_gt(lines_starting(diag, "error\trace\t").size(), 0u);
}

Test(emu_checks, one_phase_needs_no_second_barrier)
{
    matrices m(32, 16, 32); /* K = 16: the tiles are never overwritten */
    std::string diag = captured([&] { launch_tiled(16, m.dA, m.dB, m.dC, m.M, m.K, m.N, kMissingSecondBarrier); });
    cr_assert_eq(findings(diag), 0u, "%s", diag.c_str());
}

Test(emu_checks, shuffled_schedule_is_reproducible_and_correct)
{
    use_schedule("shuffle:99");
    matrices m(67, 45, 93);
    std::string diag = captured([&] { launch_tiled(16, m.dA, m.dB, m.dC, m.M, m.K, m.N, 0); });
    cr_assert_eq(m.wrong(), 0);
    cr_assert_eq(findings(diag), 0u, "%s", diag.c_str());
}

/* ---- no false positives ------------------------------------------------------ */
static void expect_clean(int tile, int M, int K, int N)
{
    matrices m(M, K, N);
    std::string diag = captured([&] { launch_tiled(tile, m.dA, m.dB, m.dC, M, K, N, 0); });
    cr_assert_eq(m.wrong(), 0, "tile %d, %dx%dx%d", tile, M, K, N);
    cr_assert_eq(findings(diag), 0u, "tile %d, %dx%dx%d:\n%s", tile, M, K, N, diag.c_str());
    cr_assert_eq(stat_value(diag, "blocks"), (long long)((M + tile - 1) / tile) * ((N + tile - 1) / tile));
}

Test(emu_checks, correct_kernel_tile8_is_clean)
{
    expect_clean(8, 64, 64, 64);
    expect_clean(8, 100, 128, 56);
    expect_clean(8, 1, 200, 1);
}

Test(emu_checks, correct_kernel_tile16_is_clean)
{
    expect_clean(16, 64, 64, 64);
    expect_clean(16, 100, 128, 56);
    expect_clean(16, 1, 200, 1);
    expect_clean(16, 40, 7, 33);
}

Test(emu_checks, correct_kernel_tile32_is_clean)
{
    expect_clean(32, 64, 64, 64);
    expect_clean(32, 100, 128, 56);
    expect_clean(32, 1, 200, 1);
}

Test(emu_checks, correct_kernel_is_clean_in_every_order)
{
    const char *orders[] = {"forward", "reverse", "shuffle:3"};
    for (const char *order : orders) {
        use_schedule(order);
        expect_clean(16, 100, 128, 56);
    }
}

/* ---- barriers ---------------------------------------------------------------- */
Test(emu_checks, early_return_names_who_waits_and_who_returned)
{
    use_schedule("forward"); /* blocks in index order */
    matrices m(20, 32, 20); /* blocks on the edges have threads outside C */
    std::string diag = captured([&] { launch_early_return(m.dA, m.dB, m.dC, m.M, m.K, m.N); });
    std::vector<std::string> lines = lines_starting(diag, "error\tbarrier-divergence\t");
    cr_assert_gt(lines.size(), 0u, "%s", diag.c_str());
    const std::string &first = lines[0];
    cr_assert(contains(first, "block (1,0,0)"), "%s", first.c_str()); /* x fastest: block (1,0,0) runs second */
    cr_assert(contains(first, "64 of 256 threads (threads (0,0,0) to (3,15,0)) wait"), "%s", first.c_str());
    cr_assert(contains(first, "but 192 (threads (4,0,0) to (15,15,0)) have already returned"), "%s", first.c_str());
    cr_assert(contains(first, "check_kernels_matmul.cpp:"), "%s", first.c_str());
}

/* ---- statistics --------------------------------------------------------------- */
Test(emu_checks, naive_kernel_loads_eight_bytes_per_multiply_add)
{
    matrices m(40, 24, 56);
    std::string diag = captured([&] { launch_naive(m.dA, m.dB, m.dC, m.M, m.K, m.N); });
    cr_assert_eq(m.wrong(), 0);
    cr_assert_eq(findings(diag), 0u, "%s", diag.c_str());
    cr_assert_eq(stat_value(diag, "global_load_bytes"), 8ll * 40 * 24 * 56);
    cr_assert_eq(stat_value(diag, "global_store_bytes"), 4ll * 40 * 56);
    cr_assert_eq(stat_value(diag, "shared_load_bytes"), 0);
    cr_assert_eq(stat_value(diag, "shared_staged_loads"), 0);
    cr_assert_eq(stat_value(diag, "threads"), 3ll * 4 * 256);
}

Test(emu_checks, tiled_kernel_loads_sixteen_times_less)
{
    matrices m(64, 48, 32);
    std::string diag = captured([&] { launch_tiled(16, m.dA, m.dB, m.dC, m.M, m.K, m.N, 0); });
    cr_assert_eq(stat_value(diag, "global_load_bytes"), 8ll * 64 * 48 * 32 / 16);
    cr_assert_eq(stat_value(diag, "global_store_bytes"), 4ll * 64 * 32);
    cr_assert_eq(stat_value(diag, "shared_store_bytes"), 8ll * 64 * 32 * (48 / 16));
    cr_assert_eq(stat_value(diag, "shared_load_bytes"), 8ll * 64 * 48 * 32);
    cr_assert_gt(stat_value(diag, "shared_staged_loads"), 0);
    cr_assert_eq(lines_starting(diag, "stat\tblocks\t").size(), 1u, "one set of stat lines per launch");
}
