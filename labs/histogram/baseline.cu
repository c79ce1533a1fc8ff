/* baseline.cu - lab histogram's library baseline (lab.json "baseline";
 * timed beside the reference by bench/gpu_labs.sh): CUB's
 * DeviceHistogram::HistogramEven over 256 bins of width 1 (levels 0 to
 * 256), its temporary storage kept from the first call. Never graded. */
#include <cub/device/device_histogram.cuh>
#include <stdio.h>
#include <stdlib.h>

#include "library.h"

#define NUM_BINS 256

void launchHistogram(const unsigned int *deviceInput, unsigned int *deviceBins, int n)
{
    static void *temp = NULL;
    static size_t temp_bytes = 0;
    size_t need = 0;
    unsigned int lower = 0, upper = NUM_BINS;
    BENCH_CHECK(cub::DeviceHistogram::HistogramEven(NULL, need, deviceInput, deviceBins, NUM_BINS + 1, lower, upper, n));
    if (need > temp_bytes) {
        BENCH_CHECK(cudaFree(temp));
        BENCH_CHECK(cudaMalloc(&temp, need));
        temp_bytes = need;
    }
    BENCH_CHECK(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, deviceInput, deviceBins, NUM_BINS + 1, lower,
                                                    upper, n));
}
