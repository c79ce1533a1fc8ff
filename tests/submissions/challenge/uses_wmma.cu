/* uses_wmma.cu - challenge: C = A * B on the tensor cores with WMMA in TF32
 * (16 x 16 x 8 fragments, one warp per 16 x 16 tile of C, edges padded
 * through shared memory). Valid CUDA that nvcc compiles for sm_80 and up,
 * and fast, but it breaks the lab's rule fp32-simt: tensor cores, and TF32
 * precision.
 *
 * The grader should say, on the emulator (which has no <mma.h>): "rule
 * fp32-simt: the submission uses tensor cores (...uses_wmma.cu:14: #include
 * <mma.h>)" in the compiles test, before the compiler's error; every other
 * test not run; performance 0 with the rule's message. On a GPU it compiles
 * and its datasets are graded (TF32 fails the tolerance on most), and its
 * SASS holds HMMA; performance is 0 with the same message. */
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

#define TILE 16
#define KSTEP 8

__global__ void sgemmWmma(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float a[TILE * KSTEP], b[KSTEP * TILE], c[TILE * TILE];
    const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE, lane = threadIdx.x;
    wmma::fragment<wmma::matrix_a, TILE, TILE, KSTEP, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, TILE, TILE, KSTEP, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, TILE, TILE, KSTEP, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += KSTEP) {
        for (int e = lane; e < TILE * KSTEP; e += 32) {
            int r = e / KSTEP, k = e % KSTEP;
            a[e] = row0 + r < M && k0 + k < K ? A[(size_t)(row0 + r) * K + k0 + k] : 0.0f;
            int kb = e / TILE, cb = e % TILE;
            b[e] = k0 + kb < K && col0 + cb < N ? B[(size_t)(k0 + kb) * N + col0 + cb] : 0.0f;
        }
        __syncwarp();
        wmma::load_matrix_sync(fa, a, KSTEP);
        wmma::load_matrix_sync(fb, b, TILE);
        wmma::mma_sync(fc, fa, fb, fc);
        __syncwarp();
    }
    wmma::store_matrix_sync(c, fc, TILE, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < TILE * TILE; e += 32) {
        int r = row0 + e / TILE, col = col0 + e % TILE;
        if (r < M && col < N)
            C[(size_t)r * N + col] = c[e];
    }
}

void launchSgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    sgemmWmma<<<grid, 32>>>(A, B, C, M, N, K);
}
