/* test_emu_matmul.cpp - the lab's kernel end to end: a tiled matrix multiply
 * (shared tiles, two barriers per phase, boundary checks) at an uneven
 * shape matches a CPU loop under both schedules, with static and with
 * dynamic shared tiles; the same kernel without the zero fill of partial
 * tiles does not (it reads tile slots no thread wrote in this block). */
#include <criterion/criterion.h>
#include <cmath>
#include <vector>

#include "emu_test_helpers.h"

#define TILE 16

__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int K, int N, bool zero_fill)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int phase = 0; phase < (K + TILE - 1) / TILE; ++phase) {
        int a_col = phase * TILE + threadIdx.x, b_row = phase * TILE + threadIdx.y;
        if (row < M && a_col < K)
            As[threadIdx.y][threadIdx.x] = A[row * K + a_col];
        else if (zero_fill)
            As[threadIdx.y][threadIdx.x] = 0.0f;
        if (b_row < K && col < N)
            Bs[threadIdx.y][threadIdx.x] = B[b_row * N + col];
        else if (zero_fill)
            Bs[threadIdx.y][threadIdx.x] = 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = sum;
}

/* The same with both tiles in dynamic shared memory (2*TILE*TILE floats),
 * as the rewriter emits `extern __shared__ float tiles[];`. */
__global__ void matmul_dynamic(const float *A, const float *B, float *C, int M, int K, int N)
{
    static float *const tiles = (float *)__cugrade_dynamic_smem;
    float *As = tiles, *Bs = tiles + TILE * TILE;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int phase = 0; phase < (K + TILE - 1) / TILE; ++phase) {
        As[ty * TILE + tx] = (row < M && phase * TILE + tx < K) ? A[row * K + phase * TILE + tx] : 0.0f;
        Bs[ty * TILE + tx] = (phase * TILE + ty < K && col < N) ? B[(phase * TILE + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += As[ty * TILE + k] * Bs[k * TILE + tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = sum;
}

/* Blocks covering C for the tests' TILE. */
static dim3 grid_for(const matrices &p) { return dim3((p.N + TILE - 1) / TILE, (p.M + TILE - 1) / TILE); }

static void check_static_tiles(const char *schedule)
{
    use_schedule(schedule);
    matrices p(67, 45, 93);
    ::cugrade::kernel_launch(matmul_tiled, "matmul_tiled", __FILE__, __LINE__)
        .config(grid_for(p), dim3(TILE, TILE))(p.dA, p.dB, p.dC, p.M, p.K, p.N, true);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    cr_assert_eq(p.wrong(), 0, "%s schedule", schedule);
}

Test(emu_matmul, uneven_shape_forward) { check_static_tiles("forward"); }

Test(emu_matmul, uneven_shape_reverse) { check_static_tiles("reverse"); }

Test(emu_matmul, dynamic_shared_tiles)
{
    matrices p(33, 70, 17);
    ::cugrade::kernel_launch(matmul_dynamic, "matmul_dynamic", __FILE__, __LINE__)
        .config(grid_for(p), dim3(TILE, TILE), 2 * TILE * TILE * sizeof(float))(p.dA, p.dB, p.dC, p.M, p.K, p.N);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    cr_assert_eq(p.wrong(), 0);
}

Test(emu_matmul, missing_zero_fill_is_caught)
{
    matrices p(40, 45, 40);
    ::cugrade::kernel_launch(matmul_tiled, "matmul_tiled", __FILE__, __LINE__)
        .config(grid_for(p), dim3(TILE, TILE))(p.dA, p.dB, p.dC, p.M, p.K, p.N, false);
    cr_assert_gt(p.wrong(), 0, "partial tiles read unwritten shared memory");
}
