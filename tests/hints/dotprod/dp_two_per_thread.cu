/* dp_two_per_thread.cu - "first add during load": 128 threads per block each multiply two elements, i and i + blockDim.x, before the tree
 * bug: the guard tests only the first index, (i < n), so in the last block the second load A[i + blockDim.x] * B[i + blockDim.x] runs past the end of the vectors; fix: guard each of the two products on its own index.
 * expect: global-oob
 */
#define THREADS 128

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float sdata[THREADS];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + tid;

    float v = 0.0f;
    if (i < n)
        v = A[i] * B[i] + A[i + blockDim.x] * B[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int blocks = (n + 2 * THREADS - 1) / (2 * THREADS);
    dotProductShared<<<blocks, THREADS>>>(deviceA, deviceB, devicePartial, n);
    return blocks;
}
