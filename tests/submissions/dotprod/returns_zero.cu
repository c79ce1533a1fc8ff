/* returns_zero.cu - lab dotprod test submission: a correct kernel and grid,
 * but the launch function returns 0, as if it had no result to report:
 *
 *     dotProductShared<<<blocks, BLOCK_SIZE>>>(...);
 *     return 0;   // BUG: should be blocks
 *
 * Expected verdict: compiles; every dataset fails without output: the driver
 * exits with status 4 (HARNESS_EXIT_CONTRACT) and the line "cugrade:
 * launchDotProduct returned 0 partial sums; it must return how many it wrote
 * to devicePartial, from 1 to n = N". The kernel ran, so the checks see a
 * correct kernel (race-free, barriers-uniform, memory-safe, uses-shared-memory
 * all clean), though they count only once a dataset passes. */

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
    return 0; /* BUG: the number of partial sums written is blocks */
}
