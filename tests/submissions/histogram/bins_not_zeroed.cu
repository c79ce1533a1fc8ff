/* bins_not_zeroed.cu - lab histogram test submission: the launch function
 * never zeroes the global bins, so the counts are added to whatever the
 * output's memory held (the harness's poison: every bit set). Expected
 * verdict: every dataset fails; a bin no value fell into was never written
 * (still the poison), the others hold poison + count. */
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
    int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    histogramPrivate<<<blocks < MAX_BLOCKS ? blocks : MAX_BLOCKS, BLOCK_SIZE>>>(deviceInput, deviceBins, n);
}
