/* test_hypotheses_phases.c - the hypotheses of a kernel that sums the wrong
 * part of K or loads zeros: the phase count rounded down or one short, the
 * sum reset or the totals kept across phases, the loads guarded with the
 * wrong dimension; and a cut that several of these explain. The model of
 * the buggy kernels and the checks are hypotheses_case.h's. */
#include "hypotheses_case.h"

/* ---- the phase loop and the load guards, each mistake named with its fix ---------------- */

Test(hypothesis, phases_intdiv_k_uneven)
{
    expect_diagnosis(256, 300, 256, 0, 16, (bugs_t){.intdiv = 1}, "phases-intdiv",
                     PHRASES("every element equals the sum over k = 0..287 only, not over all K = 300",
                             "the last, partial phase (k = 288..299) never runs",
                             "K / TILE_WIDTH rounds down", "(K + TILE_WIDTH - 1) / TILE_WIDTH"));
    expect_diagnosis(97, 89, 101, 1, 16, (bugs_t){.intdiv = 1}, "phases-intdiv",
                     PHRASES("k = 0..79 only", "(k = 80..88) never runs", "rounds down"));
    expect_diagnosis(1, 200, 1, 0, 16, (bugs_t){.intdiv = 1}, "phases-intdiv",
                     PHRASES("k = 0..191 only", "rounds down"));
    expect_diagnosis(129, 257, 65, 0, 16, (bugs_t){.intdiv = 1}, "phases-intdiv",
                     PHRASES("k = 0..255 only", "(k = 256) never runs"));
    /* an untiled kernel has no phases: there k = 0..255 of K = 257 is the k
     * loop one short (k < K - 1) */
    mm_t p = problem(129, 257, 65, 0);
    matrix_t got = run_kernel(&p, 16, (bugs_t){.intdiv = 1});
    hypothesis_result_t r;
    cr_assert_eq(hypotheses_explain_seen(&p.a, &p.b, &p.exp, &got, lab_tol, LAB_TILE, (hypotheses_seen_t){1, 0}, &r),
                 1, "%s", r.hint);
    cr_assert_str_eq(r.id[0], "k-off-by-one");
    free(got.data);
    free_problem(&p);
}

/* The k loop one short, in a kernel that touched no shared memory: from
 * k = 1, or to K - 2 */
Test(hypothesis, k_loop_one_short_is_named)
{
    mm_t p = problem(100, 56, 64, 0);
    for (int from_one = 0; from_one < 2; from_one++) {
        matrix_t got = new_matrix(100, 64);
        for (int i = 0; i < 100; i++)
            for (int j = 0; j < 64; j++) {
                double s = 0;
                for (int q = from_one; q < (from_one ? 56 : 55); q++)
                    s += (double)p.a.data[i * 56 + q] * p.b.data[q * 64 + j];
                got.data[i * 64 + j] = (float)s;
            }
        hypothesis_result_t r;
        cr_assert_eq(hypotheses_explain_seen(&p.a, &p.b, &p.exp, &got, lab_tol, LAB_TILE,
                                             (hypotheses_seen_t){1, 0}, &r), 1, "%s", r.hint);
        cr_assert_str_eq(r.id[0], "k-off-by-one");
        cr_assert(strstr(r.hint, from_one ? "the sum over k = 1..55 only" : "the sum over k = 0..54 only"),
                  "%s", r.hint);
        free(got.data);
    }
    free_problem(&p);
}

Test(hypothesis, phases_intdiv_with_k_below_the_tile_sums_nothing)
{
    expect_diagnosis(40, 7, 33, 0, 16, (bugs_t){.intdiv = 1}, "all-zero",
                     PHRASES("every element is 0", "K = 7 < 16",
                             "(K + TILE_WIDTH - 1) / TILE_WIDTH"));
}

/* K = 1 and A's first element 0: C's row 0 is 0 too, so an all-zero output is also "the rows
 * past K left 0" (row 0 is right). That second reading shows nothing the first does not, and
 * would name a mistake the dataset cannot show: all-zero stands alone (a hidden 122x1x125 of
 * tests/hints/lab2/k_from_one.cu, whose k loop from 1 sums nothing at K = 1, was listed so) */
Test(hypothesis, rows_left_zero_is_not_listed_where_the_kept_rows_are_zero_too)
{
    mm_t p = problem(122, 1, 125, 0);
    for (int j = 0; j < 125; j++) /* A[0][0] = 0: C's row 0 is 0 */
        p.exp.data[j] = 0;
    p.a.data[0] = 0;
    matrix_t got = new_matrix(122, 125); /* every element 0 */
    hypothesis_result_t r;
    cr_assert_eq(hypotheses_explain_seen(&p.a, &p.b, &p.exp, &got, lab_tol, LAB_TILE, (hypotheses_seen_t){0, 0}, &r),
                 1, "%s", r.hint);
    cr_assert_str_eq(r.id[0], "all-zero");
    free(got.data);
    free_problem(&p);
}

Test(hypothesis, phases_intdiv_is_invisible_when_k_is_a_multiple_of_the_tile)
{
    expect_invisible(64, 64, 64, 16, (bugs_t){.intdiv = 1});
    expect_invisible(100, 128, 64, 16, (bugs_t){.intdiv = 1});
}

Test(hypothesis, phase_loop_one_phase_short)
{
    expect_diagnosis(64, 64, 64, 0, 16, (bugs_t){.one_phase_short = 1}, "phases-partial",
                     PHRASES("every element equals the sum over k = 0..47 only, not over all K = 64",
                             "the last phase never runs: the phase loop stops one phase early"));
    /* K uneven: the last, partial phase is the one left out */
    expect_diagnosis(97, 89, 101, 0, 16, (bugs_t){.one_phase_short = 1}, "phases-intdiv",
                     PHRASES("k = 0..79 only", "(k = 80..88) never runs"));
    /* TILE_WIDTH 32: k = 0..31, also "the first 2 phases" of 16; the loop bound is named */
    expect_diagnosis(64, 64, 64, 0, 32, (bugs_t){.one_phase_short = 1}, "phases-partial",
                     PHRASES("k = 0..31 only", "stops one phase early (with TILE_WIDTH = 32)"));
}

/* A student whose TILE_WIDTH is 32, not the lab's 16: K = 89 rounds down to
 * 64, which is also 4 phases of 16; the hint must name the rounding (with
 * the student's tile), not "the first 4 phases". */
Test(hypothesis, phases_intdiv_with_another_tile)
{
    expect_diagnosis(97, 89, 101, 0, 32, (bugs_t){.intdiv = 1}, "phases-intdiv",
                     PHRASES("k = 0..63 only", "(k = 64..88) never runs",
                             "K / TILE_WIDTH rounds down (with TILE_WIDTH = 32)"));
    expect_diagnosis(100, 300, 64, 0, 8, (bugs_t){.intdiv = 1}, "phases-intdiv",
                     PHRASES("k = 0..295 only", "(k = 296..299) never runs",
                             "rounds down (with TILE_WIDTH = 8)"));
}

Test(hypothesis, sum_reset_each_phase)
{
    expect_diagnosis(256, 300, 256, 0, 16, (bugs_t){.reset_each_phase = 1}, "sum-reset-each-phase",
                     PHRASES("every element equals the sum over the last phase only (k = 288..299)",
                             "reset to 0 inside the phase loop", "set it to 0 once, before the loop"));
    expect_diagnosis(100, 128, 64, 1, 16, (bugs_t){.reset_each_phase = 1}, "sum-reset-each-phase",
                     PHRASES("the last phase only (k = 112..127)"));
    expect_diagnosis(64, 64, 64, 0, 16, (bugs_t){.reset_each_phase = 1}, "sum-reset-each-phase",
                     PHRASES("the last phase only (k = 48..63)"));
    expect_diagnosis(100, 128, 64, 0, 32, (bugs_t){.reset_each_phase = 1}, "sum-reset-each-phase",
                     PHRASES("the last phase only (k = 96..127) (with TILE_WIDTH = 32)"));
    expect_invisible(40, 7, 33, 16, (bugs_t){.reset_each_phase = 1});
    expect_invisible(16, 16, 16, 16, (bugs_t){.reset_each_phase = 1});
}

Test(hypothesis, phase_totals_kept)
{
    const int shapes[][4] = {{256, 300, 256, 0}, {97, 89, 101, 0}, {100, 128, 64, 1}, {1, 200, 1, 0}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.totals_kept = 1}, "phase-totals-kept",
                         PHRASES("every element equals the running sum after phase 1, plus the one "
                                 "after phase 2",
                                 "not reset to 0 before the next phase",
                                 "reset it, or accumulate in one sum"));
    expect_diagnosis(97, 89, 101, 0, 32, (bugs_t){.totals_kept = 1}, "phase-totals-kept",
                     PHRASES("running sum after phase 1", "(with TILE_WIDTH = 32)"));
    expect_invisible(40, 7, 33, 16, (bugs_t){.totals_kept = 1});
}

Test(hypothesis, rows_of_a_guarded_with_k_read_as_zeros)
{
    expect_diagnosis(97, 89, 101, 0, 16, (bugs_t){.a_rows_guard_k = 1}, "zero-rows",
                     PHRASES("every element is right but rows 89..96, which are 0",
                             "the loads treat rows >= 89 as outside the matrix",
                             "compare the row of A with numARows"));
}

Test(hypothesis, columns_of_b_guarded_with_k_read_as_zeros)
{
    expect_diagnosis(97, 89, 101, 0, 16, (bugs_t){.b_cols_guard_k = 1}, "zero-cols",
                     PHRASES("every element is right but columns 89..100, which are 0",
                             "compare the column of B with numBColumns"));
}

Test(hypothesis, k_guarded_with_the_rows_of_a)
{
    /* aCol < numARows with M = 100 < K = 128: k = 100..127 load as zeros */
    expect_diagnosis(100, 128, 64, 0, 16, (bugs_t){.k_guard_m = 1}, "phases-partial",
                     PHRASES("every element equals the sum over k = 0..99 only, not over all K = 128",
                             "the loads treat k >= numARows (100) as outside the matrix",
                             "with numAColumns, not numARows"));
}

Test(hypothesis, k_guarded_with_the_columns_of_b)
{
    /* aCol < numBColumns with N = 64 < K = 128: also 4 phases of 16 */
    expect_diagnosis(100, 128, 64, 0, 16, (bugs_t){.k_guard_n = 1}, "phases-partial",
                     PHRASES("k = 0..63 only", "only the first 4 phases are summed",
                             "the loads treat k >= numBColumns (64) as outside the matrix"));
}

/* A cut that three causes give (K = 89 rounded down to 64 with TILE_WIDTH
 * 32, and M = N = 64 in the guards): all three are named, none cut short. */
Test(hypothesis, every_cause_of_a_cut_is_named_in_full)
{
    const char *end = "compare the column of A and the row of B with numAColumns, not numBColumns";
    mm_t p = problem(64, 89, 64, 0);
    matrix_t got = run_kernel(&p, 32, (bugs_t){.intdiv = 1});
    hypothesis_result_t r;
    cr_assert_geq(explain(&p, &got, &r), 1, "%s", r.ruled_out);
    cr_assert_str_eq(r.id[0], "phases-intdiv");
    cr_assert_not_null(strstr(r.hint, "rounds down (with TILE_WIDTH = 32)"), "%s", r.hint);
    cr_assert_not_null(strstr(r.hint, "; or the loads treat k >= numARows (64)"), "%s", r.hint);
    size_t len = strlen(r.hint);
    cr_assert(len > strlen(end) && strcmp(r.hint + len - strlen(end), end) == 0, "%s", r.hint);
    free(got.data);
    free_problem(&p);
}
