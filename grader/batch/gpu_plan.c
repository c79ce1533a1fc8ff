/* gpu_plan.c - how a batch's children use the machine's GPUs: counted and
 * asked their architecture and bus ids once, in the batch, so that no child
 * starts the CUDA driver for that; worker w's children see GPU w % ngpu alone. */
#include "batch/gpu_plan.h"
#include "batch/gpu_visible.h"
#include "build/backend.h"
#include "run/gpu_choice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* nvcc's -arch, from the devices the driver was asked for once for the
 * whole batch, handed to every child ($CUGRADE_NVCC_ARCH), unless the TA set
 * it: with "native", each of a submission's nvcc runs starts the CUDA driver
 * itself, and on a host with several GPUs those starts queue behind one
 * another. "native" when the devices differ. */
static void plan_arch(gpu_plan_t *g, const gpu_device_t *dev, int n)
{
    const char *set = getenv("CUGRADE_NVCC_ARCH");
    int same = n > 0;
    for (int k = 1; k < n; k++)
        same = same && dev[k].cc == dev[0].cc;
    if (set && *set)
        snprintf(g->arch, sizeof g->arch, "%s", set);
    else if (same) {
        snprintf(g->arch, sizeof g->arch, "sm_%d", dev[0].cc);
        setenv("CUGRADE_NVCC_ARCH", g->arch, 1);
    } else
        snprintf(g->arch, sizeof g->arch, "native");
}

/* Each GPU's device file, for the children's sandbox (run/sandbox.h): from
 * its bus id (the devices in the CUDA driver's order) and the NVIDIA
 * driver's information. None for MIG instances, which share their GPU's,
 * nor with CUGRADE_GPU_NODES=all (every child shown every GPU's file, as
 * before: to compare, or for a host where one file is not enough). */
static void plan_nodes(gpu_plan_t *g, const gpu_device_t *dev, int n)
{
    const char *visible = getenv("CUDA_VISIBLE_DEVICES"), *nodes = getenv("CUGRADE_GPU_NODES");
    if ((visible && strstr(visible, "MIG-")) || (nodes && strcmp(nodes, "all") == 0) ||
        n != g->ngpu || n > GPU_HOLDS_MAX_GPUS)
        return;
    g->isolated = 1;
    for (int k = 0; k < g->ngpu; k++)
        if (gpu_device_node("/proc", dev[k].bus_id, g->node[k], sizeof g->node[k]) != 0) {
            g->node[k][0] = '\0';
            g->isolated = 0;
        }
}

void gpu_plan(const batch_opts_t *o, gpu_plan_t *g)
{
    memset(g, 0, sizeof *g);
    if (!batch_may_use_gpu(o))
        return;
    gpu_device_t dev[GPU_DEVICES_MAX];
    int n = gpu_devices(dev, GPU_DEVICES_MAX); /* the one probe: count, architecture, bus ids */
    if (!gpu_count_forced(&g->ngpu))
        g->ngpu = n;
    if (g->ngpu <= 0) {
        g->ngpu = 0;
        return;
    }
    plan_arch(g, dev, n);
    plan_nodes(g, dev, n);
    g->native_timing = strcmp(o->backend, "native") == 0 || /* auto: as the children will choose */
                       (strcmp(o->backend, "auto") == 0 && !backend_executor_chosen(o->root, g->ngpu));
    const char *how = getenv("CUGRADE_GPU_CHOICE"); /* opt-in: docs/benchmarks.md */
    g->choose = g->ngpu > 1 && g->ngpu <= GPU_CHOICES_MAX && how && strcmp(how, "fewest") == 0;
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

/* Keeps the first n of j's --gpu-choice slots: the student's path, last,
 * moves up over the others. */
static void keep_choices(job_t *j, int n)
{
    j->argv[j->choice_at - 1 + 2 * n] = j->student;
    j->argv[j->choice_at + 2 * n] = NULL;
}

/* Every GPU offered as a --gpu-choice argument of j, in the slots
 * prepare_job left (the student's path, last, moves up over those unused);
 * -1, with every slot cut off, when one cannot be written. */
static int offer_gpus(job_t *j, const gpu_plan_t *g, const gpu_offer_t *offer)
{
    free(j->choices);
    j->choices = calloc((size_t)g->ngpu, GPU_CHOICE_TEXT);
    int ok = j->choices != NULL, m = 0;
    for (int k = 0; k < g->ngpu && ok; k++) {
        if (!offer[k].offered)
            continue;
        gpu_choice_t c = {.index = k};
        batch_visible_gpu(k, c.visible, sizeof c.visible);
        snprintf(c.node, sizeof c.node, "%s", g->node[k]);
        snprintf(c.baseline, sizeof c.baseline, "%s", offer[k].baseline);
        char *text = j->choices + (size_t)m * GPU_CHOICE_TEXT;
        ok = gpu_choice_format(&c, text, GPU_CHOICE_TEXT) == 0;
        j->argv[j->choice_at + 2 * m++] = text;
    }
    keep_choices(j, ok ? m : 0);
    return ok && m > 0 ? 0 : -1;
}

/* Worker w's children run on GPU w % ngpu, seeing only that one (its device
 * file alone, where known: $CUGRADE_GPU_NODE), and are told so
 * ($CUGRADE_GPU_COUNT=1: no child starts the driver to count again). With
 * g->choose, the child sets those itself once it has taken its GPU. */
void gpu_assign(job_t *j, int worker, const gpu_plan_t *g, const gpu_offer_t *offer)
{
    if (g->ngpu <= 0)
        return;
    int gpu = worker % g->ngpu;
    snprintf(j->gpu_arg, sizeof j->gpu_arg, "%d", gpu);
    snprintf(j->baseline, sizeof j->baseline, "%s", offer ? offer[gpu].baseline : "");
    snprintf(j->queue_label, sizeof j->queue_label, "CUGRADE_QUEUE_LABEL=%s", j->id);
    int n = 1;
    j->env[n++] = j->queue_label;
    j->env[n++] = "CUGRADE_GPU_COUNT=1";
    if (g->choose && offer && offer_gpus(j, g, offer) == 0) {
        j->env[n] = NULL;
        return;
    }
    if (g->choose && !offer)
        keep_choices(j, 0);
    char dev[128];
    batch_visible_gpu(gpu, dev, sizeof dev); /* a Slurm task's GPU is not "0" */
    snprintf(j->gpu_env, sizeof j->gpu_env, "CUDA_VISIBLE_DEVICES=%s", dev);
    j->env[n++] = j->gpu_env;
    if (gpu < GPU_HOLDS_MAX_GPUS && g->node[gpu][0]) {
        snprintf(j->node_env, sizeof j->node_env, "CUGRADE_GPU_NODE=%s", g->node[gpu]);
        j->env[n++] = j->node_env;
    }
    j->env[n] = NULL;
}
