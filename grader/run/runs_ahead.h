/* runs_ahead.h - a group process's retry started ahead of its time-out
 * (runs_ahead.c); private to grader/run/runs*.c. */
#ifndef CUGRADE_RUNS_AHEAD_H
#define CUGRADE_RUNS_AHEAD_H

#include "run/gpu_turn.h"
#include "run/group.h"
#include "run/group_split.h"

#include <pthread.h>
#include <stdatomic.h>

#define AHEAD_OUT_SUFFIX ".ahead" /* the retry's outputs, beside the runs' own */

typedef struct {
    const group_t *g;       /* the group process watched: its report channel */
    ds_run_t *runs;
    const int *index;       /* its datasets: runs[index[0..n)] */
    int n;
    const runs_how_t *how;
    int watching;           /* the watching thread was started */
    double watched_from;    /* when the watched process was about to start */
    double paused_s;        /* from then to its first dataset's begin (its start and its wait
                             * for the GPU, which its budget is not charged; 0: not yet) */
    pthread_t thread;
    group_watch_t watch;    /* its report channel read so far (the watching thread's) */
    pthread_mutex_t lock;
    int ended;              /* the watched process ended: nothing more starts (lock) */
    atomic_int cancel;      /* the retry is not wanted: stop it */
    int from;               /* the retry's first dataset, a position in index; -1: none */
    int retrying;           /* retry_thread runs it */
    pthread_t retry_thread;
    group_t retry;          /* its list and report */
    char *argv[GROUP_ARGV_MAX];
    const char *shown[2];
    run_spec_t spec;
    run_result_t proc;      /* its ending */
    gpu_turn_stats_t st;    /* its turns' waits */
    int turns;              /* it took turns: st is to be added */
} ahead_t;

/* Before group process g runs runs[index[0..n)] on a GPU: watches its
 * report channel (g->report, emptied here), and once one dataset has run for
 * a share of its time limit (a sixth; CUGRADE_AHEAD_AT) with datasets after it, runs those in a retry
 * process beside it (its outputs at OUT AHEAD_OUT_SUFFIX). Watches only when
 * a retry could follow a time-out there: on a GPU, two datasets or more,
 * timeouts (so far) + 1 below how->timeouts_max (or no maximum). */
void ahead_watch(ahead_t *a, const group_t *g, ds_run_t *runs, const int *index, int n,
                 const runs_how_t *how, int timeouts);

/* The watched process ended: no retry starts from now on. */
void ahead_stop(ahead_t *a);

/* After the watched process was settled (settled: how many of its datasets
 * have a result; timed_out: the last of them ran past its limit): when the
 * retry began right after it, waits for the retry to end and returns 1, with
 * its ending in *proc, its group in *retry and its turns' pause in *paused_s,
 * its outputs moved to the runs' own paths. Otherwise stops the retry,
 * forgets what it wrote and returns 0. */
int ahead_take(ahead_t *a, int settled, int timed_out, run_result_t *proc, group_t *retry,
               double *paused_s);

#endif
