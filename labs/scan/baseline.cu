/* baseline.cu - lab scan's library baseline (lab.json "baseline"; timed
 * beside the reference by bench/gpu_labs.sh): CUB's single-pass
 * DeviceScan::InclusiveSum (decoupled look-back), its temporary storage
 * kept from the first call. Never graded: the bench's yardstick. */
#include <cub/device/device_scan.cuh>
#include <stdio.h>
#include <stdlib.h>

#include "library.h"

void launchScan(const float *deviceA, float *deviceS, int n)
{
    static void *temp = NULL;
    static size_t temp_bytes = 0;
    size_t need = 0;
    BENCH_CHECK(cub::DeviceScan::InclusiveSum(NULL, need, deviceA, deviceS, n));
    if (need > temp_bytes) {
        BENCH_CHECK(cudaFree(temp));
        BENCH_CHECK(cudaMalloc(&temp, need));
        temp_bytes = need;
    }
    BENCH_CHECK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, deviceA, deviceS, n));
}
