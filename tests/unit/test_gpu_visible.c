/* test_gpu_visible.c - the GPU a batch worker's children are shown: the
 * worker's entry of the batch's own CUDA_VISIBLE_DEVICES (a Slurm task given
 * GPU 3 must not hand its children GPU 0), else the worker's index; and
 * that GPU's device file, from the NVIDIA driver's information. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "batch/batch_job.h"
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
