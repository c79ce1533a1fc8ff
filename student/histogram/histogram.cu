/* histogram.cu - lab histogram: count n values (0 to NUM_BINS - 1) into
 * NUM_BINS bins, each block in a private copy in shared memory. The handout
 * is labs/histogram/README.md; `make grade LAB=histogram` grades it. */

#define NUM_BINS 256
#define BLOCK_SIZE 256
#define MAX_BLOCKS 120

__global__ void histogramPrivate(const unsigned int *input, unsigned int *bins, int n)
{
    //@@ zero a shared copy of the bins, count this block's share of the input into it with
    //@@ atomicAdd (threads striding over the input), then add the copy into bins
}

void launchHistogram(const unsigned int *deviceInput, unsigned int *deviceBins, int n)
{
    //@@ zero deviceBins (cudaMemset), then launch at most MAX_BLOCKS blocks of BLOCK_SIZE threads
}
