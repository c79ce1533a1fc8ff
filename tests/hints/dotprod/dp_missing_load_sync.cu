/* dp_missing_load_sync.cu - careful tree with its barrier, but no barrier between storing the products and the first step
 * bug: the first tree step (stride 128) reads products[tid + 128] that thread tid + 128 may not have stored yet; fix: __syncthreads() right after the store of the products.
 * expect: race
 */
#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float partialSum[BLOCK_SIZE];
    unsigned int t = threadIdx.x;
    unsigned int start = blockIdx.x * BLOCK_SIZE;

    partialSum[t] = (start + t < n) ? A[start + t] * B[start + t] : 0.0f;

    for (unsigned int stride = BLOCK_SIZE / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            partialSum[t] += partialSum[t + stride];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = partialSum[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return blocks;
}
