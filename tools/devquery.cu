// devquery.cu - print the properties of CUDA device 0 as "key: value" lines.
// `cugrade info` builds it for the backend in use: with nvcc it describes the
// real GPU, with bin/emucc the emulated device of the CPU emulator.
#include <cstdio>
#include <cuda_runtime.h>

static int check(cudaError_t err, const char *what)
{
    if (err == cudaSuccess)
        return 0;
    std::fprintf(stderr, "devquery: %s: %s (%s)\n", what, cudaGetErrorName(err),
                 cudaGetErrorString(err));
    return 1;
}

int main()
{
    int count = 0;
    if (check(cudaGetDeviceCount(&count), "cudaGetDeviceCount"))
        return 3;
    cudaDeviceProp p;
    if (count < 1 || check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties"))
        return 3;
    std::printf("device: %s\n", p.name);
    std::printf("devices: %d\n", count);
    std::printf("compute capability: %d.%d\n", p.major, p.minor);
    std::printf("multiprocessors: %d\n", p.multiProcessorCount);
    std::printf("max threads per block: %d\n", p.maxThreadsPerBlock);
    std::printf("max block dimensions: %d x %d x %d\n", p.maxThreadsDim[0], p.maxThreadsDim[1],
                p.maxThreadsDim[2]);
    std::printf("max grid dimensions: %d x %d x %d\n", p.maxGridSize[0], p.maxGridSize[1],
                p.maxGridSize[2]);
    std::printf("max threads per multiprocessor: %d\n", p.maxThreadsPerMultiProcessor);
    std::printf("shared memory per block: %zu bytes\n", (size_t)p.sharedMemPerBlock);
    std::printf("shared memory per block (opt-in): %zu bytes\n", (size_t)p.sharedMemPerBlockOptin);
    std::printf("shared memory per multiprocessor: %zu bytes\n", (size_t)p.sharedMemPerMultiprocessor);
    std::printf("registers per block: %d\n", p.regsPerBlock);
    std::printf("warp size: %d\n", p.warpSize);
    std::printf("L2 cache: %d bytes\n", p.l2CacheSize);
    std::printf("global memory: %zu bytes\n", (size_t)p.totalGlobalMem);
    return 0;
}
