// devquery.cu - print the properties of CUDA device 0 as "key: value" lines,
// then the lecture's tiling arithmetic for this device (ECE408 lecture 5): for
// TILE_WIDTH 8, 16 and 32, how many blocks fit on a multiprocessor and which
// resource limits them, and the bandwidth-bound ceiling of a tiled matrix
// multiply ((bandwidth / 4 B) x TILE_WIDTH FLOP/s). `cugrade info` builds it
// for the backend in use: with nvcc it describes the real GPU, with bin/emucc
// the emulated device of the CPU emulator.
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

static int attribute(cudaDeviceAttr attr, int *value)
{
    return check(cudaDeviceGetAttribute(value, attr, 0), "cudaDeviceGetAttribute");
}

// FP32 lanes per multiprocessor, by compute capability (CUDA programming guide).
static int fp32_lanes_per_sm(int major, int minor)
{
    if (major >= 9 || (major == 8 && minor > 0))
        return 128;
    return 64;
}

struct tile_limit {
    int blocks;
    const char *by;
};

static tile_limit blocks_per_sm(const cudaDeviceProp &p, int max_blocks, int tile)
{
    const int threads = tile * tile, regs_per_thread = 32;
    const size_t shared = 2u * threads * sizeof(float);
    tile_limit limits[] = {
        {p.maxThreadsPerMultiProcessor / threads, "threads per SM"},
        {max_blocks, "blocks per SM"},
        {(int)(p.sharedMemPerMultiprocessor / shared), "shared memory per SM"},
        {p.regsPerMultiprocessor / (threads * regs_per_thread), "registers per SM (at 32 per thread)"},
    };
    tile_limit best = limits[0];
    for (const tile_limit &l : limits)
        if (l.blocks < best.blocks)
            best = l;
    return best;
}

static int print_tiling(const cudaDeviceProp &p)
{
    int clock_khz = 0, mem_khz = 0, bus_bits = 0, max_blocks = 0;
    if (attribute(cudaDevAttrClockRate, &clock_khz) || attribute(cudaDevAttrMemoryClockRate, &mem_khz) ||
        attribute(cudaDevAttrGlobalMemoryBusWidth, &bus_bits) ||
        attribute(cudaDevAttrMaxBlocksPerMultiprocessor, &max_blocks))
        return 1;
    double bandwidth = 2.0 * mem_khz * 1e3 * bus_bits / 8 / 1e9; // GB/s, double data rate
    double peak = (double)p.multiProcessorCount * fp32_lanes_per_sm(p.major, p.minor) * 2 * clock_khz * 1e3 / 1e9;
    std::printf("memory bandwidth (theoretical): %.0f GB/s\n", bandwidth);
    std::printf("peak FP32 (theoretical): %.0f GFLOP/s\n", peak);
    std::printf("\ntiled matrix multiply (two TILE_WIDTH^2 float tiles in shared memory per block):\n");
    std::printf("  TILE  threads  shared/block  blocks/SM  limited by                          "
                "threads/SM  global B/FLOP  bandwidth-bound ceiling\n");
    for (int tile : {8, 16, 32}) {
        tile_limit l = blocks_per_sm(p, max_blocks, tile);
        std::printf("  %4d  %7d  %10zu B  %9d  %-34s  %10d  %13.3f  %.0f GFLOP/s\n", tile, tile * tile,
                    2u * tile * tile * sizeof(float), l.blocks, l.by, l.blocks * tile * tile,
                    4.0 / tile, bandwidth / 4.0 * tile);
    }
    return 0;
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
    return print_tiling(p) ? 3 : 0;
}
