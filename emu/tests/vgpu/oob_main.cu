// oob_main.cu - a program for the executor's tests (test_vgpu.cpp): the
// unguarded store of emu/tests/ptx/oob_store.cu launched with more threads
// than elements (just past the array: as on a GPU, no fault), then on a
// pointer far from every array; prints what cudaDeviceSynchronize returns
// each time, as a GPU reports an illegal address after the launch.
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
    storeIndex<<<1, 32>>>(out + (64 << 20), 40); /* 256 MiB away */
    printf("far launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("far sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
