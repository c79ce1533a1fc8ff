/* test_hints.c - end to end, diagnosis by hypothesis: each of the eight lab 3
 * submissions with one classic mistake (tests/submissions/lab3/, the header
 * of each file says which) is graded on the emu backend against the 20
 * shipped datasets (datasets/lab3/manifest.txt) with --checks none, and
 * results.json must show the datasets that mistake cannot spoil passing,
 * every other dataset failing, and each failing dataset's output naming
 * the mistake with its fix; of the hidden datasets (from the tests' secret,
 * e2e.h), as many pass as the mistake allows, and every failing one names
 * the mistake too. */
#include "e2e.h"

#define NDATASETS 20
#define POINTS_PER_DATASET 3.5
#define MAX_PASSING 10
#define NHIDDEN 8
#define HIDDEN_POINTS 2.5

typedef struct {
    const char *file;
    int passing[MAX_PASSING]; /* the datasets that pass, -1 ended */
    const char *every_failing; /* in the output of every failing dataset */
    int dataset;               /* a named dataset... */
    const char *at_dataset[4]; /* ...and what its output holds (one explanation only) */
    int hidden_passing;        /* hidden datasets that pass: those of its shapes it cannot spoil */
} hint_case_t;

static const hint_case_t cases[] = {
    /* B read as B[col*K + k]: the same as B[k*N + col] when B is a vector,
     * K = 1 (64x1x48) or N = 1 (1x200x1, 1x1x1) */
    {"transposed_b.cu", {8, 9, 17, -1},
     "B[col*numBRows + k]", /* named, or listed where a shape cannot tell it from another */
     5, {"hint: every element equals A·Bᵀ", "row-major B is B[k*numBColumns + col]"},
     3 /* hidden 1x1x1, 119x104x1, 109x1x57 */},
    /* A read as A[k*M + row]: the same when A is a vector, M = 1 (1x200x1,
     * 1x1x1) or K = 1 (64x1x48) */
    {"transposed_a.cu", {8, 9, 17, -1},
     "A[k*numARows + row]",
     12, {"hint: every element equals Aᵀ·B: A is read as A[k*numARows + row]"},
     3 /* hidden 1x1x1, 1x22x171, 109x1x57 */},
    /* C stored as C[col*M + row]: the same only when C is 1x1 (1x200x1,
     * 1x1x1); 2x1000x3 and 64x1x48 have 2-D outputs */
    {"store_transposed.cu", {8, 17, -1},
     "hint: every element is computed right but stored in the wrong place: C is written as "
     "C[col*numCRows + row] (transposed); row-major C is C[row*numCColumns + col]",
     9, {"hint: every element is computed right but stored in the wrong place"},
     3 /* hidden 1x1x1, 1x22x171, 119x104x1: C is a vector */},
    /* K / 16 phases: right when K is a multiple of 16 (64, 48, 128, 64, 128,
     * 256, 128, 16, 32: datasets 0-4, 6, 7, 15, 16); with K < 16 nothing is
     * summed */
    {"intdiv_phases.cu", {0, 1, 2, 3, 4, 6, 7, 15, 16, -1},
     "use (K + TILE_WIDTH - 1) / TILE_WIDTH",
     5, {"hint: every element equals the sum over k = 0..287 only, not over all K = 300",
         "the last, partial phase (k = 288..299) never runs", "K / TILE_WIDTH rounds down"},
     0 /* no hidden K is a multiple of 16 */},
    /* tileB[tx][k]: right only on a 1x1 output whose one thread reads
     * tileB[0][k] == tileB[k][0] for k = 0 only (1x1x1); on 1x200x1 the
     * A-tile version gives the same single number, and on 16x16x16 A·Bᵀ
     * does (one tile: tileB[tx][k] is B[tx][k]): both are named */
    {"tile_b_transposed.cu", {17, -1},
     "tileB[tx][k]", /* named, or listed where the shape cannot tell (K = 1: a guard on tx) */
     0, {"hint: every element equals what the tiled loop gives when the B tile is read transposed "
         "inside the tile", "read tileB[k][tx]"},
     1 /* hidden 1x1x1 */},
    /* blockIdx swapped in the loads: right when the grid is one block
     * (1x200x1, 16x16x16, 1x1x1, 2x1000x3); on 100x128x64 (a grid of 4 x 7
     * blocks) the 4 blocks with blockIdx.x == blockIdx.y load their own
     * tiles: 4 x 256 of the 6400 elements are right */
    {"blocks_swapped.cu", {8, 15, 17, 18, -1},
     "hint: every element holds the result of another block's tile: the tile loads use blockIdx.x "
     "for the row and blockIdx.y for the column",
     4, {"FAILED: 5376 of 6400 elements wrong",
         "row = blockIdx.y*TILE_WIDTH + threadIdx.y and col = blockIdx.x*TILE_WIDTH + threadIdx.x"},
     1 /* hidden 1x1x1, the only grid of one block */},
    /* the sum reset every phase: right with one phase, K <= 16 (64x1x48,
     * 40x7x33, 16x16x16, 1x1x1) */
    {"sum_reset_each_phase.cu", {9, 10, 15, 17, -1},
     "the sum is reset to 0 inside the phase loop; set it to 0 once, before the loop",
     5, {"hint: every element equals the sum over the last phase only (k = 288..299)"},
     4 /* hidden 1x1x1, 109x1x57, 251x15x24, 287x9x4 */},
    /* the partial sum kept: phase p counted (phases - p) times; right with
     * one phase, K <= 16 */
    {"phase_totals_kept.cu", {9, 10, 15, 17, -1},
     "hint: every element equals the running sum after phase 1, plus the one after phase 2, and so "
     "on: a phase's partial sum is added to the total but not reset to 0 before the next phase",
     11, {"reset it, or accumulate in one sum"},
     4 /* hidden 1x1x1, 109x1x57, 251x15x24, 287x9x4 */},
};

static int expected_to_pass(const hint_case_t *c, int d)
{
    for (int i = 0; i < MAX_PASSING && c->passing[i] >= 0; i++)
        if (c->passing[i] == d)
            return 1;
    return 0;
}

static json_object *dataset_test(const graded_t *g, int d)
{
    char prefix[32];
    snprintf(prefix, sizeof prefix, "dataset %d (", d);
    return test_named(g, prefix);
}

/* Grades c's submission; checks the score, which datasets pass, and the
 * hint of every failing one. Returns the grade for more checks. */
static graded_t grade_hint_case(const hint_case_t *c)
{
    char path[256];
    snprintf(path, sizeof path, SUB "%s", c->file);
    const char *extra[] = {"--checks", "none", NULL};
    graded_t g = grade(path, extra);
    cr_assert_eq(exit_code(&g), 0, "%s: %s", c->file, g.run.output);
    cr_assert_not_null(g.json, "%s: no results.json: %s", c->file, g.run.output);
    int npass = 0;
    while (npass < MAX_PASSING && c->passing[npass] >= 0)
        npass++;
    json_object *extra_data;
    cr_assert(json_object_object_get_ex(g.json, "extra_data", &extra_data));
    cr_expect_eq((int)num(extra_data, "datasets_passed"), npass, "%s: %d datasets passed, want %d",
                 c->file, (int)num(extra_data, "datasets_passed"), npass);
    cr_expect_eq((int)num(extra_data, "datasets_total"), NDATASETS);
    cr_expect_eq((int)num(extra_data, "hidden_passed"), c->hidden_passing,
                 "%s: %d hidden datasets passed", c->file, (int)num(extra_data, "hidden_passed"));
    cr_expect_float_eq(num(g.json, "score"),
                       npass * POINTS_PER_DATASET + c->hidden_passing * HIDDEN_POINTS, 1e-9,
                       "%s: score %g", c->file, num(g.json, "score"));
    for (int k = 1; k <= NHIDDEN; k++) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "hidden dataset %d (", k);
        json_object *t = test_named(&g, prefix);
        if (!passed(t))
            cr_expect_not_null(strstr(str(t, "output"), c->every_failing),
                               "%s: hidden dataset %d: '%s' missing:\n%s", c->file, k,
                               c->every_failing, str(t, "output"));
    }
    for (int d = 0; d < NDATASETS; d++) {
        json_object *t = dataset_test(&g, d);
        const char *out = str(t, "output");
        if (expected_to_pass(c, d)) {
            cr_expect(passed(t), "%s: dataset %d should pass:\n%s", c->file, d, out);
            continue;
        }
        cr_expect(!passed(t), "%s: dataset %d should fail:\n%s", c->file, d, out);
        cr_expect_not_null(strstr(out, "hint: every element "),
                           "%s: dataset %d: no hypothesis named:\n%s", c->file, d, out);
        cr_expect_not_null(strstr(out, c->every_failing), "%s: dataset %d: '%s' missing:\n%s",
                           c->file, d, c->every_failing, out);
    }
    json_object *named = dataset_test(&g, c->dataset);
    cr_expect(!passed(named), "%s: dataset %d passed", c->file, c->dataset);
    const char *out = str(named, "output");
    for (int i = 0; i < 4 && c->at_dataset[i]; i++)
        cr_expect_not_null(strstr(out, c->at_dataset[i]), "%s: dataset %d: '%s' missing:\n%s",
                           c->file, c->dataset, c->at_dataset[i], out);
    cr_expect_null(strstr(out, "which this dataset cannot tell apart"), "%s: dataset %d:\n%s", c->file,
                   c->dataset, out);
    return g;
}

Test(hints, transposed_b_is_a_times_b_transposed, .timeout = 120)
{
    graded_t g = grade_hint_case(&cases[0]);
    release(&g);
}

Test(hints, transposed_a_is_a_transposed_times_b, .timeout = 120)
{
    graded_t g = grade_hint_case(&cases[1]);
    release(&g);
}

Test(hints, store_transposed_is_c_stored_transposed, .timeout = 120)
{
    graded_t g = grade_hint_case(&cases[2]);
    release(&g);
}

Test(hints, intdiv_phases_names_the_rounding_and_never_the_guards, .timeout = 120)
{
    graded_t g = grade_hint_case(&cases[3]);
    /* K < 16: no phase runs */
    const int small_k[][2] = {{9, 1}, {10, 7}, {17, 1}};
    for (int i = 0; i < 3; i++) {
        const char *out = str(dataset_test(&g, small_k[i][0]), "output");
        char want[64];
        snprintf(want, sizeof want, "(K = %d < 16)", small_k[i][1]);
        cr_expect_not_null(strstr(out, "hint: every element is 0, as if no product were summed"),
                           "dataset %d:\n%s", small_k[i][0], out);
        cr_expect_not_null(strstr(out, want), "dataset %d: '%s' missing:\n%s", small_k[i][0], want,
                           out);
    }
    const char *out11 = str(dataset_test(&g, 11), "output");
    cr_expect_not_null(strstr(out11, "k = 0..79 only, not over all K = 89"), "%s", out11);
    const char *out14 = str(dataset_test(&g, 14), "output"); /* signed, K = 257 */
    cr_expect_not_null(strstr(out14, "the last, partial phase (k = 256) never runs"), "%s", out14);
    /* the old guess blamed the guards of the tile loads: nothing here says so */
    for (int d = 0; d < NDATASETS; d++) {
        json_object *t = dataset_test(&g, d);
        if (!passed(t))
            cr_expect_null(strstr(str(t, "output"), "guard the tile loads"), "dataset %d:\n%s", d,
                           str(t, "output"));
    }
    release(&g);
}

Test(hints, tile_b_transposed_is_the_b_tile_read_transposed, .timeout = 120)
{
    graded_t g = grade_hint_case(&cases[4]);
    /* one 16x16 tile: A·Bᵀ is the same output, so neither is named: both
     * are listed as fitting, the tile once (not again for TILE_WIDTH 32) */
    const char *out = str(dataset_test(&g, 15), "output");
    cr_expect_not_null(strstr(out, "hint: every element fits 2 mistakes, which this dataset cannot "
                                   "tell apart"), "%s", out);
    cr_expect_not_null(strstr(out, "(1) A·Bᵀ (B read as B[col*numBRows + k]), (2) the B tile read "
                                   "transposed (tileB[tx][k])"), "%s", out);
    cr_expect_null(strstr(out, "TILE_WIDTH = 32"), "%s", out);
    json_object *extra;
    cr_assert(json_object_object_get_ex(dataset_test(&g, 15), "extra_data", &extra));
    cr_expect_str_eq(str(extra, "failure"), "consistent:b-transposed,tile-b-transposed");
    release(&g);
}

Test(hints, blocks_swapped_is_another_blocks_tile, .timeout = 120)
{
    graded_t g = grade_hint_case(&cases[5]);
    release(&g);
}

Test(hints, sum_reset_each_phase_keeps_the_last_phase, .timeout = 120)
{
    graded_t g = grade_hint_case(&cases[6]);
    const char *out = str(dataset_test(&g, 14), "output"); /* K = 257: the last phase is k = 256 */
    cr_expect_not_null(strstr(out, "the last phase only (k = 256)"), "%s", out);
    release(&g);
}

Test(hints, phase_totals_kept_counts_early_phases_again, .timeout = 120)
{
    graded_t g = grade_hint_case(&cases[7]);
    release(&g);
}

/* Issue 40, item 3c: the phases a hint counts are the student's, the tile
 * of the launch the grader saw (32 x 32 blocks), not the lab's 16. */
Test(hints, the_phases_counted_are_the_students_tile_not_the_labs, .timeout = 120)
{
    graded_t g = grade(SUB "intdiv_phases_tile32.cu", NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *out1 = str(dataset_test(&g, 1), "output"); /* 48x48x48 */
    cr_expect(strstr(out1, "the last, partial phase (k = 32..47) never runs: the phase count K / TILE_WIDTH "
                           "rounds down"), "%s", out1);
    const char *out15 = str(dataset_test(&g, 15), "output"); /* 16x16x16 */
    cr_expect(strstr(out15, "(K = 16 < 32)"), "%s", out15);
    for (int d = 0; d < NDATASETS; d++)
        cr_expect_null(strstr(str(dataset_test(&g, d), "output"), "stops one phase early"), "dataset %d:\n%s", d,
                       str(dataset_test(&g, d), "output"));
    release(&g);
}

/* Issue 40, item 4: traffic explained by its real cause. A 4x4 tile fails
 * traffic-reduced because the tile is too small (about 4/T bytes per
 * FLOP), and its coalescing line says a warp spans rows of the narrow
 * block, not that aligned accesses are misaligned; an untiled kernel of
 * 16x16 blocks is told its threads do not reuse what the block loads. */
Test(hints, traffic_is_explained_by_the_tile_the_launch_used, .timeout = 120)
{
    graded_t g = grade(SUB "tile4.cu", NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *t = str(test_named(&g, "traffic-reduced"), "output");
    cr_expect(strstr(t, "FAILED: 1.02 bytes"), "%s", t);
    cr_expect(strstr(t, "the launches were blocks of 4x4 threads: a tile of T makes each thread load 2 values "
                        "for every T multiply-adds, about 4/T bytes per FLOP (here about 1), so the tile is what "
                        "is too small; a tile of 8 or more does it"), "%s", t);
    cr_expect(strstr(t, "the block is 4 threads wide, so a warp spans 4 of its rows"), "%s", t);
    cr_expect_null(strstr(t, "align the start"), "the loads start on a sector: %s", t);
    release(&g);
    g = grade(SUB "untiled.cu", NULL);
    t = str(test_named(&g, "traffic-reduced"), "output");
    cr_expect(strstr(t, "the threads do not reuse what their block loads"), "%s", t);
    cr_expect_null(strstr(t, "the tile is what is too small"), "%s", t);
    release(&g);
}
