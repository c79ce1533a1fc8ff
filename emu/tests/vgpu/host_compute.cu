// host_compute.cu - a hostile program for the executor's tests
// (test_vgpu.cpp): it goes through the motions (copies A and B to the
// device) but computes C on the host, copies it to the device and back,
// and prints "C ok" as the honest program does. No kernel wrote C, and the
// executor's report says so.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

int main()
{
    const int m = 8, k = 8, n = 8;
    std::vector<float> a(m * k, 1.0f), b(k * n, 2.0f), c(m * n, 0.0f);
    float *da, *db, *dc;
    cudaMalloc((void **)&da, a.size() * 4);
    cudaMalloc((void **)&db, b.size() * 4);
    cudaMalloc((void **)&dc, c.size() * 4);
    cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            for (int p = 0; p < k; p++)
                c[i * n + j] += a[i * k + p] * b[p * n + j];
    cudaMemcpy(dc, c.data(), c.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(c.data(), dc, c.size() * 4, cudaMemcpyDeviceToHost);
    printf("C ok\n");
    return 0;
}
