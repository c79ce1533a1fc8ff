/* check_kernels_memory.cpp - memory test kernels for the checking mode,
 * compiled with -fsanitize=thread -O1 -g: shared memory nobody wrote,
 * device memory nobody wrote, indexes one row past (or before) a shared
 * array, dynamic shared memory past the launch's size, atomics on shared
 * and device memory, a store through any pointer, and a race between
 * writes followed by such a store. See check_kernels.h. */
#include "check_kernels.h"

/* Threads 0..31 fill half of the array; every thread reads the element
 * mirrored to its own, so threads 0..31 read the half nobody wrote. (An
 * array no code writes at all would be folded to zeros by clang.) */
__global__ void read_unwritten_shared(float *out)
{
    __shared__ float half_written[64];
    if (threadIdx.x < 32)
        half_written[threadIdx.x] = float(threadIdx.x);
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = half_written[63 - threadIdx.x]; g_lines.uninit_shared_read = __LINE__;
}

__global__ void copy_kernel(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i]; g_lines.uninit_global_read = __LINE__;
    }
}

__global__ void shared_neighbours(float *out, int shift)
{
    __shared__ float left[16][16];
    __shared__ float middle[16][16];
    __shared__ float right[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    left[ty][tx] = 1.0f;
    middle[ty][tx] = 2.0f;
    right[ty][tx] = 3.0f;
    __syncthreads();
    out[ty * 16 + tx] = middle[ty + shift][tx]; g_lines.shared_overrun = __LINE__;
    out[256 + ty * 16 + tx] = left[ty][tx] + right[ty][tx]; /* keeps both neighbours */
}

__global__ void dynamic_read(float *out, int index)
{
    static float *const dyn = (float *)__cugrade_dynamic_smem; /* extern __shared__ float dyn[]; */
    dyn[threadIdx.x] = float(threadIdx.x);
    __syncthreads();
    if (threadIdx.x == 0) {
        out[0] = dyn[index]; g_lines.dynamic_overrun = __LINE__;
    }
}

__global__ void shared_count(int *out)
{
    __shared__ int count;
    if (threadIdx.x == 0)
        count = 0;
    __syncthreads();
    atomicAdd(&count, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = count;
}

__global__ void global_count(int *counter) { atomicAdd(counter, 1); }

__global__ void poke(int *p)
{
    if (threadIdx.x == 0) {
        *p = 1; g_lines.wild_write = __LINE__;
    }
}

/* Every thread writes the same shared word in one barrier interval (a race
 * between writes); then thread 0 stores it through p. */
__global__ void race_then_store(int *p)
{
    __shared__ int last_writer;
    last_writer = int(threadIdx.x); g_lines.racy_write = __LINE__;
    __syncthreads();
    if (threadIdx.x == 0)
        *p = last_writer;
}

static const int registered[] = {
    cugrade_register_kernel_params("read_unwritten_shared", "out"),
    cugrade_register_kernel_params("copy_kernel", "in,out,n"),
    cugrade_register_kernel_params("shared_neighbours", "out,shift"),
    cugrade_register_kernel_params("dynamic_read", "out,index"),
    cugrade_register_kernel_params("shared_count", "out"),
    cugrade_register_kernel_params("global_count", "counter"),
    cugrade_register_kernel_params("poke", "p"),
    cugrade_register_kernel_params("race_then_store", "p"),
};

void launch_uninit_shared(float *out, int blocks)
{
    (void)registered;
    ::cugrade::kernel_launch(read_unwritten_shared, "read_unwritten_shared", __FILE__, __LINE__)
        .config(blocks, 64)(out);
}

void launch_copy(const float *in, float *out, int n)
{
    ::cugrade::kernel_launch(copy_kernel, "copy_kernel", __FILE__, __LINE__).config((n + 63) / 64, 64)(in, out, n);
}

void launch_shared_neighbours(float *out, int shift)
{
    ::cugrade::kernel_launch(shared_neighbours, "shared_neighbours", __FILE__, __LINE__)
        .config(1, dim3(16, 16))(out, shift);
}

void launch_dynamic_read(float *out, int floats, int index)
{
    ::cugrade::kernel_launch(dynamic_read, "dynamic_read", __FILE__, __LINE__)
        .config(1, 64, floats * sizeof(float))(out, index);
}

void launch_shared_count(int *out, int blocks)
{
    ::cugrade::kernel_launch(shared_count, "shared_count", __FILE__, __LINE__).config(blocks, 256)(out);
}

void launch_global_count(int *counter, int blocks)
{
    ::cugrade::kernel_launch(global_count, "global_count", __FILE__, __LINE__).config(blocks, 128)(counter);
}

void launch_poke(int *p) { ::cugrade::kernel_launch(poke, "poke", __FILE__, __LINE__).config(1, 32)(p); }

void launch_race_then_store(int *p)
{
    ::cugrade::kernel_launch(race_then_store, "race_then_store", __FILE__, __LINE__).config(1, 64)(p);
}
