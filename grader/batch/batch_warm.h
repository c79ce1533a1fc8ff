/* batch_warm.h - the lab's timing objects compiled into the build cache
 * while a batch starts (batch_warm.c). */
#ifndef CUGRADE_BATCH_WARM_H
#define CUGRADE_BATCH_WARM_H

#include "batch/batch_opts.h"

#include <pthread.h>

typedef struct {
    const batch_opts_t *o;
    pthread_t thread;
    int started;
} batch_warm_t;

/* On a GPU batch whose lab is timed: starts compiling the timing program's
 * and the timed driver's cached objects (build_timing_caches) beside the
 * canary and the hidden datasets, so that the first children, which each
 * need them before their first dataset, find them made. */
/* ngpu: the GPUs that time with the timing program (gpu_plan_t.native_timing) */
void batch_warm_start(batch_warm_t *w, const batch_opts_t *o, int ngpu);

/* Waits for it (nothing when it was not started). */
void batch_warm_join(batch_warm_t *w);

#endif
