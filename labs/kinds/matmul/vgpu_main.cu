/* vgpu_main.cu - the matmul kind's program on the executor (issue 39): the
 * whole of what runs beside the student's file in the student's process.
 * It asks the executor for each call of the lab's launch function (its A,
 * B and C as device pointers, and M, K, N) and makes it; the executor reads
 * the datasets, owns A, B and C, and judges C. Nothing here reads a file,
 * compares or reports: what code in this process could forge, it does not
 * decide. Built with -DCUGRADE_LAUNCH=<lab.json "launch"> (and
 * -DCUGRADE_LAUNCH_MNK for "m-n-k"), linked with emu/vcudart/. */
#include "launch.h"

#include <cstdint>

extern "C" int cugrade_vgpu_next(uint64_t *v, int max);

void CUGRADE_LAUNCH(MATMUL_LAUNCH_PARAMS);

int main()
{
    uint64_t v[6];
    while (cugrade_vgpu_next(v, 6) == 6)
        MATMUL_LAUNCH_CALL(CUGRADE_LAUNCH, (const float *)(uintptr_t)v[0], (const float *)(uintptr_t)v[1],
                           (float *)(uintptr_t)v[2], (int)v[3], (int)v[4], (int)v[5]);
    return 0;
}
