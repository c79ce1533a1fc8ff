/* batch_baseline.h - internal to `cugrade batch`: the baseline timings of a
 * batch on the GPU backend (pipeline/perf_baseline.h). The reference and
 * cuBLAS are timed on each GPU before its first timed submission and again
 * once the last timing is older than the interval; every submission's
 * timing program then times the student's kernel alone and is scored
 * against its GPU's latest baseline. Every timing is kept: RESULTS/
 * perf-baselines.json lists them, with the spread across GPUs and time (for
 * shard K of a class, batch --shard: perf-baselines-shardK.json, and the
 * baseline files under .perf-baseline/shardK/). */
#ifndef CUGRADE_BATCH_BASELINE_H
#define CUGRADE_BATCH_BASELINE_H

#include "batch/batch_opts.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>

#define BASELINE_MAX_GPUS 16
#define BASELINE_MAX_TIMINGS 512

typedef struct {
    int gpu;
    double at;             /* when (seconds since the epoch) */
    char device[128];
    char shape[8][32];     /* the rubric's shapes */
    double reference[8];   /* the reference's rate on each, in the kind's unit */
    double cublas[8];
    int nshapes;
} baseline_timing_t;

typedef struct baselines baselines_t;

struct baselines {
    int wanted;                 /* gpu backend, a performance test with points */
    double interval_s;          /* re-timed when its latest timing is older */
    const batch_opts_t *o;
    char dir[PATH_MAX];         /* RESULTS/.perf-baseline */
    char queue_dir[PATH_MAX];
    pthread_mutex_t lock[BASELINE_MAX_GPUS];
    double latest[BASELINE_MAX_GPUS];  /* 0: none yet */
    int failed[BASELINE_MAX_GPUS];     /* its timing failed: the children time it themselves */
    pthread_mutex_t list_lock;
    baseline_timing_t *timings;
    int ntimings;
    /* Times GPU gpu's baseline into its file; 0, or -1 said on out. The
     * timing program on that GPU; a test's stand-in. Each GPU's first timing
     * runs beside the others'. */
    int (*time_gpu)(baselines_t *b, int gpu, FILE *out);
    /* baselines_start_first's threads, one a GPU, and what each is given */
    pthread_t first[BASELINE_MAX_GPUS];
    int nfirst;
    FILE *first_out;
};

/* Readies the baselines of a batch of o on ngpu GPUs (0: none wanted). */
void baselines_init(baselines_t *b, const batch_opts_t *o, int ngpu, const char *queue_dir);

/* The baseline file of GPU gpu, timed first if it has none or an old one
 * (the caller, a worker, waits for that); NULL when there is none to use
 * (not wanted, or its timing failed: said once on out). */
const char *baselines_ensure(baselines_t *b, int gpu, char *path, size_t pathlen, FILE *out);

/* Starts every GPU's first timing now, each in a thread of its own, beside
 * what the batch does meanwhile (its canary, whose GPU runs take their turns
 * in the same queues, the hidden datasets, the staging), so that the workers
 * find the baselines made, or wait for them as for any first timing;
 * baselines_join_first waits for the threads. Nothing when none is wanted. */
void baselines_start_first(baselines_t *b, int ngpu, FILE *out);
void baselines_join_first(baselines_t *b);

/* At a batch's start, when someone is to be graded: readies b and starts
 * the first timings (baselines_start_first) on ngpu GPUs: 1; 0 with no GPU
 * or with CUGRADE_BASELINE_FIRST=lazy (each GPU's first worker times it once
 * the canary and the staging are done, as before: to compare, docs/batch.md),
 * b then left for the caller to ready. */
int baselines_start_early(baselines_t *b, const batch_opts_t *o, int ngpu, const char *queue_dir,
                          FILE *out);

/* Without waiting: 1 with path set when GPU gpu's baseline is there to use;
 * 0 when there is none to use (not wanted, or its timing failed; path "");
 * -1 while its first timing is still to come or under way. */
int baselines_peek(baselines_t *b, int gpu, char *path, size_t pathlen);

/* Writes RESULTS/perf-baselines.json and prints the spread (nothing when no
 * timing was made). 0, or -1 with err set. */
int baselines_write(baselines_t *b, const char *out_dir, FILE *out, char *err, size_t errlen);

void baselines_free(baselines_t *b);

/* Every perf-baselines*.json of a results folder (one per shard, or the
 * batch's one), as a JSON array for summary.json; NULL when there is none. */
struct json_object *baselines_load_all(const char *out_dir);

#endif
