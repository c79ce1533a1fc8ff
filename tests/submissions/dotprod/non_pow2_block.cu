/* non_pow2_block.cu - lab dotprod test submission: BLOCK_SIZE 200, not a
 * power of two, with the tree written for powers of two:
 *
 *     #define BLOCK_SIZE 200   // BUG
 *     for (stride = blockDim.x / 2; stride > 0; stride /= 2) ...
 *
 * The strides are 100, 50, 25, 12, 6, 3, 1: after the step of stride 25 the
 * 25 live sums are s[0..24], but the next step adds only s[12..23] into
 * s[0..11], so s[24] is dropped; stride 1 adds only s[1] into s[0], so s[2]
 * (by then the sum of eight slots of the 25) is dropped too. Each block's
 * sum misses 72 of its 200 products: those of elements 2, 5, 8, ..., 23, 24,
 * 27, ... (i % 25 in {2, 5, 8, 11, 14, 17, 20, 23, 24}).
 * The grid (ceil(n / 200)) and the count are right, the accesses are safe
 * and race-free.
 * Expected verdict: compiles; n = 1 passes (one product, in s[0]); every
 * other dataset (255, 256, 257, ... 2^24 + 1) fails with a wrong sum, none
 * never written. Every check passes: only the sums tell. */

#define BLOCK_SIZE 200 /* BUG: not a power of two */

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
    return blocks;
}
