// oob_main.cu - a program for the executor's tests (test_vgpu.cpp): the
// unguarded store of emu/tests/ptx/oob_store.cu launched with more threads
// than elements; prints what cudaDeviceSynchronize returns, as a GPU
// reports an illegal address after the launch.
#include "../ptx/oob_store.cu"

#include <cstdio>

int main()
{
    int *out;
    if (cudaMalloc((void **)&out, 40 * sizeof(int)) != cudaSuccess)
        return 3;
    storeIndex<<<2, 32>>>(out, 40);
    printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
