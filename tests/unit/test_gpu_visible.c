/* test_gpu_visible.c - the GPU a batch worker's children are shown: the
 * worker's entry of the batch's own CUDA_VISIBLE_DEVICES (a Slurm task given
 * GPU 3 must not hand its children GPU 0), else the worker's index. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "batch/batch_job.h"

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
