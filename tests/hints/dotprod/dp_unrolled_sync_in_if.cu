/* dp_unrolled_sync_in_if.cu - the tree unrolled by hand for 256 threads ("reduction #6"), each step's barrier written inside that step's if
 * bug: if (tid < 128) { s[tid] += s[tid + 128]; __syncthreads(); } and the like put every barrier where only part of the block reaches it; fix: close the if before each __syncthreads().
 * expect: barrier-divergence race
 */
#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float s[BLOCK_SIZE];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * BLOCK_SIZE + tid;
    s[tid] = (i < n) ? A[i] * B[i] : 0.0f;
    __syncthreads();

    if (tid < 128) { s[tid] += s[tid + 128]; __syncthreads(); }
    if (tid < 64)  { s[tid] += s[tid + 64];  __syncthreads(); }
    if (tid < 32)  { s[tid] += s[tid + 32];  __syncthreads(); }
    if (tid < 16)  { s[tid] += s[tid + 16];  __syncthreads(); }
    if (tid < 8)   { s[tid] += s[tid + 8];   __syncthreads(); }
    if (tid < 4)   { s[tid] += s[tid + 4];   __syncthreads(); }
    if (tid < 2)   { s[tid] += s[tid + 2];   __syncthreads(); }
    if (tid < 1)   { s[tid] += s[tid + 1]; }

    if (tid == 0)
        partial[blockIdx.x] = s[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int nb = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    dotProductShared<<<nb, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return nb;
}
