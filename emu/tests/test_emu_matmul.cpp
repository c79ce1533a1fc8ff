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

struct problem {
    int M, K, N;
    std::vector<float> A, B, expected;
    float *dA, *dB, *dC;

    problem(int m, int k, int n) : M(m), K(k), N(n), A(size_t(m) * k), B(size_t(k) * n), expected(size_t(m) * n)
    {
        for (size_t i = 0; i < A.size(); i++)
            A[i] = float(int(i * 37 % 19) - 9) / 4.0f;
        for (size_t i = 0; i < B.size(); i++)
            B[i] = float(int(i * 53 % 23) - 11) / 8.0f;
        for (int r = 0; r < M; r++)
            for (int c = 0; c < N; c++) {
                double s = 0;
                for (int j = 0; j < K; j++)
                    s += double(A[size_t(r) * K + j]) * B[size_t(j) * N + c];
                expected[size_t(r) * N + c] = float(s);
            }
        cudaMalloc(&dA, A.size() * sizeof(float));
        cudaMalloc(&dB, B.size() * sizeof(float));
        cudaMalloc(&dC, expected.size() * sizeof(float));
        cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice);
        cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice);
        cudaMemset(dC, 0xFF, expected.size() * sizeof(float));
    }
    ~problem()
    {
        cudaFree(dA);
        cudaFree(dB);
        cudaFree(dC);
    }
    dim3 grid() const { return dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE); }

    /* Elements of C that differ from the CPU result. */
    int wrong() const
    {
        std::vector<float> got(expected.size());
        cudaMemcpy(got.data(), dC, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
        int bad = 0;
        for (size_t i = 0; i < got.size(); i++)
            bad += !(std::fabs(got[i] - expected[i]) <= 1e-3f + 1e-4f * std::fabs(expected[i]));
        return bad;
    }
};

static void check_static_tiles(const char *schedule)
{
    use_schedule(schedule);
    problem p(67, 45, 93);
    ::cugrade::kernel_launch(matmul_tiled, "matmul_tiled", __FILE__, __LINE__)
        .config(p.grid(), dim3(TILE, TILE))(p.dA, p.dB, p.dC, p.M, p.K, p.N, true);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    cr_assert_eq(p.wrong(), 0, "%s schedule", schedule);
}

Test(emu_matmul, uneven_shape_forward) { check_static_tiles("forward"); }

Test(emu_matmul, uneven_shape_reverse) { check_static_tiles("reverse"); }

Test(emu_matmul, dynamic_shared_tiles)
{
    problem p(33, 70, 17);
    ::cugrade::kernel_launch(matmul_dynamic, "matmul_dynamic", __FILE__, __LINE__)
        .config(p.grid(), dim3(TILE, TILE), 2 * TILE * TILE * sizeof(float))(p.dA, p.dB, p.dC, p.M, p.K, p.N);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    cr_assert_eq(p.wrong(), 0);
}

Test(emu_matmul, missing_zero_fill_is_caught)
{
    problem p(40, 45, 40);
    ::cugrade::kernel_launch(matmul_tiled, "matmul_tiled", __FILE__, __LINE__)
        .config(p.grid(), dim3(TILE, TILE))(p.dA, p.dB, p.dC, p.M, p.K, p.N, false);
    cr_assert_gt(p.wrong(), 0, "partial tiles read unwritten shared memory");
}
