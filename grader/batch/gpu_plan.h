/* gpu_plan.h - internal to `cugrade batch`: how a batch's children use the
 * machine's GPUs (gpu_plan.c): how many, their timing queues' folder, the
 * architecture nvcc builds for, and which GPU each worker's children see. */
#ifndef CUGRADE_GPU_PLAN_H
#define CUGRADE_GPU_PLAN_H

#include "batch/batch_job.h"
#include "batch/batch_opts.h"

#include <limits.h>

/* How the children use the GPUs: the number of GPUs (0: emulator), the
 * folder of their timing queues and the architecture nvcc builds for. */
typedef struct {
    int ngpu;
    char queue_dir[PATH_MAX];
    char arch[32];
} gpu_plan_t;

/* Counts the GPUs (none for --backend emu), names the queues' folder
 * (clearing its old logs) and settles nvcc's -arch. */
void gpu_plan(const batch_opts_t *o, gpu_plan_t *g);

/* Points j's environment at the GPU of worker (worker % ngpu); nothing when
 * ngpu is 0. */
void gpu_assign(job_t *j, int worker, int ngpu);

#endif
