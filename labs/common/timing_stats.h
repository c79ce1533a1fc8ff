/* timing_stats.h - the statistics of a timing program's event times
 * (timing.h uses them; plain C and C++, no CUDA, so the grader's unit tests
 * include it too):
 *
 *   timing_summarize(ms, n)   median, first quartile, mean, extremes and
 *                             the relative standard error of the median
 *   timing_converged(...)     whether a series is tight enough to stop
 *   timing_gated_ms(...)      a gated rep's time: never less than its launch
 *                             function's own time on the host
 *
 * The median is what is reported and scored, so the stopping rule asks how
 * well the median is known: its standard error estimated from the median
 * absolute deviation (1.4826 * MAD estimates sigma; the median's standard
 * error is 1.2533 * sigma / sqrt(n) for normal data). A few interrupted reps
 * (a host thread descheduled between two launches, a clock dip) barely move
 * the MAD, where they would blow up the mean's standard deviation and keep a
 * quiet kernel running to --max-reps. */
#ifndef CUGRADE_TIMING_STATS_H
#define CUGRADE_TIMING_STATS_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double median, mean, min, max, rse; /* rse: of the median, relative to it */
    double q1; /* the first quartile (25th percentile), interpolated */
} timing_stats_t;

static inline int timing_cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static inline int timing_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The middle of sorted[0..n) (n >= 1). */
static inline double timing_middle_float(const float *sorted, int n)
{
    return n % 2 ? sorted[n / 2] : 0.5 * ((double)sorted[n / 2 - 1] + sorted[n / 2]);
}

static inline double timing_middle_double(const double *sorted, int n)
{
    return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

/* The p-quantile of sorted[0..n) (n >= 1, 0 <= p <= 1): linear between
 * the two nearest ranks, at rank p (n - 1). */
static inline double timing_quantile_float(const float *sorted, int n, double p)
{
    double at = p * (n - 1);
    int lo = (int)at;
    if (lo >= n - 1)
        return sorted[n - 1];
    return sorted[lo] + (at - lo) * ((double)sorted[lo + 1] - sorted[lo]);
}

/* Median, first quartile, mean, extremes and the median's relative standard error
 * (1.2533 * 1.4826 * MAD / sqrt(n) / median; infinite for n < 2, for a
 * median <= 0, or when memory runs out). Every field is NaN for n < 1. */
static inline timing_stats_t timing_summarize(const float *ms, int n)
{
    timing_stats_t st = {NAN, NAN, NAN, NAN, INFINITY, NAN};
    if (n < 1)
        return st;
    float *sorted = (float *)malloc((size_t)n * sizeof *sorted);
    double *dev = (double *)malloc((size_t)n * sizeof *dev);
    if (!sorted || !dev) {
        free(sorted);
        free(dev);
        return st;
    }
    memcpy(sorted, ms, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, timing_cmp_float);
    st.median = timing_middle_float(sorted, n);
    st.q1 = timing_quantile_float(sorted, n, 0.25);
    st.min = sorted[0];
    st.max = sorted[n - 1];
    double sum = 0;
    for (int i = 0; i < n; i++) {
        sum += sorted[i];
        dev[i] = fabs(sorted[i] - st.median);
    }
    st.mean = sum / n;
    qsort(dev, (size_t)n, sizeof *dev, timing_cmp_double);
    double mad = timing_middle_double(dev, n);
    if (n >= 2 && st.median > 0)
        st.rse = 1.2533 * 1.4826 * mad / sqrt((double)n) / st.median;
    free(sorted);
    free(dev);
    return st;
}

/* Whether every series in use (use[i], ms[i] with reps times each) has at
 * least min_reps times and a median known to target_rse. */
static inline int timing_converged(float *const *ms, const int *use, int nimpl, int reps,
                                   long min_reps, double target_rse)
{
    if (reps < min_reps)
        return 0;
    for (int i = 0; i < nimpl; i++)
        if (use[i] && !(timing_summarize(ms[i], reps).rse <= target_rse))
            return 0;
    return 1;
}

/* The time of a rep timed through the launch gate (timing.h): the events'
 * (event_ms), which start only once the launch is queued, but never less
 * than the launch function's own time on the host (host_ms, from its call to
 * its return). A launch function returns long before its kernel ends, unless
 * it waits for it: one that waits for the GPU on the default stream is found
 * by the gate and timed without it, but one that runs its kernel on a stream
 * of its own that does not wait for the default stream (cudaStreamNonBlocking)
 * and waits for that stream would otherwise be timed while the gate holds
 * back both events, as if it took no time (tests/attacks/waits_on_own_stream.cu). A
 * host stall in the call (the thread off its core) can reach the time only
 * where it is longer than the kernel itself. */
static inline float timing_gated_ms(float event_ms, double host_ms)
{
    return host_ms > (double)event_ms ? (float)host_ms : event_ms;
}

#endif
