/* dp_tree_break.cu - a tree whose idle threads leave the loop with break once they have nothing left to add
 * bug: if (tid >= stride) break; takes the upper threads out of the loop, and with them out of the __syncthreads() the lower threads still wait at; fix: keep all threads in the loop and only guard the addition with if (tid < stride).
 * expect: barrier-divergence
 */
#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float vals[BLOCK_SIZE];
    int tid = threadIdx.x;
    int idx = blockIdx.x * BLOCK_SIZE + tid;
    vals[tid] = (idx < n) ? A[idx] * B[idx] : 0.0f;
    __syncthreads();
    for (int stride = BLOCK_SIZE / 2; stride > 0; stride /= 2) {
        if (tid >= stride)
            break; /* nothing left for this thread */
        vals[tid] += vals[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = vals[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return blocks;
}
