/* float_ceil_grid.cu - the reference with its grid computed in float, as
 * students often write it: ceil(1.f * n / BLOCK_SIZE). Right for every n a
 * float holds exactly (up to 2^24); at n = 2^24 + 1 the float is 2^24, the
 * grid one block short, and the last element is never read, which the sum
 * hides within its tolerance. The executor sees the unread input
 * (tests/e2e/test_launch_hints.c).
 *
 * From the reference:
 *
 * A and B are n floats each in device memory (any n >= 1; the harness checks
 * every CUDA error, so this file checks nothing itself). Block b multiplies
 * the elements b*BLOCK_SIZE .. b*BLOCK_SIZE + BLOCK_SIZE - 1 pairwise (0 past
 * n), stores the products in shared memory, halves the number of active
 * threads at every step of the tree until partial[b] = the sum of its
 * BLOCK_SIZE products; the harness sums the partials on the host. The grid
 * has ceil(n / BLOCK_SIZE) blocks, and launchDotProduct returns that count. */

#define BLOCK_SIZE 256 /* threads per block: a power of two, for the tree */

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float products[BLOCK_SIZE];

    const unsigned int tid = threadIdx.x;
    const int i = blockIdx.x * BLOCK_SIZE + tid;

    /* Every thread stores one product, 0 past the end of the vectors, so the
     * tree below always reduces BLOCK_SIZE values. */
    products[tid] = i < n ? A[i] * B[i] : 0.0f;
    __syncthreads(); /* every product is stored before any thread adds it */

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            products[tid] += products[tid + stride];
        /* Outside the if: the whole block reaches it. Nobody starts the next
         * step before every sum of this one is stored. */
        __syncthreads();
    }

    if (tid == 0)
        partial[blockIdx.x] = products[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    const int blocks = (int)ceil(1.f * n / BLOCK_SIZE);
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return blocks;
}
