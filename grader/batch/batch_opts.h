/* batch_opts.h - what `cugrade batch` is asked to do (its options), apart
 * from batch.h so that the pieces batch.c calls (batch_baseline.h) need not
 * include the batch itself. */
#ifndef CUGRADE_BATCH_OPTS_H
#define CUGRADE_BATCH_OPTS_H

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_MAX_ONLY 256

typedef struct {
    const char *root;            /* the cugrade tree */
    const char *self_exe;        /* bin/cugrade, run once per submission */
    const char *lab;
    const char *submissions_dir; /* one sub-folder per student id */
    const char *out_dir;         /* RESULTS_DIR */
    const char *backend;         /* "auto", "emu", "gpu", "vgpu" or "native" (build/backend.h) */
    int checks;                  /* --checks all (1) or none (0) */
    int jobs;                    /* submissions graded at once; 0: cpu_count() */
    double timeout_s;            /* wall-clock limit per submission */
    double budget_s;             /* --budget-s for each `cugrade run` (0: the rubric's) */
    const char *gpu_queue;       /* timing queues' folder; NULL: RESULTS_DIR/.gpu-queue */
    int resume;                  /* skip submissions whose inputs are unchanged */
    const char *only[BATCH_MAX_ONLY]; /* --only IDs */
    int nonly;
    const char *datasets_dir;    /* NULL: the lab's shipped datasets */
    const char *rubric_path;     /* NULL: <root>/rubric.json */
    const char *hidden_seed;     /* --hidden-seed FILE (NULL: as cugrade run finds it) */
    double perf_retime_s;        /* --perf-retime-s: the baseline's interval (0: 120 s) */
    int shard_index, shard_count; /* --shard K/N: only shard K of N (batch_shard.c); N 0: all */
    int no_class_files;          /* --no-class-files: no gradebook/class files at the end */
    /* set by batch_run: */
    char hidden_digest[65];      /* the secret's digest, in every submission's inputs hash */
    char hidden_set_dir[PATH_MAX]; /* the hidden datasets made once for the batch ("": none) */
} batch_opts_t;

/* Whether the batch's children may use a GPU: the gpu and native backends,
 * auto where there is one, and the executor, whose launch records are replayed there
 * (run/runs_replay.h) unless $CUGRADE_REPLAY is "off"; not the emulator. */
static inline int batch_may_use_gpu(const batch_opts_t *o)
{
    const char *replay = getenv("CUGRADE_REPLAY");
    if (strcmp(o->backend, "vgpu") == 0)
        return !replay || strcmp(replay, "off") != 0;
    return strcmp(o->backend, "emu") != 0;
}


#endif
