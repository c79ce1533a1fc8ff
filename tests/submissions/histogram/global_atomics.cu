/* global_atomics.cu - lab histogram test submission: right, but not
 * privatized: every thread adds its element straight to the global bins
 * with atomicAdd, so the threads of all blocks contend for 256 addresses.
 * Expected verdict: every dataset passes; uses-shared-memory fails, naming
 * the global atomics and privatization (failure key global-atomics). */
#define NUM_BINS 256
#define BLOCK_SIZE 256

__global__ void histogramGlobal(const unsigned int *input, unsigned int *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[input[i]], 1u);
}

void launchHistogram(const unsigned int *deviceInput, unsigned int *deviceBins, int n)
{
    cudaMemset(deviceBins, 0, NUM_BINS * sizeof(unsigned int));
    histogramGlobal<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(deviceInput, deviceBins, n);
}
