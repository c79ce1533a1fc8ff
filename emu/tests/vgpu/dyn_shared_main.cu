// dyn_shared_main.cu - a program for the executor's tests (test_vgpu.cpp):
// 64 KiB of dynamic shared memory, launched first without asking for it
// (a GPU refuses: cudaErrorInvalidValue), then after
// cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize); prints
// each launch's error and the last thread's result.
#include "../ptx/dyn_shared.cu"

#include <cstdio>

int main()
{
    const int words = 16384, threads = 32; /* 64 KiB */
    int *out, host[threads];
    if (cudaMalloc((void **)&out, sizeof host) != cudaSuccess)
        return 3;
    lastWords<<<1, threads, words * sizeof(int)>>>(out, words);
    printf("without the attribute: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaError_t set = cudaFuncSetAttribute(lastWords, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           words * (int)sizeof(int));
    lastWords<<<1, threads, words * sizeof(int)>>>(out, words);
    printf("with it (%s): %s\n", cudaGetErrorName(set), cudaGetErrorName(cudaGetLastError()));
    if (cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 3;
    printf("out[0] = %d, out[31] = %d\n", host[0], host[threads - 1]);
    return 0;
}
