/* block0_only.cu - lab dotprod test submission: a correct kernel and grid,
 * but the launch function returns 1 instead of the number of blocks:
 *
 *     dotProductShared<<<blocks, BLOCK_SIZE>>>(...);
 *     return 1;   // BUG: should be blocks
 *
 * The harness copies back only partial[0], block 0's sum of the first 256
 * products; the other blocks' sums are written but never read.
 * Expected verdict: compiles; passes the datasets with n <= 256 (one block:
 * n = 1, 255, 256) and fails every longer one with a wrong sum (not a NaN,
 * no partial never written); a hint in the spirit of "1 partial sum returned
 * for n elements: the launch function must return the number of blocks".
 * Every check passes (the kernel itself is right). */

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
    return 1; /* BUG: the harness reads only partial[0] */
}
