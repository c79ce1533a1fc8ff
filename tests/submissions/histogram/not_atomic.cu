/* not_atomic.cu - lab histogram test submission: the block's threads
 * increment the shared bins with ++, not atomicAdd. Expected verdict: the
 * counts come out short wherever threads of a block hit the same bin at
 * once (the skewed datasets most), and race-free fails; the hint names the
 * lost counts and atomicAdd. */
#define NUM_BINS 256
#define BLOCK_SIZE 256
#define MAX_BLOCKS 120

__global__ void histogramPrivate(const unsigned int *input, unsigned int *bins, int n)
{
    __shared__ unsigned int local[NUM_BINS];
    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        local[input[i]]++; /* BUG: not atomic */
    __syncthreads();
    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x)
        if (local[b])
            atomicAdd(&bins[b], local[b]);
}

void launchHistogram(const unsigned int *deviceInput, unsigned int *deviceBins, int n)
{
    cudaMemset(deviceBins, 0, NUM_BINS * sizeof(unsigned int));
    int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    histogramPrivate<<<blocks < MAX_BLOCKS ? blocks : MAX_BLOCKS, BLOCK_SIZE>>>(deviceInput, deviceBins, n);
}
