/* test_lab2.c - end to end, lab 2 (basic, untiled matrix multiplication):
 * bin/cugrade grades the reference, the stub and each one-mistake submission
 * of tests/submissions/lab2/ (the header of each says what the grader should
 * say) on the emu backend against lab 3's 20 shipped datasets, and
 * results.json must show which tests pass, the points, and for every failing
 * dataset its failure key (extra_data.failure) and what its output says.
 * Each submission is graded once, with --checks none unless a check is part
 * of the verdict. Runs from the repository root. */
#include "lab_case.h"

#define SUB2 "tests/submissions/lab2/"
#define NDATASETS 20
#define POINTS_PER_DATASET 4.0
#define NHIDDEN 8
#define HIDDEN_POINTS 2.5 /* each hidden dataset (rubric.json "hidden") */
#define CHECK_POINTS 5.0 /* race-free and memory-safe, each */

static const lab_suite_t lab2 = {"lab2", SUB2, NDATASETS, POINTS_PER_DATASET, NHIDDEN,
                                 HIDDEN_POINTS};

static graded_t grade_lab2(const char *submission, int checks)
{
    return grade_lab(&lab2, submission, checks);
}

/* Every test of a correct submission passes, for 110 of 110 on the emulator. */
static void expect_full_marks(const graded_t *g, const char *file)
{
    expect_every_test_passes(g, file, NDATASETS * POINTS_PER_DATASET + 2 * CHECK_POINTS +
                                          NHIDDEN * HIDDEN_POINTS);
    cr_expect(strstr(g->run.output, "Score: 110 / 110"), "%s:\n%s", file, g->run.output);
    expect_check(g, "race-free", 1, CHECK_POINTS, "passed");
    expect_check(g, "memory-safe", 1, CHECK_POINTS, "passed: no access outside an array");
}

/* ---- the reference and the stub -------------------------------------------------- */

Test(lab2, reference_gets_full_marks, .timeout = 120)
{
    graded_t g = grade_lab2("reference", 1);
    expect_full_marks(&g, "reference");
    json_object *extra;
    cr_assert(json_object_object_get_ex(g.json, "extra_data", &extra));
    cr_expect_str_eq(str(extra, "submission_file"), "reference/lab2/matmul.cu");
    cr_expect_str_eq(str(extra, "backend"), "emu");
    cr_expect_eq((int)num(extra, "datasets_passed"), NDATASETS);
    json_object *perf = test_named(&g, "performance");
    cr_expect_float_eq(num(perf, "max_score"), 0.0, 1e-9, "speed is graded on a GPU only");
    cr_expect(strstr(str(perf, "output"), "not scored on the emu backend"), "%s",
              str(perf, "output"));
    release(&g);
}

Test(lab2, stub_compiles_and_writes_nothing, .timeout = 120)
{
    graded_t g = grade_lab2("student", 1);
    json_object *extra;
    cr_assert(json_object_object_get_ex(g.json, "extra_data", &extra));
    cr_expect_str_eq(str(extra, "submission_file"), "student/lab2/matmul.cu");
    cr_expect_float_eq(num(g.json, "score"), 0.0, 1e-9);
    cr_expect_eq((int)num(extra, "datasets_passed"), 0);
    cr_expect(passed(test_named(&g, "compiles")), "%s", str(test_named(&g, "compiles"), "output"));
    for (int d = 0; d < NDATASETS; d++) {
        json_object *t = dataset_test(&g, d);
        const char *out = str(t, "output");
        cr_expect(!passed(t), "dataset %d passed", d);
        cr_expect_str_eq(failure_of(t), "never-written", "dataset %d:\n%s", d, out);
        cr_expect(strstr(out, "FAILED: none of the "), "dataset %d:\n%s", d, out);
        cr_expect(strstr(out, "hint: output never written"), "dataset %d:\n%s", d, out);
    }
    expect_check(&g, "race-free", 0, CHECK_POINTS, "not run: no kernel was launched");
    expect_check(&g, "memory-safe", 0, CHECK_POINTS, "not run: no kernel was launched");
    cr_expect(strstr(g.run.output, "output never written"), "terminal report lacks the hint:\n%s",
              g.run.output);
    release(&g);
}

/* ---- correct submissions --------------------------------------------------------- */

Test(lab2, blocks_of_32_by_32_pass, .timeout = 120)
{
    graded_t g = grade_lab2(SUB2 "good_32.cu", 1);
    expect_full_marks(&g, "good_32.cu");
    release(&g);
}

Test(lab2, early_return_without_barriers_passes, .timeout = 120)
{
    graded_t g = grade_lab2(SUB2 "early_return.cu", 1);
    expect_full_marks(&g, "early_return.cu");
    release(&g);
}

/* ---- one mistake each -------------------------------------------------------------- */

#define LIKELY_OOB "likely cause: an access outside an array"
#define NEVER_LAUNCHED "hint: a launch with an invalid configuration: a grid dimension of 0"

static const lab_case_t intdiv_grid = {
    "intdiv_grid.cu", 0, 8 * POINTS_PER_DATASET,
    {0, 1, 2, 3, 5, 9, 15, 16, -1},
    "grid-too-small",
    "the grid is too small; use ceiling division, (n + 16 - 1) / 16",
    {{4, NULL, "hint: only the elements in rows 96..99 (the last partial tile) were never written"},
     {4, NULL, "FAILED: 256 of 6400 elements never written (every written one is right)"},
     {6, NULL, "only the elements in column 256 (the last partial tile)"},
     {10, NULL, "only the elements in rows 32..39 and column 32 (the last partial tile)"},
     /* a side under 16: a grid of 0 blocks, which does not launch */
     {8, "cuda-error:invalid-configuration", "grid (0,0,1) has a zero dimension"},
     {17, "cuda-error:invalid-configuration", NEVER_LAUNCHED},
     {18, "cuda-error:invalid-configuration", NEVER_LAUNCHED}},
};

Test(lab2, intdiv_grid_leaves_the_partial_blocks_unwritten, .timeout = 120)
{
    graded_t g = grade_case(&lab2, &intdiv_grid);
    release(&g);
}

/* B[col*K + k]: the same as B[k*N + col] when K = 1 or N = 1. Graded with
 * the checks: on one 16x16 or 32x32 tile a tiled kernel reading its B tile
 * transposed writes the same output, and only the executor's statistics (no
 * shared memory touched) rule it out, so that A·Bᵀ is named there too */
static const lab_case_t transposed_b = {
    "transposed_b.cu", 1, 3 * POINTS_PER_DATASET + 3 * HIDDEN_POINTS + 2 * CHECK_POINTS,
    {8, 9, 17, -1},
    "hypothesis:b-transposed",
    "hint: every element equals A·Bᵀ: B is read as B[col*numBRows + k], as if it were stored "
    "transposed; row-major B is B[k*numBColumns + col]",
    {{0}},
    .hidden_passed = 3, /* hidden 1x1x1, 78x69x1 (N = 1) and K = 1 */
};

Test(lab2, transposed_b_is_a_times_b_transposed, .timeout = 120)
{
    graded_t g = grade_case(&lab2, &transposed_b);
    release(&g);
}

/* C[col*M + row]: the same only for a 1x1 C */
static const lab_case_t store_transposed = {
    "store_transposed.cu", 0, 2 * POINTS_PER_DATASET + 3 * HIDDEN_POINTS,
    {8, 17, -1},
    "hypothesis:c-transposed",
    "hint: every element is computed right but stored in the wrong place: C is written as "
    "C[col*numCRows + row] (transposed); row-major C is C[row*numCColumns + col]",
    {{0}},
    .hidden_passed = 3, /* 1x1x1, 1x21x118, 78x69x1: C is a vector */
};

Test(lab2, store_transposed_is_c_stored_transposed, .timeout = 120)
{
    graded_t g = grade_case(&lab2, &store_transposed);
    release(&g);
}

/* row from x, column from y: the threads cover 16*ceil(N/16) rows and
 * 16*ceil(M/16) columns, all of C only when both need as many blocks. The
 * grader has no hypothesis for it: it says what it sees, the elements never
 * written; on 256x256x257 (only column 256 left, which a grid rounded down
 * leaves too) it names both causes and blames neither. */
static const lab_case_t row_col_swapped = {
    "row_col_swapped.cu", 0, 11 * POINTS_PER_DATASET + HIDDEN_POINTS,
    {0, 1, 2, 5, 8, 10, 11, 15, 16, 17, 18, -1},
    "partly-unwritten",
    "were never written (they still hold the NaN poison): check that the grid covers the whole "
    "output and the condition on the store",
    {{4, NULL, "FAILED: 2304 of 6400 elements never written (every written one is right)"},
     {4, NULL, "hint: 2304 of 6400 elements were never written"},
     {6, "grid-too-small", "hint: only the elements in column 256 (the last partial tile) were "
                           "never written: the grid does not reach them; either its size is "
                           "rounded down (use ceiling division, (n + 16 - 1) / 16) or its x and "
                           "y are swapped"}},
    .hidden_passed = 1, /* 1x1x1, the only one with a grid of one block */
};

Test(lab2, row_col_swapped_leaves_elements_unwritten, .timeout = 120)
{
    graded_t g = grade_case(&lab2, &row_col_swapped);
    /* every element it wrote is right: nothing names a wrong formula */
    for (int d = 0; d < NDATASETS; d++)
        if (!expected_to_pass(&row_col_swapped, d))
            cr_expect(strstr(str(dataset_test(&g, d), "output"), "(every written one is right)"),
                      "dataset %d:\n%s", d, str(dataset_test(&g, d), "output"));
    release(&g);
}

#define A_STRIDE_N "hint: every element equals the product with A read as A[row*numBColumns + k] " \
                   "(a row stride of N): row-major A is A[row*numAColumns + k]"

/* A[row*N + k]: right when N == K or M == 1; named where N < K (every read
 * inside A); where N > K the last rows read past A and the emulator's
 * finding is the likely cause. On 3, 12 and 13 they read beyond A's red
 * zone, memory whose contents vary from run to run: "some-wrong", or
 * "partly-unwritten" when they bring in the poison's NaN (see the
 * submission's header); only the emulator's report is certain there. */
static const lab_case_t wrong_stride = {
    "wrong_stride.cu", 1, 7 * POINTS_PER_DATASET + CHECK_POINTS + 2 * HIDDEN_POINTS,
    {0, 1, 2, 8, 15, 16, 17, -1},
    "hypothesis:a-stride-n",
    A_STRIDE_N,
    {{3, ANY_FAILURE, "emulator error ("},
     {6, "some-wrong", LIKELY_OOB},
     {9, "some-wrong", LIKELY_OOB},
     {10, "some-wrong", LIKELY_OOB},
     {11, "some-wrong", LIKELY_OOB},
     {12, ANY_FAILURE, "emulator error ("},
     {13, ANY_FAILURE, "emulator error ("}},
    .hidden_passed = 2, /* 1x1x1, 1x21x118 (M = 1) */
};

Test(lab2, wrong_stride_reads_a_with_the_width_of_b, .timeout = 120)
{
    graded_t g = grade_case(&lab2, &wrong_stride);
    expect_check(&g, "memory-safe", 0, CHECK_POINTS, "Out-of-bounds read of A in kernel matrixMultiply");
    expect_check(&g, "race-free", 1, CHECK_POINTS, NULL);
    const char *ms = str(test_named(&g, "memory-safe"), "output");
    cr_expect(strstr(ms, "at wrong_stride.cu:"), "no file:line:\n%s", ms);
    release(&g);
}

/* no boundary check: a thread with col >= N writes C[row+1][col-N]; where
 * that thread's block runs after the right one (N > 16, not a multiple of
 * 16), its garbage (NaN from past the end of B) stays */
static const lab_case_t no_boundary_check = {
    "no_boundary_check.cu", 1, 13 * POINTS_PER_DATASET + CHECK_POINTS + 6 * HIDDEN_POINTS,
    {0, 1, 2, 3, 4, 5, 8, 9, 13, 15, 16, 17, 18, -1},
    "some-wrong",
    LIKELY_OOB,
    {{6, NULL, "3600 of 65792 elements are NaN, infinite or beyond any sum of A's and B's "
               "products"},
     {6, NULL, LIKELY_OOB}},
    .hidden_passed = 6, /* those whose stray writes land outside C or are overwritten */
};

Test(lab2, no_boundary_check_fails_memory_safe_and_the_uneven_widths, .timeout = 120)
{
    graded_t g = grade_case(&lab2, &no_boundary_check);
    expect_check(&g, "memory-safe", 0, CHECK_POINTS, "Out-of-bounds write of C in kernel matrixMultiply");
    const char *ms = str(test_named(&g, "memory-safe"), "output");
    cr_expect(strstr(ms, "Out-of-bounds read of A"), "%s", ms);
    cr_expect(strstr(ms, "Out-of-bounds read of B"), "%s", ms);
    cr_expect(strstr(ms, "at no_boundary_check.cu:"), "no file:line:\n%s", ms);
    expect_check(&g, "race-free", 1, CHECK_POINTS, NULL);
    /* a row past C only writes past its end: 100x128x64 passes, the check catches it */
    cr_expect(strstr(str(dataset_test(&g, 4), "output"), "emulator error (global-oob): "
                                                          "Out-of-bounds write of C"),
              "%s", str(dataset_test(&g, 4), "output"));
    release(&g);
}

static const lab_case_t block_too_big = {
    "block_too_big.cu", 0, 0.0,
    {-1},
    "cuda-error:invalid-configuration",
    "more than 1024 threads per block",
    {{0, NULL, "block (64,64,1) has 4096 threads, the limit is 1024"},
     {0, NULL, "FAILED: a CUDA error stopped the program"},
     {0, NULL, "cugrade: CUDA error after launchMatrixMultiply: "}},
};

Test(lab2, block_of_4096_threads_does_not_launch, .timeout = 120)
{
    graded_t g = grade_case(&lab2, &block_too_big);
    release(&g);
}

static const lab_case_t no_launch = {
    "no_launch.cu", 0, 0.0,
    {-1},
    "never-written",
    "hint: output never written: every element still holds the NaN poison the harness put there; "
    "does the launch function launch the kernel",
    {{12, NULL, "FAILED: none of the 216423 elements was written"}},
};

Test(lab2, no_launch_writes_nothing, .timeout = 120)
{
    graded_t g = grade_case(&lab2, &no_launch);
    release(&g);
}

/* an int sum: no classic mistake reproduces it, and the grader says so */
#define NONE_REPRODUCES "none of the classic mistakes reproduces it (tried: "

static const lab_case_t sum_int = {
    "sum_int.cu", 0, 0.0,
    {-1},
    "all-wrong",
    NONE_REPRODUCES,
    {{0, NULL, "hint: every element is wrong; " NONE_REPRODUCES},
     {9, "some-wrong", NONE_REPRODUCES}, /* a few sums happen to be whole */
     {13, "some-wrong", NONE_REPRODUCES}},
};

Test(lab2, int_sum_is_wrong_everywhere_and_no_classic_mistake, .timeout = 120)
{
    graded_t g = grade_case(&lab2, &sum_int);
    release(&g);
}

/* k <= K: the extra step reads past B (the emulator's red zone: NaN) */
static const lab_case_t k_off_by_one = {
    "k_off_by_one.cu", 1, 0.0,
    {-1},
    "all-wrong",
    LIKELY_OOB,
    {{0, NULL, "hint: 4096 of 4096 elements are NaN, infinite or beyond any sum of A's and B's "
               "products (at most 1.02e+03): the kernel added in something not in A or B (a "
               "read past their ends"},
     {0, NULL, LIKELY_OOB},
     {0, NULL, "emulator error (global-oob): Out-of-bounds read of B"}},
};

Test(lab2, k_off_by_one_reads_past_b, .timeout = 120)
{
    graded_t g = grade_case(&lab2, &k_off_by_one);
    expect_check(&g, "memory-safe", 0, CHECK_POINTS, "Out-of-bounds read of B in kernel matrixMultiply");
    const char *ms = str(test_named(&g, "memory-safe"), "output");
    cr_expect(strstr(ms, "Out-of-bounds read of A"), "%s", ms);
    cr_expect(strstr(ms, "at k_off_by_one.cu:"), "no file:line:\n%s", ms);
    expect_check(&g, "race-free", 0, CHECK_POINTS, "not scored: no dataset passed yet");
    release(&g);
}
