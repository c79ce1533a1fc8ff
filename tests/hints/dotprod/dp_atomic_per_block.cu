/* dp_atomic_per_block.cu - no shared memory: thread 0 zeroes the block's slot, then every thread atomicAdds its product into partial[blockIdx.x]
 * bug: the block's sum is a chain of 256 global atomicAdds (one per element) instead of a tree in shared memory: the lab's reduction is missing, and the atomics serialise on one address; fix: stage the products in a __shared__ array and reduce them with the halving tree.
 * expect: untiled sequential-float global-atomics
 */
#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        partial[blockIdx.x] = 0.0f;
    __syncthreads();
    if (i < n)
        atomicAdd(&partial[blockIdx.x], A[i] * B[i]);
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return blocks;
}
