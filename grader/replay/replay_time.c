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

/* One run of side s: its output into out (freed by the caller), its time into *ms. */
static int once(const replay_side_t *s, matrix_t *out, double *ms, char *err, size_t errlen)
{
    char e[1024];
    int rc = s->run ? s->run(s->self, s->inputs_dir, out, ms, e, sizeof e)
                    : replay_run(s->t, s->blob, s->inputs_dir, s->dev, out, e, sizeof e);
    if (rc != 0) {
        snprintf(err, errlen, "%s: %s", s->who ? s->who : "a record", e);
        return rc;
    }
    if (!s->run)
        *ms = s->dev->run_ms ? s->dev->run_ms(s->dev->self) : 0;
    return 0;
}

/* Side k's output got, against the reference's want (none when there is
 * no reference), counted into t. */
static void check_output(const matrix_t *got, const matrix_t *want, replay_compare_t compare, double rtol,
                         double atol, replay_times_t *t)
{
    if (!want->data)
        return;
    long w = wrong_elements(got, want, compare, rtol, atol);
    t->wrong = w > t->wrong ? w : t->wrong;
    t->wrong_reps += w > 0;
}

/* Run rep (-1: the warm-up) of every side, the submission's last, each
 * output checked (the reference's first one kept in want). */
static int one_round(const replay_side_t *sides, int n, int rep, replay_compare_t compare, double rtol,
                     double atol, matrix_t *want, double **ms, replay_times_t *times, char *err, size_t errlen)
{
    for (int j = 1; j <= n; j++) {
        int k = j % n; /* 1, 2, ..., n - 1, then 0 */
        matrix_t got = {0};
        double t = 0;
        int rc = once(&sides[k], &got, &t, err, errlen);
        if (rc != 0)
            return k == 0 ? rc : 2; /* only the submission's kernels are the submission's doing */
        if (rep >= 0)
            ms[k][rep] = t;
        if (k == 1 && !want->data)
            *want = got;
        else {
            if (k != 1)
                check_output(&got, want, compare, rtol, atol, &times[k]);
            matrix_free(&got);
        }
    }
    return 0;
}

int replay_time(const replay_side_t *sides, int n, int reps, replay_compare_t compare, double rtol, double atol,
                replay_times_t *times, char *err, size_t errlen)
{
    if (n < 1 || n > REPLAY_MAX_SIDES || reps < 0)
        return snprintf(err, errlen, "replay_time: %d sides, %d reps", n, reps), 2;
    double *ms[REPLAY_MAX_SIDES] = {0};
    int rc = 0;
    for (int k = 0; k < n; k++) {
        memset(&times[k], 0, sizeof times[k]);
        if (!(ms[k] = calloc((size_t)reps + 1, sizeof *ms[k])))
            rc = (snprintf(err, errlen, "out of memory"), 2);
    }
    matrix_t want = {0};
    for (int rep = -1; rc == 0 && rep < reps; rep++)
        rc = one_round(sides, n, rep, compare, rtol, atol, &want, ms, times, err, errlen);
    matrix_free(&want);
    for (int k = 0; k < n; k++) {
        if (rc == 0)
            statistics(ms[k], reps, &times[k]);
        free(ms[k]);
    }
    return rc;
}
