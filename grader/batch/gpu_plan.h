/* gpu_plan.h - internal to `cugrade batch`: how a batch's children use the
 * machine's GPUs (gpu_plan.c): how many, their timing queues' folder, the
 * architecture nvcc builds for, and which GPU each worker's children see. */
#ifndef CUGRADE_GPU_PLAN_H
#define CUGRADE_GPU_PLAN_H

#include "batch/batch_job.h"
#include "batch/batch_opts.h"
#include "batch/gpu_holds.h"

#include <limits.h>

/* How the children use the GPUs: the number of GPUs (0: emulator), the
 * folder of their timing queues, the architecture nvcc builds for and each
 * GPU's device file, which alone a child's sandbox shows. */
typedef struct {
    int ngpu;
    char queue_dir[PATH_MAX];
    char arch[32];
    char node[GPU_HOLDS_MAX_GPUS][32]; /* each GPU's device file ("": not known) */
    int isolated;                       /* every GPU's is known */
    int native_timing; /* the children time with the gpu backend's timing program, whose
                        * build the batch warms and whose reference it times once per GPU
                        * (batch_baseline.h): --backend gpu, or auto where the executor
                        * and its replay runner are not ready; not on the executor, whose
                        * runner times the reference's record beside each submission's */
    int choose; /* each child takes its GPU after its build, the one with the fewest
                 * submissions on it (run/gpu_choice.h): on several GPUs with
                 * $CUGRADE_GPU_CHOICE=fewest; else worker w's children run on
                 * GPU w % ngpu (on 2 H200s that graded as fast: docs/benchmarks.md) */
} gpu_plan_t;

/* Counts the GPUs (none for --backend emu), names the queues' folder
 * (clearing its old logs), settles nvcc's -arch and finds the GPUs' device
 * files. */
void gpu_plan(const batch_opts_t *o, gpu_plan_t *g);

/* What a job is told of GPU k: whether it may take it (a GPU whose first
 * baseline timing is still to come is not offered: the job does not wait
 * for it) and the baseline timing file there ("": none). */
typedef struct {
    int offered;
    char baseline[PATH_MAX];
} gpu_offer_t;

/* Points j's environment at the GPU of worker (worker % g->ngpu), its
 * "home"; with g->choose, j's --gpu-choice arguments name every GPU offered
 * (the child takes one after its build; home wins a tie). offer[k]: GPU k's
 * (home's is always offered); NULL: home alone, without a baseline. Nothing
 * when there is no GPU. */
void gpu_assign(job_t *j, int worker, const gpu_plan_t *g, const gpu_offer_t *offer);

#endif
