/* assumes_multiple_of_128.cu - challenge: a register-tiled SGEMM (128 x 128
 * block tiles, 8 x 8 outputs per thread, k steps of 8) written for sides
 * that are multiples of its tiles: the grid is M / 128 x N / 128 rounded
 * down, the k loop runs K / 8 steps, and no load or store is guarded. Right
 * where M and N are multiples of 128 and K of 8.
 *
 * The grader should say: datasets 2 (128x128x128), 3 (128x64x256), 20
 * (512x512x512) and 23 (256x512x384) pass; where M or N is below 128 the
 * grid has a dimension of 0 (a CUDA error: "a grid dimension of 0 (a size
 * smaller than the block divided by it and rounded down?)"); where they are
 * larger but uneven, the last partial tile rows and columns are never
 * written ("the grid does not reach them ... (n + 128 - 1) / 128"); where K
 * is uneven too, the sum stops at the last whole k step ("K / TILE_WIDTH
 * rounds down"). */

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define THREADS ((BM / TM) * (BN / TN)) /* 256 */

__global__ void sgemmMultipleOf128(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN] = {};
    (void)M;

    for (int step = 0; step < K / BK; step++) {
        int k0 = step * BK;
        for (int e = threadIdx.x; e < BM * BK; e += THREADS) {
            int r = e / BK, k = e % BK;
            As[k][r] = A[(size_t)(row0 + r) * K + k0 + k];
        }
        for (int e = threadIdx.x; e < BK * BN; e += THREADS) {
            int k = e / BN, c = e % BN;
            Bs[k][c] = B[(size_t)(k0 + k) * N + col0 + c];
        }
        __syncthreads();
        for (int k = 0; k < BK; k++)
            for (int i = 0; i < TM; i++)
                for (int j = 0; j < TN; j++)
                    acc[i][j] += As[k][ty * TM + i] * Bs[k][tx * TN + j];
        __syncthreads();
    }

    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++)
            C[(size_t)(row0 + ty * TM + i) * N + col0 + tx * TN + j] = acc[i][j];
}

void launchSgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 grid(N / BN, M / BM); /* assumes M and N are multiples of 128 */
    sgemmMultipleOf128<<<grid, THREADS>>>(A, B, C, M, N, K);
}
