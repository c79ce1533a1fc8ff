/* check_tiled_kernel.h - the lab's tiled matrix multiply as a test kernel
 * for the checking mode, with switches that put the students' classic bugs
 * in (see check_kernels.h: kMissingFirstBarrier, ...). Included once per
 * tile width by check_kernels_matmul.cpp, with CHECK_TILE and CHECK_KERNEL
 * defined (no include guard on purpose); each statement the tests look for
 * records its line in g_lines as it runs. */

__global__ void CHECK_KERNEL(const float *A, const float *B, float *C, int M, int K, int N, unsigned bugs)
{
    __shared__ float tileA[CHECK_TILE][CHECK_TILE];
    __shared__ float tileB[CHECK_TILE][CHECK_TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * CHECK_TILE + ty, col = blockIdx.x * CHECK_TILE + tx;
    const bool guard_loads = !(bugs & kUnguardedLoads);
    float sum = 0.0f;
    for (int phase = 0; phase < (K + CHECK_TILE - 1) / CHECK_TILE; ++phase) {
        const int aCol = phase * CHECK_TILE + tx, bRow = phase * CHECK_TILE + ty;
        tileA[ty][tx] = !guard_loads || (row < M && aCol < K) ? A[row * K + aCol] : 0.0f; g_lines.load_a = __LINE__;
        tileB[ty][tx] = !guard_loads || (bRow < K && col < N) ? B[bRow * N + col] : 0.0f; g_lines.load_b = __LINE__;
        if (!(bugs & kMissingFirstBarrier))
            __syncthreads();
        for (int k = 0; k < CHECK_TILE; ++k) {
            sum += tileA[ty][k] * tileB[k][tx]; g_lines.read_tiles = __LINE__;
        }
        if (!(bugs & kMissingSecondBarrier))
            __syncthreads();
    }
    if ((bugs & kUnguardedStore) || (row < M && col < N)) {
        C[row * N + col] = sum; g_lines.store_c = __LINE__;
    }
}
