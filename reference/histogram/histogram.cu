/* histogram.cu - lab histogram reference solution: the counts of n values
 * (each 0 to NUM_BINS - 1) in NUM_BINS bins.
 *
 * Privatization (PMPP 9.4): each block counts into its own copy of the bins
 * in shared memory, with shared-memory atomics (cheap, and contended only
 * within the block), its threads striding over the input; then it adds its
 * copy into the global bins, one global atomic per bin and block. The launch
 * function zeroes the global bins first: the output's memory holds garbage. */

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
        atomicAdd(&local[input[i]], 1u);
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
