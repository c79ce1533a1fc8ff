/* dp_grid_stride_return1.cu - a grid of at most 64 blocks with a grid-stride loop per thread, then the tree; the launch function returns 1
 * bug: every block writes its partial sum, but launchDotProduct returns 1, so the harness adds block 0's sum only; fix: return the number of blocks launched.
 * expect: block0-only
 */
#define BLOCK_SIZE 256
#define NUM_BLOCKS 64

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float cache[BLOCK_SIZE];
    int tid = threadIdx.x;
    float temp = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
        temp += A[i] * B[i];
    cache[tid] = temp;
    __syncthreads();

    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            cache[tid] += cache[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = cache[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    if (blocks > NUM_BLOCKS)
        blocks = NUM_BLOCKS;
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return 1; /* one result */
}
