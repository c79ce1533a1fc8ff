/* dp_ceil_intdiv_blocks.cu - reference kernel; the block count written as ceil(n / BLOCK_SIZE) with an int n
 * bug: n / BLOCK_SIZE is an int division, so ceil() gets an already truncated value: the last partial block is dropped, and n < 256 gives 0 blocks (and a return value of 0); fix: ceil(n / (float)BLOCK_SIZE) or (n + BLOCK_SIZE - 1) / BLOCK_SIZE.
 * expect: float-ceil-grid tail-dropped grid-too-small
 */
#include <math.h>

#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float s[BLOCK_SIZE];
    int tid = threadIdx.x;
    int i = blockIdx.x * BLOCK_SIZE + tid;
    s[tid] = i < n ? A[i] * B[i] : 0.0f;
    __syncthreads();
    for (int stride = BLOCK_SIZE / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = s[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int numBlocks = ceil(n / BLOCK_SIZE);
    dotProductShared<<<numBlocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return numBlocks;
}
