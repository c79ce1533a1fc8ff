/* atomic_global.cu - lab dotprod test submission: no reduction in shared
 * memory; every thread adds its product straight into partial[0] with a
 * global atomicAdd, after the launch function zeroed it:
 *
 *     cudaMemset(devicePartial, 0, sizeof(float));
 *     ... atomicAdd(&partial[0], A[i] * B[i]);   return 1;
 *
 * (Without the memset every atomicAdd would add to the harness's poison, a
 * NaN, and the sum would be NaN.) The answer is right up to rounding, but
 * the adds form one long float chain, in whatever order the atomics land:
 * the error bound of a sequential sum, about n * 2^-24 * sum|a_i b_i| (see
 * sequential_sum.cu), and n atomics serialised on one address on a GPU.
 * Expected verdict: compiles; fails uses-shared-memory; no other finding
 * (atomics do not race, and the memset counts as initialising partial[0]).
 * The emulator runs the atomics in index order, so the sums are exactly
 * sequential_sum.cu's: with values of one sign, 10000 and longer fail; with
 * both signs, everything passes. On a GPU the order changes from run to
 * run; on an H100, 2^24 + 1 with one sign was off by 1.8e6, and at n = 2^26
 * it reached 4.6 GB/s against the reference's 1650 (the atomics on one
 * address serialise). */

#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    const int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
    if (i < n)
        atomicAdd(&partial[0], A[i] * B[i]);
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    cudaMemset(devicePartial, 0, sizeof(float));
    const int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return 1;
}
