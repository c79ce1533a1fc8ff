/* missing_barrier.cu - lab dotprod test submission: the tree without its
 * barrier:
 *
 *     for (stride = blockDim.x / 2; stride > 0; stride /= 2) {
 *         if (tid < stride) products[tid] += products[tid + stride];
 *         // BUG: no __syncthreads() here
 *     }
 *
 * A thread of step k reads the element a thread of step k - 1 is still to
 * write (or has not written yet): a race on products in every block.
 * Expected diagnostics (emucc --checks): `race` on products on every n, e.g.
 * "Race on shared products (element 1, byte offset 4) ...: thread (1,0,0) of
 * block (0,0,0) writes it at missing_barrier.cu:34 while thread (0,0,0) reads
 * it at missing_barrier.cu:34 in the same barrier interval" (race-free
 * fails). Expected verdict: compiles; on the emulator, where the
 * threads of a block run one after another between barriers, thread 0 runs
 * its whole tree before any other thread has added anything, so each block's
 * sum is products 0, 128, 64, ..., 1 only: wrong for every n > 1 (n = 1
 * passes). On a GPU the warps race for real: on an H100 (perf.cu's signed
 * values, 5 reps each) it was right up to n = 65537 and wrong at 2^20 + 3
 * and 2^24 + 1, every rep: a GPU can hide this race on the short datasets.
 * The hint should be the race (likely cause: a shared-memory race). */

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
