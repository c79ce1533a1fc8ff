/* test_timing_stats.c - the timing programs' statistics (labs/common/
 * timing_stats.h): the median and its relative standard error from the MAD,
 * and the stopping rule built on it. A few interrupted reps must not keep a
 * steady kernel running to --max-reps; a kernel whose times really spread
 * must not stop early. */
#include <criterion/criterion.h>
#include <math.h>

#include "timing_stats.h"

Test(timing_stats, median_mean_and_extremes_of_an_odd_and_an_even_series)
{
    float odd[] = {3, 1, 2};
    timing_stats_t st = timing_summarize(odd, 3);
    cr_assert_float_eq(st.median, 2.0, 1e-12);
    cr_assert_float_eq(st.mean, 2.0, 1e-12);
    cr_assert_float_eq(st.min, 1.0, 1e-12);
    cr_assert_float_eq(st.max, 3.0, 1e-12);
    float even[] = {4, 1, 3, 2};
    st = timing_summarize(even, 4);
    cr_assert_float_eq(st.median, 2.5, 1e-12);
    cr_assert_float_eq(st.mean, 2.5, 1e-12);
}

/* The first quartile at rank (n - 1) / 4, between the two nearest ranks:
 * {1..5} at rank 1 is 2; {1, 2, 3, 4} at rank 0.75 is 1.75; one rep is
 * itself; none is NaN. */
Test(timing_stats, first_quartile_between_the_nearest_ranks)
{
    float five[] = {5, 3, 1, 4, 2};
    cr_assert_float_eq(timing_summarize(five, 5).q1, 2.0, 1e-12);
    float four[] = {4, 1, 3, 2};
    cr_assert_float_eq(timing_summarize(four, 4).q1, 1.75, 1e-12);
    float one[] = {7};
    cr_assert_float_eq(timing_summarize(one, 1).q1, 7.0, 1e-12);
    cr_assert(isnan(timing_summarize(one, 0).q1));
}

/* What the first quartile is scored for: a kernel's reps slowed by other
 * processes' work on the GPU (contexts made and ended beside the timed part,
 * bench/timing_load.sh) only ever take longer. 10 reps of 6.0 ms, 6 of them
 * slowed by 13% (6.8 ms), as a batch's slowest copy on an H200 was: the
 * median moves with them, the first quartile stays at the kernel's time. */
Test(timing_stats, reps_slowed_by_other_work_move_the_median_not_the_first_quartile)
{
    float ms[10];
    for (int i = 0; i < 10; i++)
        ms[i] = i % 5 < 3 ? 6.8f : 6.0f;
    timing_stats_t st = timing_summarize(ms, 10);
    cr_assert_float_eq(st.median, 6.8, 1e-6);
    cr_assert_float_eq(st.q1, 6.0, 1e-6);
}

/* {8, 9, 10, 11, 12}: median 10, deviations {0, 1, 1, 2, 2}, MAD 1. */
Test(timing_stats, rse_is_the_medians_standard_error_from_the_mad)
{
    float spread[] = {8, 9, 10, 11, 12};
    timing_stats_t st = timing_summarize(spread, 5);
    double want = 1.2533 * 1.4826 * 1.0 / sqrt(5.0) / 10.0;
    cr_assert_float_eq(st.rse, want, 1e-9, "rse %g, want %g", st.rse, want);
    float same[] = {10, 10, 10, 10};
    cr_assert_float_eq(timing_summarize(same, 4).rse, 0.0, 1e-12);
}

Test(timing_stats, one_rep_or_none_has_no_error_estimate)
{
    float one[] = {5};
    timing_stats_t st = timing_summarize(one, 1);
    cr_assert_float_eq(st.median, 5.0, 1e-12);
    cr_assert(isinf(st.rse));
    st = timing_summarize(one, 0);
    cr_assert(isnan(st.median) && isinf(st.rse));
}

/* 17 ms with 0.1% jitter, and 2 of 20 reps interrupted (+40%): the mean's
 * RSE would be about 2.8% (past the 1% target: run on to --max-reps); the
 * median's is well under 1%, and the median stays at 17 ms. */
Test(timing_stats, a_few_interrupted_reps_do_not_keep_a_steady_kernel_running)
{
    float ms[20];
    for (int i = 0; i < 20; i++)
        ms[i] = 17.0f + 0.017f * (float)((i * 7) % 5 - 2) / 2.0f;
    ms[3] = ms[11] = 17.0f * 1.4f;
    timing_stats_t st = timing_summarize(ms, 20);
    double sq = 0;
    for (int i = 0; i < 20; i++)
        sq += (ms[i] - st.mean) * (ms[i] - st.mean);
    double mean_rse = sqrt(sq / 19) / sqrt(20.0) / st.mean;
    cr_assert(mean_rse > 0.02, "the mean's RSE %g: the case is not noisy enough", mean_rse);
    cr_assert(st.rse < 0.001, "the median's RSE %g", st.rse);
    cr_assert(fabs(st.median - 17.0) < 0.02, "median %g", st.median);
    float *series[] = {ms};
    int use[] = {1};
    cr_assert(timing_converged(series, use, 1, 20, 10, 0.01));
}

/* Times spread over +-20% (a kernel at the mercy of something): the median
 * is not known to 1% after 10 reps, so the rule goes on. */
Test(timing_stats, a_real_spread_keeps_the_reps_going)
{
    float ms[10] = {10, 12, 8, 11, 9, 12, 8, 10, 11, 9};
    float *series[] = {ms};
    int use[] = {1};
    timing_stats_t st = timing_summarize(ms, 10);
    cr_assert(st.rse > 0.01, "rse %g", st.rse);
    cr_assert(!timing_converged(series, use, 1, 10, 10, 0.01));
}

Test(timing_stats, too_few_reps_or_one_loose_series_in_use_do_not_converge)
{
    float steady[12], loose[12] = {10, 12, 8, 11, 9, 12, 8, 10, 11, 9, 13, 7};
    for (int i = 0; i < 12; i++)
        steady[i] = 5.0f;
    float *series[] = {steady, loose};
    int both[] = {1, 1}, first[] = {1, 0};
    cr_assert(!timing_converged(series, first, 2, 9, 10, 0.01), "9 reps of a minimum of 10");
    cr_assert(timing_converged(series, first, 2, 12, 10, 0.01));
    cr_assert(!timing_converged(series, both, 2, 12, 10, 0.01), "the loose series is in use");
}

/* A gated rep is timed by its events unless its launch function took longer
 * on the host: one that waited for its own stream's kernel while the gate
 * held the events back (tests/attacks/waits_on_own_stream.cu) is timed by
 * that wait, not by the 2 us between the held events. */
Test(timing_stats, a_gated_rep_is_never_shorter_than_its_launch_call)
{
    cr_assert_float_eq(timing_gated_ms(6.0f, 0.012), 6.0f, 1e-6, "an honest launch: the events");
    cr_assert_float_eq(timing_gated_ms(0.002f, 6.1), 6.1f, 1e-6, "a launch that waited: its call");
    cr_assert_float_eq(timing_gated_ms(6.0f, 6.0), 6.0f, 1e-6);
}
