/* dp_interleaved_no_sync.cu - the interleaved-addressing tree (stride 1, 2, 4, ... with tid % (2*stride) == 0), its barrier left out of the loop
 * bug: there is no __syncthreads() inside the stride loop, so a thread adds partner sums from the previous step before the partner has stored them; fix: __syncthreads() at the end of every step, outside the if.
 * expect: race
 */
#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float sm[BLOCK_SIZE];
    unsigned int tid = threadIdx.x;
    unsigned int gid = blockIdx.x * blockDim.x + tid;
    sm[tid] = gid < n ? A[gid] * B[gid] : 0.0f;
    __syncthreads();

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0)
            sm[tid] += sm[tid + stride];
    }
    if (tid == 0)
        partial[blockIdx.x] = sm[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int g = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    dotProductShared<<<g, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return g;
}
