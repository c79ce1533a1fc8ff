/* atomics_gridstride_global.cu - a fixed grid striding over the input, each element counted with atomicAdd straight into the global bins
 * bug: no privatization: every thread of every block contends for the same 256 global counters; fix: count into a __shared__ copy per block and merge it into the global bins once.
 * expect: global-atomics
 */
#define NUM_BINS 256
#define BLOCK_SIZE 512
#define GRID 64

__global__ void histogramStride(const unsigned int *input, unsigned int *bins, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[input[i]], 1u);
}

void launchHistogram(const unsigned int *deviceInput, unsigned int *deviceBins, int n)
{
    cudaMemset(deviceBins, 0, NUM_BINS * sizeof(unsigned int));
    histogramStride<<<GRID, BLOCK_SIZE>>>(deviceInput, deviceBins, n);
}
