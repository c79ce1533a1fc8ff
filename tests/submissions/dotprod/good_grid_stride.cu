/* good_grid_stride.cu - lab dotprod test submission: correct, with another
 * design than the handout's. The grid is at most 1024 blocks whatever n;
 * each thread first walks the vectors with a grid-stride loop, adding its
 * products in a register:
 *
 *     for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
 *         sum += A[i] * B[i];
 *
 * then the block reduces the BLOCK_SIZE register sums with the usual tree in
 * shared memory and thread 0 stores partial[blockIdx.x]. It returns its grid
 * size: min(ceil(n / BLOCK_SIZE), 1024).
 * Expected verdict: every dataset passes, and every check (race-free,
 * barriers-uniform, memory-safe, uses-shared-memory). Its accuracy: each
 * thread adds up to ceil(n / 262144) products in float (65 at n = 2^24 + 1)
 * before the tree. The worst-case bound of such a chain is above the
 * tolerance, but rounding errors do not all go one way: on the emulator the
 * error at 2^24 + 1 (values of one sign) was 0.06 against a tolerance of 113,
 * and even a grid of 32 blocks (2049 products per thread) stayed at 11. */

#define BLOCK_SIZE 256
#define MAX_BLOCKS 1024

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float sums[BLOCK_SIZE];
    const unsigned int tid = threadIdx.x;

    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
        sum += A[i] * B[i];
    sums[tid] = sum;
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            sums[tid] += sums[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = sums[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return blocks;
}
