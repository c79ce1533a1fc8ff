/* test_emu_runtime.cpp - the rest of the runtime API and the device-side
 * helpers: events time a launch (non-negative, and a slow kernel takes
 * longer), bad event handles fail, the emulated device's properties and
 * attributes, CUDA's error names and texts, atomics and math intrinsics. */
#include <criterion/criterion.h>
#include <cstring>

#include "emu_test_helpers.h"

__global__ void spin(volatile float *out, int iterations)
{
    float x = 1.0f;
    for (int i = 0; i < iterations; i++)
        x = x * 1.0000001f + 1e-7f;
    out[threadIdx.x] = x;
}

static float time_spin(int iterations)
{
    float *out;
    cudaMalloc(&out, 64 * sizeof(float));
    cudaEvent_t start, stop;
    cr_assert_eq(cudaEventCreate(&start), cudaSuccess);
    cr_assert_eq(cudaEventCreate(&stop), cudaSuccess);
    cr_assert_eq(cudaEventRecord(start), cudaSuccess);
    ::cugrade::kernel_launch(spin, "spin", __FILE__, __LINE__).config(4, 64)(out, iterations);
    cr_assert_eq(cudaEventRecord(stop, 0), cudaSuccess);
    cr_assert_eq(cudaEventSynchronize(stop), cudaSuccess);
    float ms = -1.0f;
    cr_assert_eq(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(out);
    return ms;
}

Test(emu_runtime, events_time_a_launch)
{
    float quick = time_spin(1);
    float slow = time_spin(20000);
    cr_assert_geq(quick, 0.0f);
    cr_assert_gt(slow, quick, "slow %f ms, quick %f ms", slow, quick);
}

Test(emu_runtime, bad_events_fail)
{
    cudaEvent_t a, b;
    float ms;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a);
    cr_assert_eq(cudaEventElapsedTime(&ms, a, b), cudaErrorInvalidResourceHandle, "b never recorded");
    cr_assert_eq(cudaEventDestroy(b), cudaSuccess);
    cr_assert_eq(cudaEventDestroy(b), cudaErrorInvalidResourceHandle);
    cr_assert_eq(cudaEventRecord(nullptr), cudaErrorInvalidResourceHandle);
    cr_assert_eq(cudaEventElapsedTime(nullptr, a, a), cudaErrorInvalidValue);
    cr_assert_eq(cudaEventElapsedTime(&ms, a, a), cudaSuccess);
    cr_assert_eq(ms, 0.0f);
    cudaEventDestroy(a);
    cudaGetLastError();
}

Test(emu_runtime, device_properties)
{
    int count = 0, device = -1;
    cr_assert_eq(cudaGetDeviceCount(&count), cudaSuccess);
    cr_assert_eq(count, 1);
    cr_assert_eq(cudaGetDevice(&device), cudaSuccess);
    cr_assert_eq(device, 0);
    cr_assert_eq(cudaSetDevice(0), cudaSuccess);
    cr_assert_eq(cudaSetDevice(1), cudaErrorInvalidDevice);
    cudaDeviceProp prop;
    cr_assert_eq(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
    cr_assert_str_eq(prop.name, "cugrade CPU emulator");
    cr_assert_eq(prop.maxThreadsPerBlock, 1024);
    cr_assert_eq(prop.maxThreadsDim[2], 64);
    cr_assert_eq(prop.maxGridSize[1], 65535);
    cr_assert_eq(prop.sharedMemPerBlock, 48u * 1024);
    cr_assert_eq(prop.sharedMemPerBlockOptin, 227u * 1024);
    cr_assert_eq(prop.warpSize, 32);
    cr_assert_eq(prop.major, 9);
    cr_assert_eq(prop.minor, 0);
    int value = 0;
    cr_assert_eq(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), cudaSuccess);
    cr_assert_eq(value, 227 * 1024);
    cr_assert_eq(cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    cr_assert_eq(value, prop.multiProcessorCount);
    cr_assert_eq(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 1), cudaErrorInvalidDevice);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cudaGetLastError();
}

Test(emu_runtime, error_names_and_texts)
{
    cr_assert_str_eq(cudaGetErrorString(cudaSuccess), "no error");
    cr_assert_str_eq(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
    cr_assert_str_eq(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory");
    cr_assert_str_eq(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered");
    cr_assert_str_eq(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument");
    cr_assert_str_eq(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue");
    cr_assert_str_eq(cudaGetErrorName(cudaErrorLaunchFailure), "cudaErrorLaunchFailure");
    cr_assert_eq(int(cudaErrorInvalidResourceHandle), 400);
    cr_assert_eq(int(cudaErrorLaunchFailure), 719);
    cr_assert_str_eq(cudaGetErrorString(cudaError_t(12345)), "unrecognized error code");
}

__global__ void atomics_and_math(int *ints, unsigned *uns, float *floats)
{
    atomicAdd(&ints[0], 2);
    atomicSub(&ints[1], 1);
    atomicMax(&ints[2], int(threadIdx.x));
    atomicMin(&ints[3], -int(threadIdx.x));
    atomicCAS(&ints[4], int(threadIdx.x), int(threadIdx.x) + 1);
    atomicExch(&ints[5], 7);
    atomicInc(&uns[0], 9u);
    atomicAdd(&floats[0], 0.5f);
    if (threadIdx.x == 0) {
        floats[1] = __fdividef(1.0f, 4.0f) + __fmul_rn(2.0f, 3.0f) + __fadd_rn(1.0f, 1.0f);
        floats[2] = __saturatef(1.7f) + __saturatef(-3.0f) + rsqrtf(16.0f);
        ints[6] = __float2int_rn(2.5f) + __float2int_rn(3.5f) + min(4, 9) + max(2u, 3u);
        floats[3] = __int2float_rn(7) + fminf(1.0f, 2.0f) + min(1.5f, 2.5f) + max(-1.0, 0.5);
        uns[1] = __float_as_uint(1.0f);
        ints[7] = __popc(0xF0F0u) + __clz(1) + __ffs(8);
    }
}

Test(emu_runtime, atomics_and_intrinsics)
{
    use_schedule("forward"); /* the atomicCAS chain depends on the order */
    int *ints;
    unsigned *uns;
    float *floats;
    cudaMallocManaged(&ints, 8 * sizeof(int));
    cudaMallocManaged(&uns, 2 * sizeof(unsigned));
    cudaMallocManaged(&floats, 4 * sizeof(float));
    int init[8] = {0, 100, -5, 5, 0, 0, 0, 0};
    memcpy(ints, init, sizeof init);
    uns[0] = 0;
    floats[0] = 0.0f;
    ::cugrade::kernel_launch(atomics_and_math, "atomics_and_math", __FILE__, __LINE__).config(2, 32)(ints, uns, floats);
    cr_assert_eq(ints[0], 128);
    cr_assert_eq(ints[1], 36);
    cr_assert_eq(ints[2], 31);
    cr_assert_eq(ints[3], -31);
    cr_assert_eq(ints[4], 32, "CAS chain 0->1->...->32 across both blocks");
    cr_assert_eq(ints[5], 7);
    cr_assert_eq(uns[0], 64u % 10u);
    cr_assert_float_eq(floats[0], 32.0f, 1e-6f);
    cr_assert_float_eq(floats[1], 8.25f, 1e-6f);
    cr_assert_float_eq(floats[2], 1.25f, 1e-6f);
    cr_assert_eq(ints[6], 2 + 4 + 4 + 3);
    cr_assert_float_eq(floats[3], 7.0f + 1.0f + 1.5f + 0.5f, 1e-6f);
    cr_assert_eq(uns[1], 0x3F800000u);
    cr_assert_eq(ints[7], 8 + 31 + 4);
}
