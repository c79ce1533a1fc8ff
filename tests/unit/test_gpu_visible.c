/* test_gpu_visible.c - the GPU a batch worker's children are shown: the
 * worker's entry of the batch's own CUDA_VISIBLE_DEVICES (a Slurm task given
 * GPU 3 must not hand its children GPU 0), else the worker's index; and
 * that GPU's device file, from the NVIDIA driver's information. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "batch/batch_job.h"
#include "batch/gpu_plan.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>

static const char *shown(const char *visible, int index)
{
    static char buf[128];
    if (visible)
        setenv("CUDA_VISIBLE_DEVICES", visible, 1);
    else
        unsetenv("CUDA_VISIBLE_DEVICES");
    batch_visible_gpu(index, buf, sizeof buf);
    return buf;
}

Test(gpu_visible, the_batchs_own_list_is_followed)
{
    cr_assert_str_eq(shown("3", 0), "3");
    cr_assert_str_eq(shown("5,7", 0), "5");
    cr_assert_str_eq(shown("5,7", 1), "7");
    cr_assert_str_eq(shown("GPU-8f6c1a2b-0d4e-4c1f-9a7b-123456789abc,GPU-1", 0),
                     "GPU-8f6c1a2b-0d4e-4c1f-9a7b-123456789abc");
}

Test(gpu_visible, without_a_list_the_index_is_the_gpu)
{
    cr_assert_str_eq(shown(NULL, 0), "0");
    cr_assert_str_eq(shown(NULL, 3), "3");
    cr_assert_str_eq(shown("", 2), "2");
    cr_assert_str_eq(shown("4", 1), "1", "past the list's end: the index");
    cr_assert_str_eq(shown("4,,6", 1), "1", "an empty entry: the index");
}

/* A fake <proc>/driver/nvidia/gpus/<id>/information with the given text. */
static void fake_gpu(const char *proc, const char *dir_id, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/driver/nvidia/gpus/%s", proc, dir_id);
    cr_assert_eq(mkdir_p(path, NULL, 0), 0);
    strcat(path, "/information");
    cr_assert_eq(write_file_atomic(path, text, strlen(text), NULL, 0), 0);
}

Test(gpu_visible, the_device_file_comes_from_the_drivers_information)
{
    char proc[] = "/tmp/cugrade-proc-XXXXXX", node[64] = "";
    cr_assert_not_null(mkdtemp(proc));
    fake_gpu(proc, "0000:1b:00.0",
             "Model: \t\t NVIDIA H200\nGPU UUID: \t GPU-1810b632\nBus Location: \t 0000:1b:00.0\n"
             "Device Minor: \t 2\nGPU Excluded:\t No\n");
    fake_gpu(proc, "0000:9a:00.0", "Model: \t\t NVIDIA H200\nNo minor here\n");
    /* the CUDA driver writes the id in upper case, the NVIDIA driver's folder is lower case */
    cr_assert_eq(gpu_device_node(proc, "0000:1B:00.0", node, sizeof node), 0);
    cr_assert_str_eq(node, "/dev/nvidia2");
    cr_assert_eq(gpu_device_node(proc, "00000000:1b:00.0", node, sizeof node), 0, "8-digit domain");
    cr_assert_str_eq(node, "/dev/nvidia2");
    snprintf(node, sizeof node, "unchanged");
    cr_assert_eq(gpu_device_node(proc, "0000:9A:00.0", node, sizeof node), -1, "no minor line");
    cr_assert_eq(gpu_device_node(proc, "0000:3C:00.0", node, sizeof node), -1, "no such GPU");
    cr_assert_eq(gpu_device_node(proc, "1B:00", node, sizeof node), -1, "malformed id");
    cr_assert_eq(gpu_device_node(proc, "0000:1B:00.0/../x", node, sizeof node), -1, "malformed id");
    cr_assert_str_eq(node, "unchanged");
    rm_rf(proc);
}

/* A job's command line as prepare_job leaves it for two GPUs to choose from. */
static void job_with_two_choice_slots(job_t *j)
{
    memset(j, 0, sizeof *j);
    snprintf(j->id, sizeof j->id, "ann");
    snprintf(j->student, sizeof j->student, "/subs/ann");
    char **a = j->argv;
    int n = 0;
    a[n++] = "cugrade", a[n++] = "run";
    j->choice_at = n + 1;
    a[n++] = "--gpu-choice", a[n++] = "", a[n++] = "--gpu-choice", a[n++] = "";
    a[n++] = j->student;
    a[n] = NULL;
}

static int env_has(const job_t *j, const char *prefix)
{
    for (int i = 1; j->env[i]; i++)
        if (strncmp(j->env[i], prefix, strlen(prefix)) == 0)
            return 1;
    return 0;
}

Test(gpu_visible, a_child_that_chooses_is_offered_every_gpu)
{
    gpu_plan_t g = {.ngpu = 2, .choose = 1, .node = {"/dev/nvidia5", "/dev/nvidia7"}};
    gpu_offer_t offer[2] = {{1, "/out/.perf-baseline/gpu0.report"}, {1, ""}};
    job_t *j = calloc(1, sizeof *j);
    job_with_two_choice_slots(j);
    setenv("CUDA_VISIBLE_DEVICES", "5,7", 1); /* a Slurm task's two GPUs */
    gpu_assign(j, 3, &g, offer);
    cr_assert_str_eq(j->gpu_arg, "1", "worker 3's home is GPU 3 %% 2");
    cr_assert_str_eq(j->argv[3], "0:5:/dev/nvidia5:/out/.perf-baseline/gpu0.report");
    cr_assert_str_eq(j->argv[5], "1:7:/dev/nvidia7:", "no baseline on GPU 1");
    cr_assert_str_eq(j->argv[6], "/subs/ann");
    cr_assert(!env_has(j, "CUDA_VISIBLE_DEVICES=") && !env_has(j, "CUGRADE_GPU_NODE="),
              "the child sets its GPU itself once it has chosen");
    cr_assert(env_has(j, "CUGRADE_GPU_COUNT=1") && env_has(j, "CUGRADE_QUEUE_LABEL=ann"));
    free(j->choices);
    free(j);
}

Test(gpu_visible, a_gpu_whose_baseline_is_still_to_come_is_not_offered)
{
    gpu_plan_t g = {.ngpu = 2, .choose = 1};
    gpu_offer_t offer[2] = {{0, ""}, {1, "/b1"}};
    job_t *j = calloc(1, sizeof *j);
    job_with_two_choice_slots(j);
    unsetenv("CUDA_VISIBLE_DEVICES");
    gpu_assign(j, 1, &g, offer);
    cr_assert_str_eq(j->argv[3], "1:1::/b1");
    cr_assert_str_eq(j->argv[4], "/subs/ann", "the unused slot is cut off");
    cr_assert_null(j->argv[5]);
    cr_assert(!env_has(j, "CUDA_VISIBLE_DEVICES="));
    free(j->choices);
    free(j);
}

Test(gpu_visible, a_gpu_that_cannot_be_written_as_a_choice_gives_the_fixed_one)
{
    gpu_plan_t g = {.ngpu = 2, .choose = 1};
    gpu_offer_t offer[2] = {{1, ""}, {1, ""}};
    job_t *j = calloc(1, sizeof *j);
    job_with_two_choice_slots(j);
    setenv("CUDA_VISIBLE_DEVICES", "GPU-a:b,GPU-c", 1); /* a colon: it would not read back */
    gpu_assign(j, 1, &g, offer);
    cr_assert_str_eq(j->argv[2], "/subs/ann", "the choices are cut off");
    cr_assert_null(j->argv[3]);
    cr_assert(env_has(j, "CUDA_VISIBLE_DEVICES=GPU-c"), "worker 1's GPU, as without choosing");
    free(j->choices);
    free(j);
    j = calloc(1, sizeof *j); /* nothing to offer with (no memory): the same */
    job_with_two_choice_slots(j);
    gpu_assign(j, 1, &g, NULL);
    cr_assert_str_eq(j->argv[2], "/subs/ann");
    cr_assert(env_has(j, "CUDA_VISIBLE_DEVICES=GPU-c"));
    free(j);
}
