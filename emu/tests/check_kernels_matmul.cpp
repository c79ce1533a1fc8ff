/* check_kernels_matmul.cpp - matrix-multiply test kernels for the checking
 * mode, compiled with -fsanitize=thread -O1 -g: the tiled kernel at tile
 * widths 8, 16 and 32 (check_tiled_kernel.h, with its bug switches), a
 * naive kernel without shared memory, and one whose threads outside C
 * return before the barriers. See check_kernels.h. */
#include "check_kernels.h"

kernel_lines g_lines;

#define CHECK_TILE 8
#define CHECK_KERNEL matmul_tiled8
#include "check_tiled_kernel.h"
#undef CHECK_TILE
#undef CHECK_KERNEL

#define CHECK_TILE 16
#define CHECK_KERNEL matmul_tiled16
#include "check_tiled_kernel.h"
#undef CHECK_TILE
#undef CHECK_KERNEL

#define CHECK_TILE 32
#define CHECK_KERNEL matmul_tiled32
#include "check_tiled_kernel.h"
#undef CHECK_TILE
#undef CHECK_KERNEL

__global__ void matmul_naive(const float *A, const float *B, float *C, int M, int K, int N)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k)
        sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum; g_lines.naive_store = __LINE__;
}

__global__ void matmul_early_return(const float *A, const float *B, float *C, int M, int K, int N)
{
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    if (row >= M || col >= N)
        return;
    float sum = 0.0f;
    for (int phase = 0; phase < (K + 15) / 16; ++phase) {
        As[ty][tx] = phase * 16 + tx < K ? A[row * K + phase * 16 + tx] : 0.0f;
        Bs[ty][tx] = phase * 16 + ty < K ? B[(phase * 16 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < 16; ++k)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = sum;
}

/* What the rewriter appends to a rewritten .cu file. */
static const int registered[] = {
    cugrade_register_kernel_params("matmul_tiled8", "A,B,C,M,K,N,bugs"),
    cugrade_register_kernel_params("matmul_tiled16", "A,B,C,M,K,N,bugs"),
    cugrade_register_kernel_params("matmul_tiled32", "A,B,C,M,K,N,bugs"),
    cugrade_register_kernel_params("matmul_naive", "A,B,C,M,K,N"),
    cugrade_register_kernel_params("matmul_early_return", "A,B,C,M,K,N"),
};

static dim3 grid_for(int tile, int M, int N) { return dim3((N + tile - 1) / tile, (M + tile - 1) / tile); }

void launch_tiled(int tile, const float *A, const float *B, float *C, int M, int K, int N, unsigned bugs)
{
    (void)registered;
    dim3 block(tile, tile);
    if (tile == 8)
        ::cugrade::kernel_launch(matmul_tiled8, "matmul_tiled8", __FILE__, __LINE__)
            .config(grid_for(8, M, N), block)(A, B, C, M, K, N, bugs);
    else if (tile == 16)
        ::cugrade::kernel_launch(matmul_tiled16, "matmul_tiled16", __FILE__, __LINE__)
            .config(grid_for(16, M, N), block)(A, B, C, M, K, N, bugs);
    else
        ::cugrade::kernel_launch(matmul_tiled32, "matmul_tiled32", __FILE__, __LINE__)
            .config(grid_for(32, M, N), block)(A, B, C, M, K, N, bugs);
}

void launch_naive(const float *A, const float *B, float *C, int M, int K, int N)
{
    ::cugrade::kernel_launch(matmul_naive, "matmul_naive", __FILE__, __LINE__)
        .config(grid_for(16, M, N), dim3(16, 16))(A, B, C, M, K, N);
}

void launch_early_return(const float *A, const float *B, float *C, int M, int K, int N)
{
    ::cugrade::kernel_launch(matmul_early_return, "matmul_early_return", __FILE__, __LINE__)
        .config(grid_for(16, M, N), dim3(16, 16))(A, B, C, M, K, N);
}
