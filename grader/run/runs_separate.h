/* runs_separate.h - what the dataset runs of runs.c and runs_grouped.c
 * share: a run's output cap, forgetting an earlier attempt, the GPU queue's
 * counts, and running datasets each in its own process (private to
 * grader/run/runs*.c; the API is runs.h). */
#ifndef CUGRADE_RUNS_SEPARATE_H
#define CUGRADE_RUNS_SEPARATE_H

#include "run/ds_run.h"

/* s (malloc'd), freed with the run (runs_free): returned. */
char *runs_own(ds_run_t *r, char *s);
/* The output a run keeps (its spec's cap, or the runner's default). */
size_t runs_output_cap(const ds_run_t *r);
/* The files of an earlier attempt at this run must not count for the next. */
void runs_forget_attempt(const ds_run_t *r);
/* Whether the runs use a GPU's queue. */
int runs_have_queue(const runs_how_t *how);
/* Whether they run on a GPU, in a queue or not: each process makes a CUDA
 * context (its start credited to the budget by its turns) and waits for
 * the GPU, not the cores. */
int runs_on_a_gpu(const runs_how_t *how);
/* Adds one program's waits and holds to how->gpu_stats (if kept). */
void runs_add_stats(const runs_how_t *how, const gpu_turn_stats_t *st);
/* Whether a run ran past its own time limit (not the budget's end). */
int runs_timed_out(const run_result_t *r);
/* The result of a run not started because `timeouts` runs before it ran
 * past their limit (runs_how_t timeouts_max). */
run_result_t runs_not_run_after(int timeouts);
/* Each of runs[index[0..n)] in its own process, at most how->max_parallel at
 * a time; with a queue, the GPU held shared while they run (they cannot ask
 * for turns), and the wait for it moves the budget's end on. One at a time,
 * the runs after how->timeouts_max time-outs are not run. */
void runs_separately(ds_run_t *runs, const int *index, int n, const runs_how_t *how);

#endif
