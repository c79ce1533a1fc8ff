/* dp_warp_unrolled_no_volatile.cu - "reduction #5" from the optimisation slides: the tree stops at 32 and the last warp is unrolled without barriers, the shared array not volatile
 * bug: the unrolled last-warp steps (sdata[tid] += sdata[tid + 32] ... + 1) have no __syncwarp()/__syncthreads() between them and no volatile, so threads read partial sums their neighbours have not written yet (warp-synchronous code is not guaranteed since Volta); fix: keep the __syncthreads() tree down to stride 1, or __syncwarp() between the steps.
 * expect: race
 */
#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float sdata[BLOCK_SIZE];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    sdata[tid] = (i < n) ? A[i] * B[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        sdata[tid] += sdata[tid + 32];
        sdata[tid] += sdata[tid + 16];
        sdata[tid] += sdata[tid + 8];
        sdata[tid] += sdata[tid + 4];
        sdata[tid] += sdata[tid + 2];
        sdata[tid] += sdata[tid + 1];
    }
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return blocks;
}
