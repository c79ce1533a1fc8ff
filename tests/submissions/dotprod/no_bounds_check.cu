/* no_bounds_check.cu - lab dotprod test submission: the loads are not
 * guarded, so the threads of the last block past the end of the vectors
 * read A[i] and B[i] beyond n:
 *
 *     products[tid] = A[i] * B[i];   // BUG: no i < n check
 *
 * Expected diagnostics (emucc --checks): `global-oob` reads of A and B past
 * their end whenever n is not a multiple of 256, e.g. "Out-of-bounds read of
 * A ...: thread (232,0,0) of block (3,0,0) reads 4 bytes at byte offset 4000
 * (element 1000) at no_bounds_check.cu:28, 4 bytes past the end of A (4000
 * bytes)" (memory-safe fails). The checked build reads the red zones' NaN
 * pattern there, so the last block's sum is NaN.
 * Expected verdict: compiles; n = 256 passes; every other dataset fails on
 * the checked build (a NaN sum). On the plain emulator and on a GPU the sum
 * takes in whatever lies past the end: on the plain emulator 1, 257 and 10000
 * failed (a NaN, or a sum near 1e35) and 255, 1000, 65537, 2^20 + 3 and
 * 2^24 + 1 passed by luck (zeros past the end). */

#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float products[BLOCK_SIZE];
    const unsigned int tid = threadIdx.x;
    const int i = blockIdx.x * BLOCK_SIZE + tid;

    (void)n;
    products[tid] = A[i] * B[i]; /* BUG: reads past n in the last block */
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
    return blocks;
}
