/* check_kernels_async.cpp - test kernels of the checking mode for what a
 * tiled SGEMM adds: whole-vector accesses (float4, float2) at aligned and
 * misaligned addresses, __ldg, and asynchronous copies to shared memory
 * (cuda_pipeline.h) used right and wrongly. Compiled with -fsanitize=thread
 * -O1 -g -fno-tree-sra as emucc --checks compiles a student's file; see
 * check_kernels.h. */
#include <cuda_pipeline.h>

#include "check_kernels.h"

__global__ void vector_access(const float *in, float *out, int offset, int kind)
{
    __shared__ __align__(16) float tile[16];
    tile[threadIdx.x] = float(threadIdx.x);
    __syncthreads();
    if (threadIdx.x > 0)
        return;
    if (kind == kReadFloat4) {
        float4 v = *reinterpret_cast<const float4 *>(in + offset); g_lines.vector_access = __LINE__;
        out[0] = v.x + v.y + v.z + v.w;
    } else if (kind == kReadFloat2) {
        float2 v = *reinterpret_cast<const float2 *>(in + offset); g_lines.vector_access = __LINE__;
        out[0] = v.x + v.y;
    } else if (kind == kReadSharedFloat4) {
        float4 v = *reinterpret_cast<const float4 *>(&tile[offset]); g_lines.vector_access = __LINE__;
        out[0] = v.x + v.y + v.z + v.w;
    } else {
        *reinterpret_cast<float4 *>(out + offset) = make_float4(1, 2, 3, 4); g_lines.vector_access = __LINE__;
    }
}

void launch_vector_access(const float *in, float *out, int offset, int kind)
{
    ::cugrade::kernel_launch(vector_access, "vector_access", __FILE__, __LINE__).config(1, 16)(in, out, offset, kind);
}

__global__ void ldg_read(const float *in, float *out, int index, int vector)
{
    if (vector) {
        float4 v = __ldg(reinterpret_cast<const float4 *>(in + index)); g_lines.ldg_read = __LINE__;
        out[0] = v.x + v.w;
    } else {
        out[0] = __ldg(in + index); g_lines.ldg_read = __LINE__;
    }
}

void launch_ldg(const float *in, float *out, int index, bool vector)
{
    ::cugrade::kernel_launch(ldg_read, "ldg_read", __FILE__, __LINE__).config(1, 1)(in, out, index, vector ? 1 : 0);
}

__global__ void async_tile(const float *in, float *out, int mode, int shift)
{
    __shared__ __align__(16) float tile[256];
    int t = threadIdx.x;
    const float *src = in + 4 * t + shift;
    if (shift % 4 == 0) {
        __pipeline_memcpy_async(&tile[4 * t], src, 16); g_lines.async_copy = __LINE__;
    } else {
        for (int e = 0; e < 4; e++)
            __pipeline_memcpy_async(&tile[4 * t + e], src + e, 4);
    }
    __pipeline_commit();
    if (mode == kAsyncWriteEarly) {
        tile[4 * t] = 0.0f; g_lines.async_write = __LINE__;
    }
    if (mode != kAsyncNoWait)
        __pipeline_wait_prior(0);
    if (mode != kAsyncNoBarrier)
        __syncthreads();
    int n = (t + 1) % 64;
    for (int e = 0; e < 4; e++) {
        out[4 * t + e] = tile[4 * n + e]; g_lines.async_read = __LINE__;
    }
}

void launch_async_tile(const float *in, float *out, int mode, int shift)
{
    ::cugrade::kernel_launch(async_tile, "async_tile", __FILE__, __LINE__).config(1, 64)(in, out, mode, shift);
}

static const int registered = cugrade_register_kernel_params("vector_access", "in,out,offset,kind") +
                              cugrade_register_kernel_params("ldg_read", "in,out,index,vector") +
                              cugrade_register_kernel_params("async_tile", "in,out,mode,shift");
