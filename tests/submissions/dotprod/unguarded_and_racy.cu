/* unguarded_and_racy.cu - lab dotprod test submission with two bugs: the
 * loads are not guarded (the last block reads A[i] and B[i] past n), and
 * the tree has no barrier (a race on products):
 *
 *     products[tid] = A[i] * B[i];   // BUG: no i < n check
 *     for (...) { if (tid < stride) products[tid] += products[tid + stride]; }
 *                                    // BUG: no __syncthreads()
 *
 * Expected diagnostics: `global-oob` reads of A and B past their end where n
 * is not a multiple of 256, and `race` on products on every n > 1.
 * Expected verdict: where a sum is NaN (the red zones' NaN read past n) the
 * likely cause is the access outside an array, not the race: a race only
 * reorders finite values (issue 40, item 1). Where no read falls outside
 * (n a multiple of 256) the sums are finite and wrong, and the race is the
 * cause. */

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
        /* BUG: no __syncthreads(): the next step reads sums not yet made */
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
