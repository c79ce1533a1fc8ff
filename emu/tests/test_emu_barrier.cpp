/* test_emu_barrier.cpp - __syncthreads() is a real block-wide barrier under
 * both schedules: a tree reduction and a tile transpose through shared
 * memory are right with the barrier and wrong without it (the same kernels
 * with the barriers switched off are checked to fail, so these tests can
 * fail). Also: the counting barriers, and divergent barriers (an early
 * return) finish and write a barrier-divergence line to the diagnostics
 * file. */
#include <criterion/criterion.h>
#include <vector>

#include "emu_test_helpers.h"

#define BLOCK 256
#define TILE 16

__global__ void block_sum(const int *in, int *out, bool sync)
{
    __shared__ int partial[BLOCK];
    unsigned t = threadIdx.x;
    partial[t] = in[blockIdx.x * BLOCK + t];
    if (sync)
        __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 0; stride /= 2) {
        if (t < stride)
            partial[t] += partial[t + stride];
        if (sync)
            __syncthreads();
    }
    out[blockIdx.x * BLOCK + t] = partial[0]; /* every thread reads the block's total */
}

/* Block sums of 0..n-1 in blocks of BLOCK, broadcast to every thread of the
 * block; true when all are right. (Without barriers a forward schedule sums
 * unloaded values and a reverse one reads the total before it exists.) */
static bool sums_right(bool sync)
{
    const int blocks = 4;
    int *in, *out;
    cudaMallocManaged(&in, blocks * BLOCK * sizeof(int));
    cudaMallocManaged(&out, blocks * BLOCK * sizeof(int));
    for (int i = 0; i < blocks * BLOCK; i++)
        in[i] = i;
    ::cugrade::kernel_launch(block_sum, "block_sum", __FILE__, __LINE__).config(blocks, BLOCK)(in, out, sync);
    bool right = cudaGetLastError() == cudaSuccess;
    for (int i = 0; i < blocks * BLOCK; i++) {
        int first = i / BLOCK * BLOCK, last = first + BLOCK - 1;
        right = right && out[i] == (first + last) * BLOCK / 2;
    }
    cudaFree(in);
    cudaFree(out);
    return right;
}

__global__ void transpose_tiles(const float *in, float *out, int n, bool sync)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    if (sync)
        __syncthreads();
    int tx = blockIdx.y * TILE + threadIdx.x, ty = blockIdx.x * TILE + threadIdx.y;
    out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];
}

static bool transpose_right(bool sync)
{
    const int n = 48;
    float *in, *out;
    cudaMallocManaged(&in, n * n * sizeof(float));
    cudaMallocManaged(&out, n * n * sizeof(float));
    for (int i = 0; i < n * n; i++)
        in[i] = float(i);
    ::cugrade::kernel_launch(transpose_tiles, "transpose_tiles", __FILE__, __LINE__)
        .config(dim3(n / TILE, n / TILE), dim3(TILE, TILE))(in, out, n, sync);
    bool right = cudaGetLastError() == cudaSuccess;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            right = right && out[r * n + c] == in[c * n + r];
    cudaFree(in);
    cudaFree(out);
    return right;
}

Test(emu_barrier, reduction_forward)
{
    use_schedule("forward");
    cr_assert(sums_right(true));
    cr_assert_not(sums_right(false), "without barriers the reduction should be wrong");
}

Test(emu_barrier, reduction_reverse)
{
    use_schedule("reverse");
    cr_assert(sums_right(true));
    cr_assert_not(sums_right(false), "without barriers the reduction should be wrong");
}

Test(emu_barrier, transpose_forward)
{
    use_schedule("forward");
    cr_assert(transpose_right(true));
    cr_assert_not(transpose_right(false), "without the barrier the transpose should be wrong");
}

Test(emu_barrier, transpose_reverse)
{
    use_schedule("reverse");
    cr_assert(transpose_right(true));
    cr_assert_not(transpose_right(false), "without the barrier the transpose should be wrong");
}

/* The i-th barrier is passed by every thread before any passes the next. */
__global__ void barrier_epochs(int *arrivals, int *violations, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        atomicAdd(&arrivals[r], 1);
        __syncthreads();
        if (arrivals[r] != int(blockDim.x * blockDim.y))
            atomicAdd(violations, 1);
        __syncthreads();
    }
}

Test(emu_barrier, every_thread_arrives_before_any_leaves)
{
    const int rounds = 5;
    int *arrivals, *violations;
    cudaMallocManaged(&arrivals, rounds * sizeof(int));
    cudaMallocManaged(&violations, sizeof(int));
    memset(arrivals, 0, rounds * sizeof(int));
    *violations = 0;
    ::cugrade::kernel_launch(barrier_epochs, "barrier_epochs", __FILE__, __LINE__)
        .config(1, dim3(8, 12))(arrivals, violations, rounds);
    cr_assert_eq(*violations, 0);
    for (int r = 0; r < rounds; r++)
        cr_assert_eq(arrivals[r], 96);
}

__global__ void counting_barriers(int *out)
{
    int t = threadIdx.x;
    int count = __syncthreads_count(t % 3 == 0);
    int all = __syncthreads_and(t < 1000);
    int some = __syncthreads_or(t == 5);
    int none = __syncthreads_or(t > 1000);
    if (t == 0)
        out[0] = count, out[1] = all, out[2] = some, out[3] = none;
}

Test(emu_barrier, counting_forms)
{
    int *out;
    cudaMallocManaged(&out, 4 * sizeof(int));
    ::cugrade::kernel_launch(counting_barriers, "counting_barriers", __FILE__, __LINE__).config(1, 100)(out);
    cr_assert_eq(out[0], 34);
    cr_assert_eq(out[1], 1);
    cr_assert_eq(out[2], 1);
    cr_assert_eq(out[3], 0);
}

/* Threads past n return before the barrier: a divergent barrier. */
__global__ void early_return(float *data, int n)
{
    __shared__ float tile[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    tile[threadIdx.x] = data[i];
    __syncthreads();
    data[i] = tile[threadIdx.x] * 2.0f;
}

Test(emu_barrier, divergent_barrier_finishes_and_is_reported)
{
    std::string path = use_scratch_diag_file();
    const int n = 100;
    float *data;
    cudaMallocManaged(&data, 128 * sizeof(float));
    for (int i = 0; i < n; i++)
        data[i] = float(i);
    ::cugrade::kernel_launch(early_return, "early_return", __FILE__, __LINE__).config(2, 64)(data, n);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    for (int i = 0; i < n; i++)
        cr_assert_eq(data[i], 2.0f * float(i), "element %d", i);
    std::string diag = read_file(path);
    /* Only block 1 diverges: 36 threads wait, 28 returned. */
    cr_assert_eq(count_lines(diag, "error\tbarrier-divergence\t"), 1u, "diagnostics: %s", diag.c_str());
    cr_assert(diag.find("early_return") != std::string::npos, "%s", diag.c_str());
    cr_assert(diag.find("block (1,0,0)") != std::string::npos, "%s", diag.c_str());
    cr_assert(diag.find("36 of 64 threads (threads (0,0,0) to (35,0,0)) wait") != std::string::npos, "%s",
              diag.c_str());
    cr_assert(diag.find("28 (threads (36,0,0) to (63,0,0)) have already returned") != std::string::npos, "%s",
              diag.c_str());
    cr_assert(diag.find("test_emu_barrier.cpp:") != std::string::npos, "%s", diag.c_str());
    cudaFree(data);
}

/* Every block diverges: the file gets 10 lines and a summary of the rest. */
__global__ void half_block_barrier(int *out)
{
    if (threadIdx.x >= 32)
        return;
    __syncthreads();
    out[blockIdx.x * 32 + threadIdx.x] = 1;
}

Test(emu_barrier, divergence_reports_are_limited_per_launch)
{
    std::string path = use_scratch_diag_file();
    int *out;
    cudaMallocManaged(&out, 40 * 32 * sizeof(int));
    ::cugrade::kernel_launch(half_block_barrier, "half_block_barrier", __FILE__, __LINE__).config(40, 64)(out);
    for (int i = 0; i < 40 * 32; i++)
        cr_assert_eq(out[i], 1, "element %d", i);
    std::string diag = read_file(path);
    cr_assert_eq(count_lines(diag, "error\tbarrier-divergence\tBarrier divergence"), 10u, "%s", diag.c_str());
    cr_assert(diag.find("30 more barrier-divergence diagnostics") != std::string::npos, "%s", diag.c_str());
    cudaFree(out);
}

__global__ void split_barriers(int *out)
{
    if (threadIdx.x < 16) {
        out[threadIdx.x] = 1;
        __syncthreads();
    } else {
        out[threadIdx.x] = 2;
        __syncthreads();
    }
}

Test(emu_barrier, different_barrier_calls_give_a_warning)
{
    std::string path = use_scratch_diag_file();
    int *out;
    cudaMallocManaged(&out, 32 * sizeof(int));
    ::cugrade::kernel_launch(split_barriers, "split_barriers", __FILE__, __LINE__).config(1, 32)(out);
    std::string diag = read_file(path);
    cr_assert_eq(count_lines(diag, "warning\tbarrier-mismatch\t"), 1u, "%s", diag.c_str());
    cr_assert_eq(count_lines(diag, "error\t"), 0u, "%s", diag.c_str());
    cudaFree(out);
}
