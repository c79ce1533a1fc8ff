/* runs_ahead.c - a group process's retry started ahead of its time-out.
 *
 * On a GPU a kernel that never ends holds its GPU until the harness's
 * watchdog stops it at its dataset's limit (lab 3: 3 s), and every timed run
 * of the queue waits for it. runs_grouped.c then runs the datasets after it
 * in a new process, which hangs again on the next: two limits one after the
 * other, plus a CUDA context's start between them, half of a class's GPU time
 * on an H200 (docs/benchmarks.md). Here, once a dataset has run for a share
 * of its limit (ahead_at), the datasets after it start in a second process
 * beside the first; if the first then times out there, the second is its
 * retry, begun early, and the two hangs overlap. If the dataset ends in time after
 * all, the second is stopped and forgotten: the first goes on as before.
 *
 * The retry is the same fresh process runs_grouped.c would have started:
 * the same datasets, limits, budget, sandbox and GPU turns, only earlier. It
 * writes its outputs beside the runs' own (OUT.ahead), moved into place only
 * when it is taken, so the two never write the same file. */
#include "run/runs_ahead.h"
#include "run/group_split.h"
#include "run/runs_separate.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AHEAD_POLL_US 50000 /* how often the watched report channel is read */

/* When the retry starts: once a dataset has run this share of its limit
 * (lab 3: 0.5 s of 3 s, where a correct kernel's dataset takes under 0.1 s
 * on an H200). Earlier saves more of a hung kernel's first limit, the GPU's
 * timed runs waiting through it, and costs a process (a CUDA context) for a
 * dataset that ends in time after all. A sixth against a half: a class of
 * 300 on an H200 graded 14% faster, with as many GPU holds (no retry begun
 * in vain; docs/benchmarks.md). CUGRADE_AHEAD_AT (a share in (0, 1)) sets
 * it, for measuring. */
#define AHEAD_AT_DEFAULT (1.0 / 6)

static double ahead_at(void)
{
    const char *v = getenv("CUGRADE_AHEAD_AT");
    char *end;
    double at = v && *v ? strtod(v, &end) : 0;
    return v && *v && *end == '\0' && at > 0 && at < 1 ? at : AHEAD_AT_DEFAULT;
}

static void ahead_out_path(const ds_run_t *r, char *out, size_t outlen)
{
    snprintf(out, outlen, "%s%s", r->out_path, AHEAD_OUT_SUFFIX);
}

/* Where the watched process is: the position in a->index of the dataset it
 * is in (began, not ended; -1: none), whether its first dataset began, and
 * whether the one at position k ended by itself (its end marker, or a crash
 * or CUDA error that ended only it), as against a time-out or not yet. Reads
 * only what the report channel gained since the last call (group_watch_t):
 * a program that fills it costs the watch its bytes once, not every poll. */
static int dataset_in_progress(ahead_t *a, int k, int *began, int *k_ended)
{
    group_watch_read(&a->watch, a->g->report);
    int at = -1;
    for (int i = 0; i < a->n && at < 0; i++)
        if (group_watch_state(&a->watch, i) == GROUP_STOPPED)
            at = i;
    *k_ended = k >= 0 && group_watch_state(&a->watch, k) == GROUP_ENDED;
    *began = group_watch_state(&a->watch, 0) != GROUP_NOT_BEGUN;
    return at;
}

/* Prepares the retry of a->index[from..n) unless the watched process has
 * ended; 0 when it is to run. Under a->lock. */
static int prepare_retry(ahead_t *a, int from)
{
    if (a->ended)
        return -1;
    a->retry = *a->g;
    snprintf(a->retry.list, sizeof a->retry.list, "%.4000s%s", a->g->list, AHEAD_OUT_SUFFIX);
    snprintf(a->retry.report, sizeof a->retry.report, "%.4000s%s", a->g->report,
             AHEAD_OUT_SUFFIX);
    const int *rest = a->index + from;
    int nrest = a->n - from;
    if (group_write_list(&a->retry, a->runs, rest, nrest, AHEAD_OUT_SUFFIX) != 0)
        return -1;
    for (int i = 0; i < nrest; i++) {
        char path[PATH_MAX + 16];
        ahead_out_path(&a->runs[rest[i]], path, sizeof path);
        unlink(path);
    }
    a->spec = group_spec(&a->retry, a->runs, rest, nrest, a->how, 0, a->argv, a->shown);
    a->spec.cancel = &a->cancel;
    if (a->spec.not_after > 0) /* the first's start and wait for the GPU: not the budget's, */
        a->spec.not_after += a->paused_s; /* as a retry after it would be credited them */
    a->from = from;
    return 0;
}

/* Runs the prepared retry with its own GPU turns, as run_group does. */
static void *run_retry(void *arg)
{
    ahead_t *a = arg;
    gpu_turns_t *turns = gpu_turns_open(a->how->gpu_queue, a->how->gpu_index, &a->st);
    if (!turns) {
        run_one(&a->spec, &a->proc);
        return NULL;
    }
    gpu_turns_give(turns, &a->spec);
    run_one(&a->spec, &a->proc);
    gpu_turns_close(turns, &a->spec);
    a->turns = 1;
    return NULL;
}

static int watched_ended(ahead_t *a)
{
    pthread_mutex_lock(&a->lock);
    int ended = a->ended;
    pthread_mutex_unlock(&a->lock);
    return ended;
}

/* Starts the retry of the datasets after position at, unless the watched
 * process has ended; 0 when it runs. */
static int start_retry(ahead_t *a, int at)
{
    pthread_mutex_lock(&a->lock);
    int go = prepare_retry(a, at + 1) == 0;
    if (go && pthread_create(&a->retry_thread, NULL, run_retry, a) != 0) {
        go = 0;
        a->from = -1;
    }
    a->retrying = go;
    pthread_mutex_unlock(&a->lock);
    return go ? 0 : -1;
}

/* Until the watched process ends: once one dataset has run ahead_at() of its
 * limit, the retry starts; once that dataset ends after all, the retry is stopped
 * (the first process goes on, and its timing must not wait for the retry's
 * GPU turn). */
static void *watch(void *arg)
{
    ahead_t *a = arg;
    int seen = -1, retried_at = -1;
    double since = 0, share = ahead_at();
    while (!watched_ended(a)) {
        int began, k_ended;
        int at = dataset_in_progress(a, retried_at, &began, &k_ended);
        double t = now_seconds();
        if (began && !a->paused_s)
            a->paused_s = t - a->watched_from; /* its first dataset began: it held the GPU */
        if (retried_at >= 0) {
            if (k_ended) { /* in time after all: the first process goes on */
                atomic_store(&a->cancel, 1);
                return NULL;
            }
        } else if (at != seen) {
            seen = at;
            since = t;
        } else if (at >= 0 && at + 1 < a->n &&
                   t - since >= a->runs[a->index[at]].spec.timeout_s * share) {
            if (start_retry(a, at) != 0)
                return NULL;
            retried_at = at;
        }
        usleep(AHEAD_POLL_US);
    }
    return NULL;
}

void ahead_watch(ahead_t *a, const group_t *g, ds_run_t *runs, const int *index, int n,
                 const runs_how_t *how, int timeouts)
{
    *a = (ahead_t){.g = g, .runs = runs, .index = index, .n = n, .how = how, .from = -1,
                   .watched_from = now_seconds()};
    atomic_init(&a->cancel, 0);
    int retry_allowed = how->timeouts_max <= 0 || timeouts + 1 < how->timeouts_max;
    if (!runs_on_a_gpu(how) || n < 2 || !retry_allowed)
        return;
    unlink(g->report); /* what the watched process writes, not an earlier one's */
    if (group_watch_init(&a->watch, n) != 0)
        return;
    pthread_mutex_init(&a->lock, NULL);
    a->watching = pthread_create(&a->thread, NULL, watch, a) == 0;
    if (!a->watching) {
        pthread_mutex_destroy(&a->lock);
        group_watch_free(&a->watch);
    }
}

void ahead_stop(ahead_t *a)
{
    if (!a->watching)
        return;
    pthread_mutex_lock(&a->lock);
    a->ended = 1;
    pthread_mutex_unlock(&a->lock);
}

/* Moves the retry's outputs over the runs' own (take) or removes them. */
static void settle_outputs(const ahead_t *a, int take)
{
    for (int i = a->from; i < a->n; i++) {
        const ds_run_t *r = &a->runs[a->index[i]];
        char path[PATH_MAX + 16];
        ahead_out_path(r, path, sizeof path);
        if (take) {
            runs_forget_attempt(r);
            rename(path, r->out_path);
        } else {
            unlink(path);
        }
    }
}

int ahead_take(ahead_t *a, int settled, int timed_out, run_result_t *proc, group_t *retry,
               double *paused_s)
{
    if (!a->watching)
        return 0;
    ahead_stop(a);
    int take = a->from >= 0 && a->from == settled && timed_out;
    if (!take)
        atomic_store(&a->cancel, 1);
    pthread_join(a->thread, NULL);
    if (a->retrying)
        pthread_join(a->retry_thread, NULL);
    pthread_mutex_destroy(&a->lock);
    group_watch_free(&a->watch);
    a->watching = 0;
    if (a->turns)
        runs_add_stats(a->how, &a->st);
    if (a->from < 0)
        return 0;
    settle_outputs(a, take);
    unlink(a->retry.list);
    if (!take) {
        unlink(a->retry.report);
        run_result_free(&a->proc);
        return 0;
    }
    *proc = a->proc;
    *retry = a->retry;
    *paused_s = a->turns ? a->st.paused_s : 0;
    return 1;
}
