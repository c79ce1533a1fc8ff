/* test_emu_shared.cpp - shared memory in the emulator: each block works in
 * its own tile, a block never sees what the previous block left behind (it
 * sees the poison pattern), dynamic shared memory (the rewritten
 * `extern __shared__`) holds the launch's shmem bytes and every extern
 * array starts at the same address, and the static size is measured. */
#include <criterion/criterion.h>
#include <cstring>
#include <vector>

#include "emu_test_helpers.h"

#define TILE 32

/* Each block reverses its own slice of the input through a shared tile. */
__global__ void reverse_slices(const int *in, int *out)
{
    __shared__ int tile[TILE];
    int base = blockIdx.x * TILE;
    tile[threadIdx.x] = in[base + threadIdx.x];
    __syncthreads();
    out[base + threadIdx.x] = tile[TILE - 1 - threadIdx.x];
}

Test(emu_shared, each_block_has_its_own_tile)
{
    const int blocks = 6;
    int *in, *out;
    cudaMallocManaged(&in, blocks * TILE * sizeof(int));
    cudaMallocManaged(&out, blocks * TILE * sizeof(int));
    for (int i = 0; i < blocks * TILE; i++)
        in[i] = i * 3 + 1;
    ::cugrade::kernel_launch(reverse_slices, "reverse_slices", __FILE__, __LINE__).config(blocks, TILE)(in, out);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < TILE; t++)
            cr_assert_eq(out[b * TILE + t], in[b * TILE + TILE - 1 - t], "block %d thread %d", b, t);
}

/* Reads a shared variable before this block wrote it. */
__global__ void read_before_write(unsigned *seen)
{
    __shared__ unsigned slot;
    unsigned before = slot;
    __syncthreads();
    if (threadIdx.x == 0)
        slot = blockIdx.x + 1;
    __syncthreads();
    if (threadIdx.x == 1)
        seen[blockIdx.x] = before;
    if (threadIdx.x == 2)
        seen[gridDim.x + blockIdx.x] = slot;
}

Test(emu_shared, a_block_starts_with_poison_not_the_last_blocks_data)
{
    unsigned *seen;
    cudaMallocManaged(&seen, 8 * sizeof(unsigned));
    ::cugrade::kernel_launch(read_before_write, "read_before_write", __FILE__, __LINE__).config(4, 8)(seen);
    for (unsigned b = 0; b < 4; b++) {
        cr_assert_eq(seen[b], 0x7FBADBADu, "block %u saw %#x", b, seen[b]);
        cr_assert_eq(seen[4 + b], b + 1);
    }
}

/* What the rewriter makes of `extern __shared__ float buf[];` and a second
 * extern array: both start at the dynamic buffer. */
__global__ void rotate_through_dynamic(const float *in, float *out, int n, void **addresses)
{
    static float *const buf = (float *)__cugrade_dynamic_smem;
    static int *const other = (int *)__cugrade_dynamic_smem;
    int t = threadIdx.x;
    buf[t] = in[blockIdx.x * n + t];
    __syncthreads();
    out[blockIdx.x * n + t] = buf[(t + 1) % n];
    if (t == 0 && blockIdx.x == 0) {
        addresses[0] = buf;
        addresses[1] = other;
    }
}

Test(emu_shared, dynamic_shared_memory)
{
    const int n = 200, blocks = 3;
    float *in, *out;
    void **addresses;
    cudaMallocManaged(&in, n * blocks * sizeof(float));
    cudaMallocManaged(&out, n * blocks * sizeof(float));
    cudaMallocManaged(&addresses, 2 * sizeof(void *));
    for (int i = 0; i < n * blocks; i++)
        in[i] = float(i) * 0.5f;
    ::cugrade::kernel_launch(rotate_through_dynamic, "rotate_through_dynamic", __FILE__, __LINE__)
        .config(blocks, n, n * sizeof(float))(in, out, n, addresses);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < n; t++)
            cr_assert_eq(out[b * n + t], in[b * n + (t + 1) % n]);
    cr_assert_eq(addresses[0], addresses[1]);
    cr_assert_eq(reinterpret_cast<uintptr_t>(addresses[0]) % 16, 0u);
}

/* The largest opt-in dynamic allocation works once the kernel allows it. */
__global__ void fill_dynamic(int *out, int words)
{
    static int *const buf = (int *)__cugrade_dynamic_smem;
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        buf[i] = i;
    __syncthreads();
    int sum = 0;
    if (threadIdx.x == 0) {
        for (int i = 0; i < words; i++)
            sum += buf[i] == i;
        out[0] = sum;
    }
}

Test(emu_shared, opt_in_dynamic_shared_memory)
{
    const int bytes = 200 * 1024, words = bytes / 4;
    int *out;
    cudaMallocManaged(&out, sizeof(int));
    cr_assert_eq(cudaFuncSetAttribute(fill_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes), cudaSuccess);
    ::cugrade::kernel_launch(fill_dynamic, "fill_dynamic", __FILE__, __LINE__).config(2, 128, bytes)(out, words);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    cr_assert_eq(*out, words);
}

Test(emu_shared, static_size_counts_the_shared_variables)
{
    /* reverse_slices' tile and read_before_write's slot, at least. */
    size_t bytes = cugrade::static_shared_bytes();
    cr_assert_geq(bytes, TILE * sizeof(int) + sizeof(unsigned));
    cr_assert_lt(bytes, 4096u, "%zu bytes", bytes);
    cudaFuncAttributes attr;
    cr_assert_eq(cudaFuncGetAttributes(&attr, reverse_slices), cudaSuccess);
    cr_assert_eq(attr.sharedSizeBytes, bytes);
}

/* Statics in function templates miss the section (g++ ignores it there) but
 * are still one copy per block. */
template <int N> __global__ void sum_template(const int *in, int *out)
{
    __shared__ int tile[N];
    tile[threadIdx.x] = in[blockIdx.x * N + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (int i = 0; i < N; i++)
            s += tile[i];
        out[blockIdx.x] = s;
    }
}

Test(emu_shared, template_kernels_share_per_block)
{
    int *in, *out;
    cudaMallocManaged(&in, 3 * 16 * sizeof(int));
    cudaMallocManaged(&out, 3 * sizeof(int));
    for (int i = 0; i < 48; i++)
        in[i] = i;
    ::cugrade::kernel_launch(sum_template<16>, "sum_template<16>", __FILE__, __LINE__).config(3, 16)(in, out);
    for (int b = 0; b < 3; b++)
        cr_assert_eq(out[b], (b * 16 + b * 16 + 15) * 8);
}
