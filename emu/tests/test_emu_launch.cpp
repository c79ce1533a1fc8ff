/* test_emu_launch.cpp - launch validation and the last error: launches a
 * device refuses (too many threads, a 64x64 block, a zero dimension, too
 * much shared memory, ...) do not run and leave cudaErrorInvalidValue as
 * the last error plus a `launch` diagnostic; a good launch afterwards works;
 * cudaGetLastError resets, cudaPeekAtLastError does not; a block larger
 * than the kernel's __launch_bounds__ is refused the same way (as on a
 * GPU); arguments are converted to the parameter types and copied per
 * thread. */
#include <criterion/criterion.h>

#include "emu_test_helpers.h"

__global__ void count_runs(int *counter) { atomicAdd(counter, 1); }

/* Uses 1 KiB of static shared memory, so the shared limit checks see some. */
__global__ void uses_static_shared(int *out)
{
    __shared__ int scratch[256];
    scratch[threadIdx.x] = int(threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = scratch[255 - threadIdx.x];
}

static int *g_counter;

static void setup_counter()
{
    cudaMallocManaged(&g_counter, sizeof(int));
    *g_counter = 0;
}

/* Launches count_runs with the configuration; returns the last error. */
static cudaError_t try_launch(dim3 grid, dim3 block, size_t shmem = 0, cudaStream_t stream = 0)
{
    ::cugrade::kernel_launch(count_runs, "count_runs", __FILE__, __LINE__).config(grid, block, shmem, stream)(g_counter);
    return cudaGetLastError();
}

static void expect_refused(dim3 grid, dim3 block, size_t shmem = 0)
{
    unsigned long long launches = cugrade::launch_count();
    cr_assert_eq(try_launch(grid, block, shmem), cudaErrorInvalidValue, "grid (%u,%u,%u) block (%u,%u,%u)", grid.x,
                 grid.y, grid.z, block.x, block.y, block.z);
    cr_assert_eq(*g_counter, 0, "a refused kernel must not run");
    cr_assert_eq(cugrade::launch_count(), launches);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "cudaGetLastError resets");
}

Test(emu_launch, refused_configurations, .init = setup_counter)
{
    expect_refused(1, 1025);
    expect_refused(1, dim3(64, 64));
    expect_refused(1, dim3(2048));
    expect_refused(1, dim3(1, 1, 65));
    expect_refused(0, 32);
    expect_refused(dim3(4, 0), 32);
    expect_refused(dim3(1, 1, 0), 32);
    expect_refused(4, dim3(32, 0));
    expect_refused(dim3(1, 65536), 32);
    expect_refused(dim3(1, 1, 65536), 32);
    expect_refused(-1, 32); /* a negative int becomes a huge unsigned, as in CUDA */
    expect_refused(1, 32, 48 * 1024 + 1);
    cr_assert_eq(try_launch(dim3(3, 2), dim3(32, 32)), cudaSuccess);
    cr_assert_eq(*g_counter, 6 * 1024);
}

Test(emu_launch, refusal_is_reported_in_the_diagnostics_file, .init = setup_counter)
{
    std::string path = use_scratch_diag_file();
    cr_assert_eq(try_launch(1, dim3(64, 64)), cudaErrorInvalidValue);
    std::string diag = read_file(path);
    cr_assert_eq(count_lines(diag, "error\tlaunch\tLaunch of count_runs at "), 1u, "%s", diag.c_str());
    cr_assert(diag.find("test_emu_launch.cpp:") != std::string::npos, "%s", diag.c_str());
    cr_assert(diag.find("block (64,64,1) has 4096 threads, the limit is 1024") != std::string::npos, "%s",
              diag.c_str());
}

/* What emucc's rewriter makes of
 *   __global__ void __launch_bounds__(128, 4) bounded(int *counter) { ... } */
__global__ void bounded(int *counter)
{
    if (__cugrade_launch_bounds_exceeded(128))
        return;
    atomicAdd(counter, 1);
}

Test(emu_launch, blocks_above_launch_bounds_are_refused, .init = setup_counter)
{
    auto launch = [](dim3 grid, dim3 block) {
        ::cugrade::kernel_launch(bounded, "bounded", __FILE__, __LINE__).config(grid, block)(g_counter);
        return cudaGetLastError();
    };
    cr_assert_eq(launch(3, 128), cudaSuccess);
    cr_assert_eq(launch(1, dim3(8, 4, 4)), cudaSuccess);
    cr_assert_eq(*g_counter, 3 * 128 + 128);
    unsigned long long launches = cugrade::launch_count(), rejected = cugrade::stats().rejected_launches;
    std::string path = use_scratch_diag_file();
    cr_assert_eq(launch(1000, 129), cudaErrorInvalidValue);
    cr_assert_eq(launch(2, dim3(16, 16)), cudaErrorInvalidValue);
    unsetenv("CUGRADE_EMU_DIAG");
    std::string diag = read_file(path);
    cr_assert_eq(*g_counter, 3 * 128 + 128, "no thread of a refused launch does any work");
    cr_assert_eq(cugrade::launch_count(), launches);
    cr_assert_eq(cugrade::stats().rejected_launches, rejected + 2);
    cr_assert_eq(count_lines(diag, "error\tlaunch\tLaunch of bounded at "), 2u, "once per launch:\n%s", diag.c_str());
    cr_assert(diag.find("failed with cudaErrorInvalidValue: block (129,1,1) has 129 threads, more than the 128 that "
                        "the kernel's __launch_bounds__ allows.") != std::string::npos,
              "%s", diag.c_str());
    cr_assert(diag.find("block (16,16,1) has 256 threads") != std::string::npos, "%s", diag.c_str());
    cr_assert_eq(launch(1, 1), cudaSuccess, "the next launch is not affected");
}

Test(emu_launch, last_error_is_sticky_until_read, .init = setup_counter)
{
    cr_assert_eq(try_launch(1, 2000), cudaErrorInvalidValue);
    ::cugrade::kernel_launch(count_runs, "count_runs", __FILE__, __LINE__).config(1, 4000)(g_counter);
    int device;
    cr_assert_eq(cudaGetDevice(&device), cudaSuccess);
    ::cugrade::kernel_launch(count_runs, "count_runs", __FILE__, __LINE__).config(1, 8)(g_counter);
    cr_assert_eq(*g_counter, 8);
    cr_assert_eq(cudaPeekAtLastError(), cudaErrorInvalidValue, "successful calls keep the error");
    cr_assert_eq(cudaPeekAtLastError(), cudaErrorInvalidValue, "peek does not reset");
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidValue);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    cr_assert_eq(cudaPeekAtLastError(), cudaSuccess);
}

Test(emu_launch, shared_memory_limits)
{
    int *out;
    cudaMallocManaged(&out, 256 * sizeof(int));
    size_t stat = cugrade::static_shared_bytes();
    cr_assert_geq(stat, 1024u);
    size_t room = 48 * 1024 - stat;
    ::cugrade::kernel_launch(uses_static_shared, "uses_static_shared", __FILE__, __LINE__).config(1, 256, room)(out);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    cr_assert_eq(out[0], 255);
    ::cugrade::kernel_launch(uses_static_shared, "uses_static_shared", __FILE__, __LINE__).config(1, 256, room + 1)(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidValue);

    int too_much = int(227 * 1024 - stat + 1);
    cr_assert_eq(cudaFuncSetAttribute(uses_static_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, too_much),
                 cudaErrorInvalidValue);
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidValue);
    cr_assert_eq(cudaFuncSetAttribute(uses_static_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000),
                 cudaSuccess);
    ::cugrade::kernel_launch(uses_static_shared, "uses_static_shared", __FILE__, __LINE__).config(1, 256, 100000)(out);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    ::cugrade::kernel_launch(uses_static_shared, "uses_static_shared", __FILE__, __LINE__).config(1, 256, 100001)(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidValue, "beyond the raised limit");
    /* The attribute is per kernel. */
    ::cugrade::kernel_launch(count_runs, "count_runs", __FILE__, __LINE__).config(1, 1, 60000)(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidValue);
}

Test(emu_launch, streams_and_missing_configuration, .init = setup_counter)
{
    cudaStream_t stream;
    cr_assert_eq(cudaStreamCreate(&stream), cudaSuccess);
    cr_assert_eq(try_launch(2, 16, 0, stream), cudaSuccess);
    cr_assert_eq(cudaStreamSynchronize(stream), cudaSuccess);
    cr_assert_eq(*g_counter, 32);
    cr_assert_eq(cudaStreamDestroy(stream), cudaSuccess);
    cr_assert_eq(try_launch(2, 16, 0, stream), cudaErrorInvalidResourceHandle);
    ::cugrade::kernel_launch(count_runs, "count_runs", __FILE__, __LINE__)(g_counter);
    cr_assert_eq(cudaGetLastError(), cudaErrorMissingConfiguration);
    cr_assert_eq(*g_counter, 32);
}

/* Parameters are converted to the kernel's types and each thread gets its
 * own copy (changing one does not change another thread's). */
__global__ void converted_params(float scale, double offset, long count, float *out)
{
    out[threadIdx.x] = scale * float(threadIdx.x) + float(offset) + float(count);
    count += 1000;
    scale = 0.0f;
    __syncthreads();
    out[blockDim.x + threadIdx.x] = float(count) + scale;
}

Test(emu_launch, arguments_are_converted_and_copied)
{
    float *out;
    cudaMallocManaged(&out, 16 * sizeof(float));
    int scale = 2;
    float offset = 0.5f;
    short count = 3;
    ::cugrade::kernel_launch(converted_params, "converted_params", __FILE__, __LINE__)
        .config(1, 8)(scale, offset, count, out);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    for (int t = 0; t < 8; t++) {
        cr_assert_float_eq(out[t], 2.0f * float(t) + 3.5f, 1e-6f);
        cr_assert_float_eq(out[8 + t], 1003.0f, 1e-6f);
    }
}
