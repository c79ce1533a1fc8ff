/* device.cpp - the one device the emulator offers and its properties.
 *
 * Emulated device ("cugrade CPU emulator"), shaped like an H200 (compute
 * capability 9.0) so that programs sizing their work from the properties
 * behave as on the course's GPU:
 *   threads per block 1024; block dims 1024 x 1024 x 64; grid dims
 *   2^31-1 x 65535 x 65535; warp 32; static + dynamic shared memory 48 KiB
 *   per block, up to 227 KiB with cudaFuncAttributeMaxDynamicSharedMemorySize;
 *   228 KiB per SM; 64 Ki registers per block and per SM; 132 SMs; 2048
 *   threads and 32 blocks per SM; 64 KiB constant memory; 50 MiB L2;
 *   16 GiB global memory (cudaMalloc fails beyond that); clock 1.98 GHz.
 * The launch checks (launch.cpp) enforce the block, grid and shared limits;
 * the rest are only reported. docs/emulator.md lists the same values. */
#include <cstring>

#include "emu_internal.h"

namespace cugrade::emu {
namespace {

cudaDeviceProp emulated_properties()
{
    cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    strcpy(p.name, "cugrade CPU emulator");
    p.totalGlobalMem = kTotalGlobalMem;
    p.sharedMemPerBlock = kSharedPerBlock;
    p.sharedMemPerBlockOptin = kSharedPerBlockOptin;
    p.sharedMemPerMultiprocessor = 228 * 1024;
    p.reservedSharedMemPerBlock = 1024;
    p.regsPerBlock = 65536;
    p.regsPerMultiprocessor = 65536;
    p.warpSize = 32;
    p.memPitch = 2147483647;
    p.maxThreadsPerBlock = int(kMaxThreadsPerBlock);
    p.maxThreadsDim[0] = int(kMaxBlockDimXY);
    p.maxThreadsDim[1] = int(kMaxBlockDimXY);
    p.maxThreadsDim[2] = int(kMaxBlockDimZ);
    p.maxGridSize[0] = int(kMaxGridDimX);
    p.maxGridSize[1] = int(kMaxGridDimYZ);
    p.maxGridSize[2] = int(kMaxGridDimYZ);
    p.clockRate = 1980000;
    p.totalConstMem = 65536;
    p.major = 9;
    p.minor = 0;
    p.textureAlignment = 512;
    p.multiProcessorCount = 132;
    p.canMapHostMemory = 1;
    p.concurrentKernels = 1;
    p.unifiedAddressing = 1;
    p.memoryClockRate = 2619000;
    p.memoryBusWidth = 6144;
    p.l2CacheSize = 50 * 1024 * 1024;
    p.maxThreadsPerMultiProcessor = 2048;
    p.maxBlocksPerMultiProcessor = 32;
    p.managedMemory = 1;
    p.concurrentManagedAccess = 1;
    return p;
}

int attribute_value(const cudaDeviceProp &p, cudaDeviceAttr attr, bool *known)
{
    *known = true;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: return p.maxThreadsPerBlock;
    case cudaDevAttrMaxBlockDimX: return p.maxThreadsDim[0];
    case cudaDevAttrMaxBlockDimY: return p.maxThreadsDim[1];
    case cudaDevAttrMaxBlockDimZ: return p.maxThreadsDim[2];
    case cudaDevAttrMaxGridDimX: return p.maxGridSize[0];
    case cudaDevAttrMaxGridDimY: return p.maxGridSize[1];
    case cudaDevAttrMaxGridDimZ: return p.maxGridSize[2];
    case cudaDevAttrMaxSharedMemoryPerBlock: return int(p.sharedMemPerBlock);
    case cudaDevAttrTotalConstantMemory: return int(p.totalConstMem);
    case cudaDevAttrWarpSize: return p.warpSize;
    case cudaDevAttrMaxPitch: return int(p.memPitch);
    case cudaDevAttrMaxRegistersPerBlock: return p.regsPerBlock;
    case cudaDevAttrClockRate: return p.clockRate;
    case cudaDevAttrTextureAlignment: return int(p.textureAlignment);
    case cudaDevAttrMultiProcessorCount: return p.multiProcessorCount;
    case cudaDevAttrCanMapHostMemory: return p.canMapHostMemory;
    case cudaDevAttrConcurrentKernels: return p.concurrentKernels;
    case cudaDevAttrMemoryClockRate: return p.memoryClockRate;
    case cudaDevAttrGlobalMemoryBusWidth: return p.memoryBusWidth;
    case cudaDevAttrL2CacheSize: return p.l2CacheSize;
    case cudaDevAttrMaxThreadsPerMultiProcessor: return p.maxThreadsPerMultiProcessor;
    case cudaDevAttrUnifiedAddressing: return p.unifiedAddressing;
    case cudaDevAttrComputeCapabilityMajor: return p.major;
    case cudaDevAttrComputeCapabilityMinor: return p.minor;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return int(p.sharedMemPerMultiprocessor);
    case cudaDevAttrMaxRegistersPerMultiprocessor: return p.regsPerMultiprocessor;
    case cudaDevAttrManagedMemory: return p.managedMemory;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: return int(p.sharedMemPerBlockOptin);
    case cudaDevAttrMaxBlocksPerMultiprocessor: return p.maxBlocksPerMultiProcessor;
    case cudaDevAttrGpuOverlap:
    case cudaDevAttrKernelExecTimeout:
    case cudaDevAttrIntegrated:
    case cudaDevAttrComputeMode:
    case cudaDevAttrEccEnabled:
    case cudaDevAttrPciBusId:
    case cudaDevAttrPciDeviceId:
    case cudaDevAttrAsyncEngineCount: return 0;
    }
    *known = false;
    return 0;
}

size_t g_limits[3] = {1024, 1 << 20, 8 << 20}; /* stack, printf FIFO, malloc heap */

} // namespace
} // namespace cugrade::emu

using namespace cugrade::emu;

extern "C" cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return record_error(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

extern "C" cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return record_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

extern "C" cudaError_t cudaSetDevice(int device)
{
    return device == 0 ? cudaSuccess : record_error(cudaErrorInvalidDevice);
}

extern "C" cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device)
{
    if (!prop)
        return record_error(cudaErrorInvalidValue);
    if (device != 0)
        return record_error(cudaErrorInvalidDevice);
    *prop = emulated_properties();
    return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    if (!value)
        return record_error(cudaErrorInvalidValue);
    if (device != 0)
        return record_error(cudaErrorInvalidDevice);
    bool known;
    *value = attribute_value(emulated_properties(), attr, &known);
    return known ? cudaSuccess : record_error(cudaErrorInvalidValue);
}

/* Launches and copies are synchronous: there is never anything to wait for. */
extern "C" cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
extern "C" cudaError_t cudaThreadSynchronize(void) { return cudaSuccess; }

extern "C" cudaError_t cudaDeviceReset(void)
{
    memory_release_all();
    launch_reset_attributes();
    cudaGetLastError();
    return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value)
{
    if (unsigned(limit) > unsigned(cudaLimitMallocHeapSize))
        return record_error(cudaErrorInvalidValue);
    g_limits[limit] = value;
    return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit)
{
    if (!value || unsigned(limit) > unsigned(cudaLimitMallocHeapSize))
        return record_error(cudaErrorInvalidValue);
    *value = g_limits[limit];
    return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config)
{
    return unsigned(config) <= unsigned(cudaFuncCachePreferEqual) ? cudaSuccess : record_error(cudaErrorInvalidValue);
}

extern "C" cudaError_t cudaDriverGetVersion(int *version)
{
    if (!version)
        return record_error(cudaErrorInvalidValue);
    *version = CUDART_VERSION;
    return cudaSuccess;
}

extern "C" cudaError_t cudaRuntimeGetVersion(int *version)
{
    if (!version)
        return record_error(cudaErrorInvalidValue);
    *version = CUDART_VERSION;
    return cudaSuccess;
}
