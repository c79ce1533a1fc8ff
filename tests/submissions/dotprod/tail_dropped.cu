/* tail_dropped.cu - lab dotprod test submission: a correct kernel launched
 * on a grid computed with plain division instead of ceiling division:
 *
 *     int blocks = n / BLOCK_SIZE;   // BUG: rounds down
 *
 * The elements past the last full block (n % 256 of them) get no block, so
 * their products are missing from the sum; the count returned is that same
 * grid size, so no partial sum is left unwritten. For n < 256 the grid has
 * 0 blocks, which the runtime refuses (cudaErrorInvalidValue, "grid (0,1,1)
 * has a zero dimension", on the emulator; the same error on an H100): the
 * driver exits with status 3, no output.
 * Expected verdict: compiles; n = 1 and 255 fail with the CUDA launch error;
 * n = 256 passes; n = 257, 1000, 10000 and 65537 fail with a wrong sum (off
 * by the last n % 256 products), none never written. The longest datasets
 * lose only 3 (2^20 + 3) or 1 (2^24 + 1) product of at most 4 or 16, while
 * the tolerance there is about 1.5 to 6 and 28 to 113: on the emulator, with
 * values k/10 (same sign) and k/10 - 2 (signed), 2^24 + 1 passes both ways
 * and 2^20 + 3 passes the signed one; only a dataset whose last elements
 * are large makes them fail. Every check passes on the datasets that run. */

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
    const int blocks = n / BLOCK_SIZE; /* BUG: rounds down */
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return blocks;
}
