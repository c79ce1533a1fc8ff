/* dp_grid_per_element.cu - grid-stride kernel (right), launched with one block per element "so that the loop never has to iterate"
 * bug: launching n blocks of 256 threads is 256 times the blocks needed: blocks past n/256 only store zeros and run the whole 8-step tree for a partial sum of 0 (16 million blocks at n = 2^24); fix: (n + 255) / 256 blocks, or a fixed grid such as 1024 with the grid-stride loop.
 * expect: oversized-grid instruction-budget
 */
#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float cache[BLOCK_SIZE];
    int tid = threadIdx.x;
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
        sum += A[i] * B[i];
    cache[tid] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (tid < s)
            cache[tid] += cache[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = cache[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int blocks = n; /* one block per element: plenty of parallelism */
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return blocks;
}
