/* dp_block_192.cu - blocks of 192 threads ("6 warps fit the SM better"), the usual halving tree with shifts
 * bug: the tree for (s = blockDim.x >> 1; s > 0; s >>= 1) assumes a power of two: 192 -> 96 -> 48 -> 24 -> 12 -> 6 -> 3 -> 1, and at s = 3 -> 1 the third of three partial sums is never added; fix: a power-of-two block (128 or 256).
 * expect: block-not-power-of-two
 */
#define THREADS 192

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float buf[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    buf[tid] = (i < n) ? A[i] * B[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x >> 1; s > 0; s >>= 1) {
        if (tid < s)
            buf[tid] += buf[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = buf[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int grid = (n + THREADS - 1) / THREADS;
    dotProductShared<<<grid, THREADS>>>(deviceA, deviceB, devicePartial, n);
    return grid;
}
