/* test_reduction.c - the "reduction" lab kind's comparison on hand-made
 * partial sums: its tolerance, its summary line, each hint and hypothesis
 * (and that a right answer gets none), and the error map of the partial
 * sums (a cell per block, 'x' wrong, 'o' never written). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "course/lab.h"
#include "kinds/reduction.h"
#include "matbin.h"

#define BLOCK 256

typedef struct {
    dataset_t d;
    lab_t lab;
    double exact;
} fixture_t;

/* n elements with values (i % 41) / 10 and 2 - (i % 7) / 2 (mixed signs). */
static fixture_t make(int n)
{
    fixture_t f;
    memset(&f, 0, sizeof f);
    f.d.ninputs = 2;
    for (int k = 0; k < 2; k++)
        f.d.inputs[k] = (matrix_t){.rows = n, .cols = 1, .vector = 1, /* as rawio reads them */
                                   .data = malloc((size_t)n * sizeof(float))};
    for (int i = 0; i < n; i++) {
        f.d.inputs[0].data[i] = (float)(i % 41) / 10.0f;
        f.d.inputs[1].data[i] = 2.0f - (float)(i % 7) / 2.0f;
    }
    reduction_sum_abs(&f.d.inputs[0], &f.d.inputs[1], &f.exact);
    f.d.expected = (matrix_t){.rows = 1, .cols = 1, .vector = 1, .data = malloc(sizeof(float))};
    f.d.expected.data[0] = (float)f.exact;
    f.lab.tile_width = BLOCK;
    f.lab.kind = &kind_reduction;
    return f;
}

static void release(fixture_t *f)
{
    for (int k = 0; k < 2; k++)
        free(f->d.inputs[k].data);
    free(f->d.expected.data);
}

/* The exact sum of products [from, to), in double. */
static double products(const fixture_t *f, int from, int to)
{
    double s = 0;
    for (int i = from; i < to && i < f->d.inputs[0].rows; i++)
        s += (double)f->d.inputs[0].data[i] * f->d.inputs[1].data[i];
    return s;
}

/* The partial sums of blocks of b, right; count of them. */
static matrix_t block_sums(const fixture_t *f, int b, int count)
{
    matrix_t m = {.rows = 1, .cols = count, .data = malloc((size_t)count * sizeof(float))};
    for (int k = 0; k < count; k++)
        m.data[k] = (float)products(f, k * b, (k + 1) * b);
    return m;
}

static compare_result_t compare(const fixture_t *f, const matrix_t *got)
{
    compare_result_t r;
    kind_reduction.compare(&f->lab, &f->d, got, &r);
    return r;
}

Test(reduction, tolerance_is_the_bound_of_a_float_tree)
{
    /* (ceil(log2 n) + 2) * 2^-24 * sum|a_i b_i| */
    cr_assert_float_eq(reduction_tolerance(1, 1.0), 2 * 0x1p-24, 1e-20);
    cr_assert_float_eq(reduction_tolerance(256, 10.0), 10 * 0x1p-24 * 10, 1e-18);
    cr_assert_float_eq(reduction_tolerance(257, 10.0), 11 * 0x1p-24 * 10, 1e-18);
    cr_assert_float_eq(reduction_tolerance((1L << 24) + 1, 1.0), 27 * 0x1p-24, 1e-18);
}

Test(reduction, right_block_sums_pass_without_a_hint)
{
    fixture_t f = make(1000);
    matrix_t got = block_sums(&f, BLOCK, 4);
    compare_result_t r = compare(&f, &got);
    cr_assert(r.passed, "%s", r.summary);
    cr_assert_eq(r.hint, HINT_NONE);
    cr_assert_str_eq(r.hint_text, "");
    cr_assert(strstr(r.summary, "the partial sums add up to "), "%s", r.summary);
    cr_assert(strstr(r.summary, ", within "), "%s", r.summary);
    free(got.data);
    release(&f);
}

/* A NaN never passes. It, and a finite sum no pairing of A's and B's
 * elements can reach (a read of the drivers' guard, 3.39e38, times an
 * element of B), are named as sums of something not in A or B; a wrong sum
 * within reach is not. */
Test(reduction, a_nan_or_a_sum_beyond_any_products_is_named_as_such)
{
    fixture_t f = make(1000);
    matrix_t got = block_sums(&f, BLOCK, 4);
    const float beyond[] = {NAN, 1.7e38f};
    for (int i = 0; i < 2; i++) {
        got.data[2] = beyond[i];
        compare_result_t r = compare(&f, &got);
        cr_assert_not(r.passed);
        cr_assert_eq(r.nonfinite, i == 0);
        cr_assert(strstr(r.hint_text, "which no sum of A's and B's products can be (at most "),
                  "%s", r.hint_text);
        cr_assert(strstr(r.hint_text, "a read past their ends"), "%s", r.hint_text);
        if (i == 0) {
            cr_assert(strstr(r.summary, "the partial sums add up to nan, expected "), "%s",
                      r.summary);
            cr_assert(strstr(r.hint_text, "the partial sums add up to nan, "), "%s", r.hint_text);
        }
    }
    got.data[2] = 1000.0f; /* wrong, but within reach */
    compare_result_t r = compare(&f, &got);
    cr_assert_not(r.passed);
    cr_assert_null(strstr(r.hint_text, "which no sum of"), "%s", r.hint_text);
    free(got.data);
    release(&f);
}

Test(reduction, only_the_last_partial_block_wrong_is_a_boundary_and_mapped)
{
    fixture_t f = make(1000); /* blocks 0..3, the last of 232 elements */
    matrix_t got = block_sums(&f, BLOCK, 4);
    got.data[3] += 50.0f;
    compare_result_t r = compare(&f, &got);
    cr_assert_not(r.passed);
    cr_assert_eq(r.hint, HINT_BOUNDARY_WRONG, "%s", r.hint_text);
    cr_assert(strstr(r.hint_text, "only the last, partial block's sum (partial[3]) is wrong"), "%s",
              r.hint_text);
    cr_assert(strstr(r.summary, "(error 50, tolerance "), "%s", r.summary);
    cr_assert_eq(r.map.map_rows, 1);
    cr_assert_eq(r.map.map_cols, 4);
    cr_assert_str_eq(r.map.cells, "...x");
    free(got.data);
    release(&f);
}

Test(reduction, wrong_blocks_are_counted_and_the_first_named)
{
    fixture_t f = make(1000);
    matrix_t got = block_sums(&f, BLOCK, 4);
    got.data[1] -= 7.0f;
    got.data[2] += 3.0f;
    compare_result_t r = compare(&f, &got);
    cr_assert_eq(r.hint, HINT_SOME_WRONG, "%s", r.hint_text);
    cr_assert(strstr(r.hint_text, "2 of 4 block sums are wrong, the first partial[1]"), "%s",
              r.hint_text);
    cr_assert_str_eq(r.map.cells, ".xx.");
    free(got.data);
    release(&f);
}

Test(reduction, a_partial_sum_never_written_is_named_and_mapped)
{
    fixture_t f = make(1000);
    matrix_t got = block_sums(&f, BLOCK, 4);
    union { uint32_t u; float f; } poison = {POISON_BITS};
    got.data[2] = poison.f;
    compare_result_t r = compare(&f, &got);
    cr_assert_not(r.passed);
    cr_assert_eq(r.hint, HINT_PARTLY_UNWRITTEN);
    cr_assert_str_eq(r.summary, "1 of the 4 partial sums never written");
    cr_assert(strstr(r.hint_text, "(partial[2] still holds the NaN poison)"), "%s", r.hint_text);
    cr_assert_str_eq(r.map.cells, "..o.");
    free(got.data);
    release(&f);
}

Test(reduction, only_block_zero_returned)
{
    fixture_t f = make(1000);
    matrix_t got = block_sums(&f, BLOCK, 1);
    compare_result_t r = compare(&f, &got);
    cr_assert_eq(r.hint, HINT_HYPOTHESIS);
    cr_assert_str_eq(r.hypothesis, "block0-only");
    cr_assert(strstr(r.summary, "the one partial sum returned is "), "%s", r.summary);
    free(got.data);
    release(&f);
}

Test(reduction, the_tail_past_the_last_full_block_dropped)
{
    fixture_t f = make(1000);
    matrix_t got = block_sums(&f, BLOCK, 3); /* a grid of 1000 / 256 = 3 */
    compare_result_t r = compare(&f, &got);
    cr_assert_str_eq(r.hypothesis, "tail-dropped");
    cr_assert(strstr(r.hint_text, "the 232 elements past the last full block of 256 are missing"),
              "%s", r.hint_text);
    free(got.data);
    release(&f);
}

Test(reduction, under_two_blocks_the_two_mistakes_look_the_same)
{
    fixture_t f = make(300);
    matrix_t got = block_sums(&f, BLOCK, 1);
    compare_result_t r = compare(&f, &got);
    cr_assert_str_eq(r.hypothesis, "block0-only,tail-dropped", "neither named: both listed");
    cr_assert_eq(r.nhypotheses, 2);
    cr_assert(strstr(r.hint_text, "either the launch function returned 1"), "%s", r.hint_text);
    free(got.data);
    release(&f);
}

/* A grid-stride kernel's block 0 sums every gridDim-th block of elements,
 * not the first 256: no hypothesis reproduces it, but the count of 1 is a
 * fact, and the hint names it rather than ruling "block 0's sum" out */
Test(reduction, a_count_of_one_is_named_whatever_block_zero_summed)
{
    fixture_t f = make(100000);
    matrix_t got = block_sums(&f, BLOCK, 1);
    got.data[0] = 12345.0f; /* not the first block's products */
    compare_result_t r = compare(&f, &got);
    cr_assert_str_eq(r.hypothesis, "block0-only");
    cr_assert(strstr(r.hint_text, "the launch function returned 1, so only partial[0] was added up"), "%s",
              r.hint_text);
    cr_assert_null(strstr(r.hint_text, "ruled out"), "%s", r.hint_text);
    free(got.data);
    release(&f);
}

Test(reduction, a_wrong_sum_no_mistake_explains_says_what_was_ruled_out)
{
    fixture_t f = make(1000);
    matrix_t got = {.rows = 1, .cols = 2, .data = malloc(2 * sizeof(float))};
    got.data[0] = 1.0f;
    got.data[1] = 2.0f;
    compare_result_t r = compare(&f, &got);
    cr_assert_eq(r.hint, HINT_ALL_WRONG);
    cr_assert(strstr(r.hint_text, "ruled out: the first block's products alone, the tail past the "
                                  "last full block dropped, a block size not a power of two, a "
                                  "sequential float sum"),
              "%s", r.hint_text);
    cr_assert(strstr(r.hint_text, "the returned count does not match"), "%s", r.hint_text);
    cr_assert_eq(r.map.map_cols, 2);
    cr_assert_str_eq(r.map.cells, "..", "blocks of unknown size are not judged one by one");
    free(got.data);
    release(&f);
}

/* A float running sum of 2^22 same-sign products, rounded product by
 * product (as on a CPU) or fused into an fmaf (as nvcc compiles it for a
 * GPU): both are named, well outside the tree's tolerance. */
Test(reduction, a_sequential_float_sum_plain_or_fused)
{
    const int n = 1 << 22;
    fixture_t f = make(n);
    for (int i = 0; i < n; i++)
        f.d.inputs[1].data[i] = 1.0f + (float)(i % 7) / 2.0f;
    reduction_sum_abs(&f.d.inputs[0], &f.d.inputs[1], &f.exact);
    f.d.expected.data[0] = (float)f.exact;
    for (int fused = 0; fused < 2; fused++) {
        float s = 0;
        for (int i = 0; i < n; i++)
            s = fused ? fmaf(f.d.inputs[0].data[i], f.d.inputs[1].data[i], s)
                      : s + f.d.inputs[0].data[i] * f.d.inputs[1].data[i];
        matrix_t got = {.rows = 1, .cols = 1, .data = &s};
        compare_result_t r = compare(&f, &got);
        cr_assert_not(r.passed, "fused %d: %s", fused, r.summary);
        cr_assert_str_eq(r.hypothesis, "sequential-float", "fused %d: %s", fused, r.hint_text);
    }
    release(&f);
}

/* ---- for a hidden dataset: the same verdict without the expected sum ------------------- */

/* Neither the summary nor the hint of a hidden dataset quotes the expected
 * sum (or a block's), an error against it, or the tolerance. */
static void expect_hidden_text_without_values(const compare_result_t *r, double exact)
{
    char summary[512], value[32];
    compare_summary_hidden(r, summary, sizeof summary);
    const char *hint = r->hint_hidden[0] ? r->hint_hidden : r->hint_text;
    snprintf(value, sizeof value, "%.9g", (double)(float)exact);
    cr_assert_null(strstr(summary, value), "%s", summary);
    cr_assert_null(strstr(hint, value), "%s", hint);
    cr_assert_null(strstr(summary, "error"), "%s", summary);
    cr_assert_null(strstr(hint, "error "), "%s", hint);
    cr_assert_null(strstr(hint, "tolerance "), "%s", hint);
}

Test(reduction_hidden, value_free_summary_and_hints)
{
    fixture_t f = make(1000);
    matrix_t got = block_sums(&f, BLOCK, 4);
    compare_result_t r = compare(&f, &got);
    char summary[512];
    compare_summary_hidden(&r, summary, sizeof summary);
    cr_assert_str_eq(summary, "the output is within the tolerance of the expected one");
    got.data[1] -= 7.0f; /* a wrong block: its elements' sum is in the public hint */
    r = compare(&f, &got);
    cr_assert(strstr(r.hint_text, "its elements give "), "%s", r.hint_text);
    cr_assert_str_eq(r.hint_hidden, "1 of 4 block sums are wrong, the first partial[1]");
    compare_summary_hidden(&r, summary, sizeof summary);
    cr_assert_str_eq(summary, "the output is outside the tolerance of the expected one");
    expect_hidden_text_without_values(&r, f.exact);
    free(got.data);
    got = (matrix_t){.rows = 1, .cols = 2, .data = malloc(2 * sizeof(float))};
    got.data[0] = 1.0f, got.data[1] = 2.0f; /* no mistake explains it: the expected sum is quoted */
    r = compare(&f, &got);
    cr_assert(strstr(r.hint_text, "expected "), "%s", r.hint_text);
    cr_assert(strstr(r.hint_hidden, "the sum is outside the tolerance; ruled out: the first "
                                    "block's products alone"), "%s", r.hint_hidden);
    expect_hidden_text_without_values(&r, f.exact);
    free(got.data);
    got = block_sums(&f, BLOCK, 1); /* a hypothesis quotes no value: the same hint */
    r = compare(&f, &got);
    cr_assert_str_eq(r.hint_hidden, "");
    expect_hidden_text_without_values(&r, f.exact);
    free(got.data);
    release(&f);
}
