/* runs_separate.c - what the dataset runs share (runs_separate.h): the strings a run owns, a run's
 * output cap, forgetting an earlier attempt, the GPU queue's counts, and the
 * runs each in its own process, several at a time. */
#include "run/runs_separate.h"
#include "run/gpuqueue.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *runs_own(ds_run_t *r, char *s)
{
    r->owned[r->nowned++] = s;
    return s;
}

size_t runs_output_cap(const ds_run_t *r)
{
    return r->spec.output_cap ? r->spec.output_cap : RUN_OUTPUT_CAP_DEFAULT;
}

/* The files of an earlier attempt at this run must not count for the next. */
void runs_forget_attempt(const ds_run_t *r)
{
    unlink(r->out_path);
    unlink(r->diag_path);
}

int runs_have_queue(const runs_how_t *how)
{
    return how->gpu_queue && how->gpu_queue[0];
}

int runs_on_a_gpu(const runs_how_t *how) { return how->on_gpu || runs_have_queue(how); }

void runs_add_stats(const runs_how_t *how, const gpu_turn_stats_t *st)
{
    if (!how->gpu_stats)
        return;
    how->gpu_stats->waited_s += st->waited_s;
    how->gpu_stats->shared_s += st->shared_s;
    how->gpu_stats->exclusive_s += st->exclusive_s;
    how->gpu_stats->shares += st->shares;
    how->gpu_stats->start_s += st->start_s;
}

int runs_timed_out(const run_result_t *r) { return r->timed_out && !r->budget_out; }

run_result_t runs_not_run_after(int timeouts)
{
    return (run_result_t){.budget_out = 1, .hung_before = timeouts, .output = strdup("")};
}

/* On a GPU (a limit cap), a run in its own process makes its CUDA context
 * inside its clock, seconds on a busy GPU: its limit is at least this much
 * (the dataset's own limit if lower). The cap is for the list mode, which
 * makes the context before any dataset's clock starts. */
#define SEPARATE_GPU_LIMIT_MIN_S 10.0

static double separate_limit(const ds_run_t *r, const runs_how_t *how)
{
    double limit = r->spec.timeout_s, own = r->job->rule.time_limit_s;
    if (!(how->limit_cap > 0) || limit >= SEPARATE_GPU_LIMIT_MIN_S)
        return limit;
    return own < SEPARATE_GPU_LIMIT_MIN_S ? own : SEPARATE_GPU_LIMIT_MIN_S;
}

/* One after another, until `max` of them ran past their limit: the rest
 * are not run. */
static void run_until_timeouts(const run_spec_t *specs, run_result_t *results, int n, int max)
{
    int timeouts = 0;
    for (int i = 0; i < n; i++) {
        if (timeouts >= max) {
            results[i] = runs_not_run_after(timeouts);
            continue;
        }
        run_one(&specs[i], &results[i]);
        timeouts += runs_timed_out(&results[i]);
    }
}

/* Each run in its own process, at most how->max_parallel at a time; with a
 * queue, the GPU held shared while they run (they cannot ask for turns). */
void runs_separately(ds_run_t *runs, const int *index, int n, const runs_how_t *how)
{
    run_spec_t *specs = calloc((size_t)n + 1, sizeof *specs);
    run_result_t *results = calloc((size_t)n + 1, sizeof *results);
    for (int i = 0; i < n; i++) {
        runs_forget_attempt(&runs[index[i]]);
        runs[index[i]].spec.timeout_s = separate_limit(&runs[index[i]], how); /* its messages too */
        specs[i] = runs[index[i]].spec;
    }
    gpu_slot_t slot = {.gate_fd = -1, .lock_fd = -1};
    char err[512];
    double t0 = now_seconds();
    if (runs_have_queue(how) &&
        gpu_queue_enter(how->gpu_queue, how->gpu_index, GPU_SHARED, &slot, err, sizeof err) != 0)
        fprintf(stderr, "cugrade: %s (going on without the GPU queue)\n", err);
    double held = now_seconds();
    for (int i = 0; i < n; i++) /* waits in the queue are not the submission's time */
        if (specs[i].not_after > 0)
            specs[i].not_after = how->not_after + (held - t0);
    if (how->timeouts_max > 0 && how->max_parallel <= 1) /* on a GPU: one at a time */
        run_until_timeouts(specs, results, n, how->timeouts_max);
    else
        run_many(specs, results, n, how->max_parallel);
    if (runs_have_queue(how)) {
        gpu_queue_leave(&slot);
        gpu_turn_stats_t st = {.waited_s = held - t0, .shared_s = now_seconds() - held};
        runs_add_stats(how, &st);
    }
    for (int i = 0; i < n; i++)
        runs[index[i]].result = results[i];
    free(specs);
    free(results);
}

