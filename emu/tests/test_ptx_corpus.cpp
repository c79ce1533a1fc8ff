/* test_ptx_corpus.cpp - lab 3's corpus of bug classes (the kernels of
 * tests/e2e/test_corpus.c, one per class) on the executor, with every check
 * on, on that test's three shapes (even 48x48x48; 100x128x56, uneven and
 * several phases; 40x7x33, K under the tile): the checks the emulator's
 * grading fails must fail here, from the executor's own findings and
 * counts, and every other must pass:
 *
 *   race-free          no race           barriers-uniform   no barrier finding
 *   memory-safe        no bad access and no uninitialised read
 *   uses-shared-memory values read back from shared memory
 *   traffic-reduced    global bytes (loads and stores) per FLOP at most 1.0
 *                      (lab 3's rubric), over the three shapes
 *
 * A kernel whose every dataset fails (passes_nothing) is held to its
 * failing checks alone, as the grader scores no other. */
#include "ptx_test_helpers.h"

#include <cmath>

#define NCHECKS 5
static const char *const check_names[NCHECKS] = {"race-free", "barriers-uniform", "memory-safe",
                                                 "uses-shared-memory", "traffic-reduced"};

struct CorpusCase {
    const char *file;
    const char *failing[NCHECKS];
    bool passes_nothing;
    unsigned tile; /* its launch function's block: tile x tile */
};

static const CorpusCase corpus[] = {
    {"missing_first_barrier", {"race-free"}, true, 16},
    {"missing_second_barrier", {"race-free"}, false, 16},
    {"barrier_in_if", {"barriers-uniform", "memory-safe"}, false, 16},
    {"early_return", {"barriers-uniform", "memory-safe"}, false, 16},
    {"unguarded_loads", {"memory-safe"}, false, 16},
    {"unguarded_store", {"memory-safe"}, false, 16},
    {"uninit_shared", {"memory-safe"}, false, 16},
    {"untiled", {"uses-shared-memory", "traffic-reduced"}, false, 16},
    {"transposed_mapping", {nullptr}, false, 16},
    {"tile8", {nullptr}, false, 8},
    {"tile32", {nullptr}, false, 32},
    {"course_style", {nullptr}, false, 16},
};

/* Each check's verdict over the three shapes (true: passed). */
static void verdicts(const char *file, unsigned tile, bool passed[NCHECKS])
{
    const int shapes[3][3] = {{48, 48, 48}, {100, 128, 56}, {40, 7, 33}};
    unsigned races = 0, barriers = 0, unsafe = 0;
    double bytes = 0, flops = 0, staged = 0;
    for (const auto &s : shapes) {
        ptx_device_t *d = device_with(file);
        ptx_set_checks(d, PTX_CHECK_RACES | PTX_CHECK_UNINIT | PTX_CHECK_TRAFFIC);
        ptx_launch_result_t r;
        std::string text = ptx_text(file);
        const char *kernel = text.find("_Z20matrixMultiplySharedPKfS0_Pfiiiiii") != std::string::npos
                                 ? "matrixMultiplyShared" : "matrixMultiply";
        Product p = launch_product(d, file, kernel, s[0], s[1], s[2], r, tile);
        cr_assert(p.status == PTX_OK || p.status == PTX_ERR_ADDRESS || p.status == PTX_ERR_BARRIER,
                  "%s: %s", file, r.message);
        races += r.nrace, barriers += r.nbarrier, unsafe += r.naddress + r.nuninit;
        bytes += (double)(r.traffic.global_load_bytes + r.traffic.global_store_bytes);
        flops += (double)r.traffic.flops;
        staged += (double)r.traffic.shared_loads;
        ptx_device_free(d);
    }
    passed[0] = races == 0;
    passed[1] = barriers == 0;
    passed[2] = unsafe == 0;
    passed[3] = staged > 0;
    passed[4] = flops > 0 && bytes / flops <= 1.0;
}

Test(ptx_corpus, every_bug_class_fails_its_checks_and_only_those)
{
    for (const CorpusCase &c : corpus) {
        bool passed[NCHECKS];
        verdicts(c.file, c.tile, passed);
        for (int k = 0; k < NCHECKS; k++) {
            bool must_fail = false;
            for (int i = 0; i < NCHECKS && c.failing[i]; i++)
                must_fail = must_fail || strcmp(c.failing[i], check_names[k]) == 0;
            if (must_fail)
                cr_expect(!passed[k], "%s: %s should fail", c.file, check_names[k]);
            else if (!c.passes_nothing)
                cr_expect(passed[k], "%s: %s should pass", c.file, check_names[k]);
        }
    }
}

/* With sampling (ptx_set_sampling, as the grader runs the executor), a grid
 * of 13 x 13 blocks has its races, uninitialised shared reads, sectors and
 * wavefronts looked at in a sample of blocks, and everything else counted
 * in all: the reference's bytes, staged loads, FLOPs and instructions are
 * those of a launch with every block checked; the missing barrier's race
 * and the unguarded loads' uninitialised shared reads (on the grid's edge)
 * are still found; and fewer blocks were looked at. */
Test(ptx_corpus, a_sample_of_blocks_finds_what_every_block_finds)
{
    struct Run {
        ptx_launch_result_t r;
    };
    auto launch = [](const char *file, const char *kernel, bool sample) {
        ptx_device_t *d = device_with(file);
        ptx_set_checks(d, PTX_CHECK_RACES | PTX_CHECK_UNINIT | PTX_CHECK_TRAFFIC);
        ptx_set_sampling(d, sample);
        Run run;
        launch_product(d, file, kernel, 200, 72, 201, run.r);
        ptx_device_free(d);
        return run;
    };
    Run all = launch("lab3", "matrixMultiplyShared", false);
    Run some = launch("lab3", "matrixMultiplyShared", true);
    cr_assert_eq(all.r.sampled_blocks, 13u * 13u);
    cr_assert_lt(some.r.sampled_blocks, all.r.sampled_blocks / 2, "%llu of 169 blocks looked at",
                 (unsigned long long)some.r.sampled_blocks);
    cr_assert_eq(some.r.instructions, all.r.instructions);
    cr_assert_eq(some.r.traffic.global_load_bytes, all.r.traffic.global_load_bytes);
    cr_assert_eq(some.r.traffic.global_store_bytes, all.r.traffic.global_store_bytes);
    cr_assert_eq(some.r.traffic.shared_loads, all.r.traffic.shared_loads);
    cr_assert_eq(some.r.traffic.flops, all.r.traffic.flops);
    cr_assert_eq(some.r.nfindings, 0u);
    Run race = launch("missing_first_barrier", "matrixMultiplyShared", true);
    cr_assert_gt(race.r.nrace, 0u, "the race of missing_first_barrier.cu, in the sampled blocks");
    Run uninit = launch("uninit_shared", "matrixMultiplyShared", true);
    cr_assert_gt(uninit.r.nuninit, 0u, "uninit_shared.cu's reads, on the grid's edge");
}
