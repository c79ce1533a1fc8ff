/* gpu_plan.c - how a batch's children use the machine's GPUs: counted and
 * asked their architecture once, in the batch, so that no child starts the
 * CUDA driver for that; worker w's children see GPU w % ngpu alone. */
#include "batch/gpu_plan.h"
#include "batch/gpu_holds.h"
#include "batch/gpu_visible.h"
#include "build/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* nvcc's -arch, asked of the driver once for the whole batch and handed to
 * every child ($CUGRADE_NVCC_ARCH), unless the TA set it: with "native",
 * each of a submission's nvcc runs starts the CUDA driver itself, and on a
 * host with several GPUs those starts queue behind one another. */
static void plan_arch(gpu_plan_t *g)
{
    const char *set = getenv("CUGRADE_NVCC_ARCH");
    if (set && *set)
        snprintf(g->arch, sizeof g->arch, "%s", set);
    else if (gpu_common_arch(g->arch, sizeof g->arch) == 0)
        setenv("CUGRADE_NVCC_ARCH", g->arch, 1);
    else
        snprintf(g->arch, sizeof g->arch, "native");
}

void gpu_plan(const batch_opts_t *o, gpu_plan_t *g)
{
    memset(g, 0, sizeof *g);
    if (strcmp(o->backend, "emu") == 0 || (g->ngpu = gpu_device_count()) <= 0) {
        g->ngpu = 0;
        return;
    }
    plan_arch(g);
    if (o->gpu_queue) {
        snprintf(g->queue_dir, sizeof g->queue_dir, "%s", o->gpu_queue);
        return;
    }
    snprintf(g->queue_dir, sizeof g->queue_dir, "%s/.gpu-queue", o->out_dir);
    for (int gpu = 0; gpu < GPU_HOLDS_MAX_GPUS; gpu++) { /* its log is this batch's alone */
        char log[PATH_MAX + 32];
        snprintf(log, sizeof log, "%s/gpu%d.holds", g->queue_dir, gpu);
        unlink(log);
    }
}

/* Worker w's children run on GPU w % ngpu, seeing only that one, and are told
 * so ($CUGRADE_GPU_COUNT=1: no child starts the driver to count again). */
void gpu_assign(job_t *j, int worker, int ngpu)
{
    if (ngpu <= 0)
        return;
    snprintf(j->gpu_arg, sizeof j->gpu_arg, "%d", worker % ngpu);
    char dev[128];
    batch_visible_gpu(worker % ngpu, dev, sizeof dev); /* a Slurm task's GPU is not "0" */
    snprintf(j->gpu_env, sizeof j->gpu_env, "CUDA_VISIBLE_DEVICES=%s", dev);
    snprintf(j->queue_label, sizeof j->queue_label, "CUGRADE_QUEUE_LABEL=%s", j->id);
    j->env[1] = j->gpu_env;
    j->env[2] = j->queue_label;
    j->env[3] = "CUGRADE_GPU_COUNT=1";
    j->env[4] = NULL;
}
