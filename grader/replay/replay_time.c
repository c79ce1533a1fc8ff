/* replay_time.c - a record timed against the reference's (replay.h
 * replay_time): interleaved replays, each from fresh inputs and poisoned
 * memory, every output of the submission's checked. A kernel that keeps
 * state between launches (a __device__ counter that skips work once it
 * has been called) is caught by the check of every replay, not the
 * first's alone. */
#include "replay/replay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Elements of got not within tolerance of want (NaN never is); all of them
 * when the shapes differ. By their sums: 1 when the sums are not within. */
static long wrong_elements(const matrix_t *got, const matrix_t *want, replay_compare_t compare, double rtol,
                           double atol)
{
    long n = (long)want->rows * want->cols;
    if (compare == REPLAY_COMPARE_SUM) {
        double g = 0, w = 0;
        for (long i = 0; i < (long)got->rows * got->cols; i++)
            g += got->data[i];
        for (long i = 0; i < n; i++)
            w += want->data[i];
        return !(fabs(g - w) <= atol + rtol * fabs(w));
    }
    if (got->rows != want->rows || got->cols != want->cols)
        return n > 0 ? n : 1;
    long wrong = 0;
    for (long i = 0; i < n; i++) {
        double g = got->data[i], w = want->data[i];
        if (!(fabs(g - w) <= atol + rtol * fabs(w)))
            wrong++;
    }
    return wrong;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void statistics(double *ms, int n, replay_times_t *t)
{
    t->reps = n;
    if (n == 0)
        return;
    double sum = 0, sq = 0;
    for (int i = 0; i < n; i++)
        sum += ms[i];
    t->mean_ms = sum / n;
    for (int i = 0; i < n; i++)
        sq += (ms[i] - t->mean_ms) * (ms[i] - t->mean_ms);
    t->rse = n > 1 && t->mean_ms > 0 ? sqrt(sq / (n - 1)) / sqrt((double)n) / t->mean_ms : 0;
    qsort(ms, (size_t)n, sizeof *ms, by_value);
    t->median_ms = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
    t->q1_ms = ms[n / 4];
}

/* One replay of side s: its output into out (freed by the caller), its time into *ms. */
static int once(const replay_side_t *s, const char *who, matrix_t *out, double *ms, char *err, size_t errlen)
{
    char e[1024];
    int rc = replay_run(s->t, s->blob, s->inputs_dir, s->dev, out, e, sizeof e);
    if (rc != 0) {
        snprintf(err, errlen, "%s: %s", who, e);
        return rc;
    }
    *ms = s->dev->run_ms ? s->dev->run_ms(s->dev->self) : 0;
    return 0;
}

int replay_time(const replay_side_t *a, const replay_side_t *b, int reps, replay_compare_t compare, double rtol,
                double atol, replay_times_t *ta, replay_times_t *tb, char *err, size_t errlen)
{
    memset(ta, 0, sizeof *ta);
    if (tb)
        memset(tb, 0, sizeof *tb);
    double *ms_a = calloc((size_t)reps + 1, sizeof *ms_a), *ms_b = calloc((size_t)reps + 1, sizeof *ms_b);
    matrix_t want = {0}, got = {0};
    double warm;
    int rc = !ms_a || !ms_b ? (snprintf(err, errlen, "out of memory"), 2) : 0;
    if (rc == 0 && b) /* the reference's output: what every one of the submission's is checked against */
        rc = once(b, "the reference's record", &want, &warm, err, errlen);
    int ref_failed = rc != 0;
    if (rc == 0)
        rc = once(a, "the submission's record", &got, &warm, err, errlen);
    for (int i = 0; rc == 0 && i <= reps; i++) {
        if (b && want.data) {
            long w = wrong_elements(&got, &want, compare, rtol, atol);
            ta->wrong = w > ta->wrong ? w : ta->wrong;
            ta->wrong_reps += w > 0;
        }
        matrix_free(&got);
        if (i == reps)
            break;
        matrix_t ref_out = {0};
        if (b && (rc = once(b, "the reference's record", &ref_out, &ms_b[i], err, errlen)) != 0) {
            ref_failed = 1;
            break;
        }
        matrix_free(&ref_out);
        rc = once(a, "the submission's record", &got, &ms_a[i], err, errlen);
    }
    matrix_free(&got);
    matrix_free(&want);
    if (ref_failed && rc == 1)
        rc = 2; /* the reference's kernel failing is never the submission's doing */
    if (rc == 0) {
        statistics(ms_a, reps, ta);
        if (tb)
            statistics(ms_b, reps, tb);
    }
    free(ms_a);
    free(ms_b);
    return rc;
}
