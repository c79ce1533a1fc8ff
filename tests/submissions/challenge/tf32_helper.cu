/* tf32_helper.cu - challenge: the register-tiled kernel of register_tiled.cu
 * (right on every dataset), with a helper that rounds the inputs to TF32,
 * the tensor cores' 10-bit mantissa, switched off (USE_TF32 0). The source
 * names TF32, which the rule fp32-simt forbids: the rule is checked on what
 * the submission is made of, not only on what runs. It compiles on the
 * emulator, so it shows a broken rule next to a correct kernel.
 *
 * The grader should say: "rule fp32-simt: the submission uses TF32 (tensor
 * cores at reduced precision) (...tf32_helper.cu:14: USE_TF32)" in the
 * compiles test, which passes; every dataset, hidden dataset and check
 * passes (correctness is graded as usual); performance fails with the
 * rule's message (0 of 0 on the emulator, 0 of 50 on a GPU). */

#define USE_TF32 0

/* x with the low 13 bits of its mantissa cleared: TF32's precision */
__device__ float roundToTf32(float x)
{
    return __int_as_float(__float_as_int(x) & ~0x1fff);
}

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4
#define THREADS ((BM / TM) * (BN / TN)) /* 256 */

__global__ void sgemmTf32Helper(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK][BM]; /* As[k][m]: the A tile, transposed */
    __shared__ float Bs[BK][BN];
    const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN];
    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int e = threadIdx.x; e < BM * BK; e += THREADS) {
            int r = e / BK, k = e % BK, gr = row0 + r, gk = k0 + k;
            As[k][r] = gr < M && gk < K ? A[(size_t)gr * K + gk] : 0.0f;
        }
        for (int e = threadIdx.x; e < BK * BN; e += THREADS) {
            int k = e / BN, c = e % BN, gk = k0 + k, gc = col0 + c;
            Bs[k][c] = gk < K && gc < N ? B[(size_t)gk * N + gc] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < BK; k++) {
            float a[TM], b[TN];
            for (int i = 0; i < TM; i++)
                a[i] = USE_TF32 ? roundToTf32(As[k][ty * TM + i]) : As[k][ty * TM + i];
            for (int j = 0; j < TN; j++)
                b[j] = Bs[k][tx * TN + j];
            for (int i = 0; i < TM; i++)
                for (int j = 0; j < TN; j++)
                    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++) {
            int r = row0 + ty * TM + i, c = col0 + tx * TN + j;
            if (r < M && c < N)
                C[(size_t)r * N + c] = acc[i][j];
        }
}

void launchSgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    sgemmTf32Helper<<<grid, THREADS>>>(A, B, C, M, N, K);
}
