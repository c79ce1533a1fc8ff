/* dp_return_past_n.cu - threads past the end of the vectors return at the top of the kernel, as in a vector-add kernel
 * bug: if (i >= n) return; makes the idle threads of the last block skip storing their 0 and the tree's __syncthreads(); the rest of the block waits at barriers they never reach and adds shared slots nobody wrote; fix: store 0 for i >= n and keep every thread in the tree.
 * expect: barrier-divergence uninit-shared
 */
#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float prod[BLOCK_SIZE];
    int tx = threadIdx.x;
    int i = blockIdx.x * BLOCK_SIZE + tx;
    if (i >= n)
        return;

    prod[tx] = A[i] * B[i];
    __syncthreads();
    for (int stride = BLOCK_SIZE / 2; stride > 0; stride /= 2) {
        if (tx < stride)
            prod[tx] += prod[tx + stride];
        __syncthreads();
    }
    if (tx == 0)
        partial[blockIdx.x] = prod[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int numBlocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    dotProductShared<<<numBlocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return numBlocks;
}
