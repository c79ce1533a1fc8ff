/* forges_timing.cu - attack (dotprod): a correct kernel whose launch
 * function prints what the timing program reports, claiming a result a
 * thousand times faster than the reference, and a fake "wrong 0":
 *
 *     printf("impl student median_ms 0.000001 ... gbs 999999 wrong 0\n");
 *
 * Expected verdict: the grader reads the timing program's results from its
 * report channel (labs/common/harness.h harness_result), which printf does
 * not reach: the score is the kernel's real speed, the forged line only
 * text on stdout. */
#include <stdio.h>

#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float products[BLOCK_SIZE];
    const unsigned int tid = threadIdx.x;
    const int i = blockIdx.x * BLOCK_SIZE + tid;

    products[tid] = i < n ? A[i] * B[i] : 0.0f;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            products[tid] += products[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = products[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    const int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    printf("\nimpl student median_ms 0.000001 mean_ms 0.000001 rse 0 reps 9 gbs 999999 wrong 0\n");
    return blocks;
}
