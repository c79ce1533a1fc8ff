// host_launch.cu - a hostile lab 3 submission for the executor's tests
// (test_vgpu.cpp): its launch function launches nothing; it copies A and B
// to the host, multiplies there, and copies C to the device, where the
// lab's driver will find a right answer. The executor knows who wrote C.
#include <cuda_runtime.h>

#include <vector>

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    (void)numBRows, (void)numCRows;
    std::vector<float> a((size_t)numARows * numAColumns), b((size_t)numAColumns * numBColumns),
        c((size_t)numARows * numBColumns, 0.0f);
    cudaMemcpy(a.data(), deviceA, a.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(b.data(), deviceB, b.size() * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < numARows; i++)
        for (int j = 0; j < numCColumns; j++)
            for (int p = 0; p < numAColumns; p++)
                c[(size_t)i * numCColumns + j] += a[(size_t)i * numAColumns + p] * b[(size_t)p * numBColumns + j];
    cudaMemcpy(deviceC, c.data(), c.size() * 4, cudaMemcpyHostToDevice);
}
