/* memoizes_dot_product.cu - attack (dotprod): a correct tree reduction whose
 * launch function keeps the partial sums it computed and, called again with
 * the same vectors (the same pointers and length), copies them back instead
 * of reading the vectors: a copy of a few thousand floats in place of a pass
 * over 2 n. Every dataset is a first call, so every dataset passes.
 *
 * Expected verdict: the timing program makes the vectors anew for every
 * round (labs/common/timing.h, fresh inputs) and checks each round's sum
 * against that round's exact dot product: every copied sum is wrong, and
 * the performance test gets no points. */
#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float products[BLOCK_SIZE];
    const unsigned int tid = threadIdx.x;
    const int i = blockIdx.x * BLOCK_SIZE + tid;
    products[tid] = i < n ? A[i] * B[i] : 0.0f;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            products[tid] += products[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = products[0];
}

static const float *keptA, *keptB;
static int keptN, keptBlocks;
static float *kept;

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    const int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    if (kept && deviceA == keptA && deviceB == keptB && n == keptN) {
        cudaMemcpyAsync(devicePartial, kept, keptBlocks * sizeof(float), cudaMemcpyDeviceToDevice, 0);
        return keptBlocks;
    }
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    cudaFree(kept);
    kept = NULL;
    if (cudaMalloc((void **)&kept, blocks * sizeof(float)) != cudaSuccess)
        return blocks;
    cudaMemcpyAsync(kept, devicePartial, blocks * sizeof(float), cudaMemcpyDeviceToDevice, 0);
    keptA = deviceA;
    keptB = deviceB;
    keptN = n;
    keptBlocks = blocks;
    return blocks;
}
