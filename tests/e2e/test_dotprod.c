/* test_dotprod.c - end to end, lab dotprod (a dot product with a
 * shared-memory tree reduction, the "reduction" kind): bin/cugrade grades
 * the reference, the stub and each submission of tests/submissions/dotprod/
 * (the header of each says what the grader should say) on the emu backend
 * against the lab's 9 datasets (n = 1 ... 2^24 + 1; 7 and 8 are made on
 * first use), and results.json must show which tests pass, the points, the
 * failure key of every failing dataset and its hint, and the checks'
 * verdicts. Runs from the repository root. */
#include "lab_case.h"

#define SUBD "tests/submissions/dotprod/"
#define NDATASETS 9
#define POINTS_PER_DATASET 4.0
#define NHIDDEN 8
#define HIDDEN_POINTS 2.5 /* each hidden dataset (rubric.json "hidden") */
#define CHECK_POINTS 4.0 /* race-free, barriers-uniform, memory-safe, uses-shared-memory */
#define FULL_MARKS (NDATASETS * POINTS_PER_DATASET + 4 * CHECK_POINTS + NHIDDEN * HIDDEN_POINTS)

static const lab_suite_t dotprod = {"dotprod", SUBD, NDATASETS, POINTS_PER_DATASET, NHIDDEN,
                                    HIDDEN_POINTS};

static void expect_all_checks(const graded_t *g, int pass)
{
    expect_check(g, "race-free", pass, CHECK_POINTS, NULL);
    expect_check(g, "barriers-uniform", pass, CHECK_POINTS, NULL);
    expect_check(g, "memory-safe", pass, CHECK_POINTS, NULL);
    expect_check(g, "uses-shared-memory", pass, CHECK_POINTS, NULL);
}

/* ---- the reference, the stub, a correct submission of another design ------------ */

Test(dotprod, reference_gets_full_marks, .timeout = 240)
{
    graded_t g = grade_lab(&dotprod, "reference", 1);
    expect_every_test_passes(&g, "reference", FULL_MARKS);
    cr_expect(strstr(g.run.output, "Score: 72 / 72"), "%s", g.run.output);
    json_object *extra;
    cr_assert(json_object_object_get_ex(g.json, "extra_data", &extra));
    cr_expect_str_eq(str(extra, "submission_file"), "reference/dotprod/dotprod.cu");
    /* the verdict is the sum against the tolerance of a float tree */
    const char *out = str(dataset_test(&g, 8), "output");
    cr_expect(strstr(out, "passed: the partial sums add up to "), "%s", out);
    cr_expect(strstr(out, ", within 108 of 67114232 (error "), "%s", out);
    out = str(dataset_test(&g, 0), "output");
    cr_expect(strstr(out, "passed: the one partial sum returned is "), "%s", out);
    expect_check(&g, "uses-shared-memory", 1, CHECK_POINTS, "passed: the kernel read ");
    expect_check(&g, "barriers-uniform", 1, CHECK_POINTS,
                 "every __syncthreads() was reached by all the threads of the block");
    release(&g);
}

Test(dotprod, stub_compiles_and_writes_no_partial_sum, .timeout = 240)
{
    static const lab_case_t stub = {
        "", 1, 0.0, {-1}, "never-written",
        "hint: no partial sum was written: the one the launch function says it wrote still "
        "holds the NaN poison; does it launch the kernel",
        {{0, NULL, "FAILED: the one partial sum returned was never written"}},
    };
    static const lab_suite_t student = {"dotprod", "student", NDATASETS, POINTS_PER_DATASET,
                                        NHIDDEN, HIDDEN_POINTS};
    graded_t g = grade_case(&student, &stub);
    json_object *extra;
    cr_assert(json_object_object_get_ex(g.json, "extra_data", &extra));
    cr_expect_str_eq(str(extra, "submission_file"), "student/dotprod/dotprod.cu");
    expect_check(&g, "race-free", 0, CHECK_POINTS, "not run: no kernel was launched");
    expect_check(&g, "uses-shared-memory", 0, CHECK_POINTS, "not run: no kernel was launched");
    release(&g);
}

Test(dotprod, grid_stride_loop_then_tree_passes, .timeout = 240)
{
    graded_t g = grade_lab(&dotprod, SUBD "good_grid_stride.cu", 1);
    expect_every_test_passes(&g, "good_grid_stride.cu", FULL_MARKS);
    release(&g);
}

/* ---- one mistake each -------------------------------------------------------------- */

/* The launch function returns 1: only block 0's sum is read. Up to 256
 * elements that is right; at 257 it is also what a grid rounded down gives,
 * and the hint names both. */
static const lab_case_t block0_only = {
    "block0_only.cu", 1, 3 * POINTS_PER_DATASET + 4 * CHECK_POINTS + 3 * HIDDEN_POINTS,
    {0, 1, 2, -1},
    "hypothesis:block0-only",
    "hint: the result is block 0's sum alone (the first 256 products): the launch function "
    "returned 1, but every block writes a partial sum; return the number of blocks",
    {{3, "consistent:block0-only,tail-dropped",
      "hint: the result is the sum of the first 256 products only: either the launch function "
      "returned 1 (it must return the number of blocks), or the grid is n / 256 rounded down"},
     {4, NULL, "FAILED: the one partial sum returned is "}},
    .hidden_passed = 3, /* n = 1, 43, 127: one block */
};

Test(dotprod, block0_only_names_the_count, .timeout = 240)
{
    graded_t g = grade_case(&dotprod, &block0_only);
    expect_all_checks(&g, 1);
    release(&g);
}

/* n / 256 blocks: under 256 elements a grid of 0 does not launch; the tail
 * of 1 to 3 products at 2^20 + 3 and 2^24 + 1 is within the float
 * tolerance there, so those pass (see the submission's header). */
static const lab_case_t tail_dropped = {
    "tail_dropped.cu", 1, 3 * POINTS_PER_DATASET + 4 * CHECK_POINTS,
    {2, 7, 8, -1},
    "hypothesis:tail-dropped",
    "the grid is n / 256 rounded down; round it up, (n + BLOCK_SIZE - 1) / BLOCK_SIZE",
    {{0, "cuda-error:invalid-configuration", "hint: a launch with an invalid configuration: a "
                                             "grid dimension of 0"},
     {1, "cuda-error:invalid-configuration", "FAILED: a CUDA error stopped the program"},
     {3, "consistent:block0-only,tail-dropped", "or the grid is n / 256 rounded down"},
     {4, NULL, "hint: the 232 elements past the last full block of 256 are missing from the sum"},
     {5, NULL, "hint: the 16 elements past the last full block of 256 are missing from the sum"},
     {6, NULL, "hint: the 1 elements past the last full block of 256 are missing from the sum"}},
};

Test(dotprod, tail_dropped_names_the_rounded_down_grid, .timeout = 240)
{
    graded_t g = grade_case(&dotprod, &tail_dropped);
    expect_all_checks(&g, 1);
    const char *out = str(dataset_test(&g, 8), "output");
    cr_expect(strstr(out, "passed: the partial sums add up to 67114221.5, within 108 of 67114232"),
              "%s", out);
    release(&g);
}

/* BLOCK_SIZE 200 under a tree written for powers of two: only the sums tell */
static const lab_case_t non_pow2_block = {
    "non_pow2_block.cu", 1, POINTS_PER_DATASET + 4 * CHECK_POINTS + HIDDEN_POINTS,
    {0, -1},
    "hypothesis:block-not-power-of-two",
    "hint: the result is what blocks of 200 threads give under the halving tree (stride = "
    "blockDim.x / 2, then / 2 ...): with a block size that is not a power of two, the odd "
    "element at some level is never added; use a power of two (256)",
    {{8, NULL, "FAILED: the partial sums add up to 42951223, expected 67114232 (error 2.42e+07, "
               "tolerance 108)"}},
    .hidden_passed = 1, /* n = 1 */
};

Test(dotprod, non_power_of_two_block_is_named, .timeout = 240)
{
    graded_t g = grade_case(&dotprod, &non_pow2_block);
    expect_all_checks(&g, 1);
    release(&g);
}

/* One thread sums everything in a float: right up to 2^20 + 3 (signed
 * values), 1.5e6 off at 2^24 + 1 (one sign) against the tree's 108. */
static const lab_case_t sequential_sum = {
    "sequential_sum.cu", 1, 8 * POINTS_PER_DATASET + 3 * CHECK_POINTS + 7 * HIDDEN_POINTS,
    {0, 1, 2, 3, 4, 5, 6, 7, -1},
    "hypothesis:sequential-float",
    "hint: the result is a sequential float sum of the products (error 1.5e+06, above the 108 a "
    "float tree reduction may make here): reduce in a tree in shared memory",
    {{0}},
    .hidden_passed = 7, /* all but n = 15612, where its error is above the tree's bound */
};

Test(dotprod, sequential_float_sum_fails_at_two_to_the_24, .timeout = 240)
{
    graded_t g = grade_case(&dotprod, &sequential_sum);
    expect_check(&g, "uses-shared-memory", 0, CHECK_POINTS,
                 "FAILED: the kernel never read back data it had stored in shared memory");
    expect_check(&g, "race-free", 1, CHECK_POINTS, NULL);
    expect_check(&g, "memory-safe", 1, CHECK_POINTS, NULL);
    release(&g);
}

/* atomicAdd of every product into partial[0]: on the emulator the atomics
 * run in index order, the same float chain as sequential_sum.cu */
static const lab_case_t atomic_global = {
    "atomic_global.cu", 1, 8 * POINTS_PER_DATASET + 3 * CHECK_POINTS + 7 * HIDDEN_POINTS,
    {0, 1, 2, 3, 4, 5, 6, 7, -1},
    "hypothesis:sequential-float",
    "hint: the result is a sequential float sum of the products",
    {{0}},
    .hidden_passed = 7, /* all but n = 15612, as sequential_sum.cu */
};

Test(dotprod, global_atomics_are_a_sequential_sum_without_shared_memory, .timeout = 240)
{
    graded_t g = grade_case(&dotprod, &atomic_global);
    expect_check(&g, "uses-shared-memory", 0, CHECK_POINTS, NULL);
    expect_check(&g, "race-free", 1, CHECK_POINTS, NULL);
    expect_check(&g, "barriers-uniform", 1, CHECK_POINTS, NULL);
    release(&g);
}

/* No barrier in the tree loop: the emulator's race explains every wrong
 * sum, and the output's pattern is not used for a hint. */
static const lab_case_t missing_barrier = {
    "missing_barrier.cu", 1, POINTS_PER_DATASET + 3 * CHECK_POINTS + HIDDEN_POINTS,
    {0, -1},
    "wrong-with:race",
    "likely cause: a shared-memory race (below): the results depend on the order threads run in",
    {{0}},
    .hidden_passed = 1, /* n = 1 */
};

Test(dotprod, missing_barrier_in_the_tree_is_a_race, .timeout = 240)
{
    graded_t g = grade_case(&dotprod, &missing_barrier);
    expect_check(&g, "race-free", 0, CHECK_POINTS, "Race on shared products");
    const char *out = str(test_named(&g, "race-free"), "output");
    cr_expect(strstr(out, "at missing_barrier.cu:36"), "no file:line:\n%s", out);
    cr_expect(strstr(out, "the next step of a tree"), "no advice:\n%s", out);
    expect_check(&g, "barriers-uniform", 1, CHECK_POINTS, NULL);
    expect_check(&g, "memory-safe", 1, CHECK_POINTS, NULL);
    for (int d = 1; d < NDATASETS; d++)
        cr_expect_null(strstr(str(dataset_test(&g, d), "output"), "hint:"),
                       "dataset %d: a hint from the pattern of a racy run:\n%s", d,
                       str(dataset_test(&g, d), "output"));
    release(&g);
}

/* __syncthreads() inside if (tid < stride): the sums are right on the
 * emulator (and on an H100); only barriers-uniform tells. */
Test(dotprod, barrier_inside_the_if_fails_only_barriers_uniform, .timeout = 240)
{
    graded_t g = grade_lab(&dotprod, SUBD "barrier_in_if.cu", 1);
    cr_expect_float_eq(num(g.json, "score"), FULL_MARKS - CHECK_POINTS, 1e-9, "%s",
                       g.run.output);
    for (int d = 0; d < NDATASETS; d++)
        cr_expect(passed(dataset_test(&g, d)), "dataset %d:\n%s", d,
                  str(dataset_test(&g, d), "output"));
    expect_check(&g, "barriers-uniform", 0, CHECK_POINTS,
                 "128 of 256 threads (threads (0,0,0) to (127,0,0)) wait at the __syncthreads() "
                 "at tests/submissions/dotprod/barrier_in_if.cu:39, but 128 (threads (128,0,0) "
                 "to (255,0,0)) have already returned without reaching it");
    expect_check(&g, "race-free", 1, CHECK_POINTS, NULL);
    expect_check(&g, "memory-safe", 1, CHECK_POINTS, NULL);
    release(&g);
}

/* Unguarded loads: the checked build reads the red zones' NaN past n */
static const lab_case_t no_bounds_check = {
    "no_bounds_check.cu", 1, POINTS_PER_DATASET + 3 * CHECK_POINTS,
    {2, -1},
    "some-wrong",
    "likely cause: an access outside an array (below)",
    {{0, NULL, "FAILED: the one partial sum returned is nan, expected "},
     {0, NULL, "hint: the partial sums add up to nan, which no sum of A's and B's products can "
               "be (at most "},
     {5, NULL, "emulator error (global-oob): Out-of-bounds read of A in kernel dotProductShared"}},
};

Test(dotprod, no_bounds_check_reads_past_the_vectors, .timeout = 240)
{
    graded_t g = grade_case(&dotprod, &no_bounds_check);
    expect_check(&g, "memory-safe", 0, CHECK_POINTS, "Out-of-bounds read of A in kernel "
                                                     "dotProductShared");
    const char *out = str(test_named(&g, "memory-safe"), "output");
    cr_expect(strstr(out, "Out-of-bounds read of B"), "%s", out);
    cr_expect(strstr(out, "at no_bounds_check.cu:28"), "no file:line:\n%s", out);
    expect_check(&g, "race-free", 1, CHECK_POINTS, NULL);
    release(&g);
}

/* Unguarded loads and a race together (issue 40, item 1): a NaN sum is
 * put down to the read outside the vectors found on that dataset, never to
 * the race (which only reorders finite values); a finite wrong sum to the
 * race. Both kinds of dataset are there. */
Test(dotprod, a_nan_sum_is_put_down_to_the_read_outside_not_to_the_race, .timeout = 240)
{
    graded_t g = grade_lab(&dotprod, SUBD "unguarded_and_racy.cu", 1);
    int nan_sums = 0, finite_sums = 0;
    for (int d = 0; d < NDATASETS; d++) {
        json_object *t = dataset_test(&g, d);
        const char *out = str(t, "output");
        if (strstr(out, " nan, expected ")) {
            nan_sums++;
            cr_expect(strstr(out, "likely cause: an access outside an array (below)"), "dataset %d:\n%s", d, out);
            cr_expect_null(strstr(out, "likely cause: a shared-memory race"), "dataset %d:\n%s", d, out);
            cr_expect(strstr(out, "emulator error (global-oob): Out-of-bounds read of"), "the evidence, "
                      "on the same dataset: %s", out);
        } else {
            finite_sums++;
            cr_expect(strstr(out, "likely cause: a shared-memory race (below)"), "dataset %d:\n%s", d, out);
            cr_expect_str_eq(failure_of(t), "wrong-with:race");
        }
    }
    cr_expect_geq(nan_sums, 3, "NaN sums where the last block reads past n");
    cr_expect_geq(finite_sums, 1, "a finite wrong sum where no NaN reached it");
    expect_check(&g, "memory-safe", 0, CHECK_POINTS, "Out-of-bounds read of A");
    expect_check(&g, "race-free", 0, CHECK_POINTS, "Race on shared products");
    release(&g);
}

/* A count of 0 breaks the harness's contract: exit 4 and its message, no
 * output compared. */
static const lab_case_t returns_zero = {
    "returns_zero.cu", 1, 0.0,
    {-1},
    "exit:4",
    "cugrade: launchDotProduct returned 0 partial sums; it must return how many it wrote to "
    "devicePartial, from 1 to n = ",
    {{5, NULL, "from 1 to n = 10000"}},
};

Test(dotprod, a_count_of_zero_is_refused, .timeout = 240)
{
    graded_t g = grade_case(&dotprod, &returns_zero);
    expect_check(&g, "race-free", 0, CHECK_POINTS, "not scored: no dataset passed yet");
    release(&g);
}
