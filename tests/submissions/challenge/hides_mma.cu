/* hides_mma.cu - challenge: the register-tiled kernel of register_tiled.cu
 * (right on every dataset), plus a tensor-core instruction in inline PTX
 * that the source never spells: the PTX text is made by stringizing macro
 * arguments, so no string literal and no name in the source says mma or
 * tf32. It runs only when K < 0 (never), but it is in the machine code.
 *
 * The grader should say, on a GPU (tests/gpu/challenge.sh): every dataset
 * passes (correctness is graded as usual), and "rule fp32-simt: the
 * submission uses tensor cores (HMMA.1688.F32 in the SASS of
 * _Z10sgemmHidesPKfS0_Pfiii)": the SASS check of the object, performance 0.
 * On the emulator the PTX goes to the host's assembler, which refuses it
 * (the emulator runs no PTX): it does not compile. */

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4
#define THREADS ((BM / TM) * (BN / TN)) /* 256 */
#define TEXT(...) #__VA_ARGS__

/* One m16n8k8 product of FP16 fragments on the tensor cores. */
__device__ void tensorStep(float *d, unsigned a0, unsigned a1, unsigned b0)
{
    asm volatile(TEXT(mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3},
                      {%4, %5}, {%6}, {%0, %1, %2, %3};)
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a0), "r"(a1), "r"(b0));
}

__global__ void sgemmHides(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN] = {};
    if (K < 0) /* never: only to put the instruction in the program */
        tensorStep(&acc[0][0], (unsigned)M, (unsigned)N, (unsigned)K);
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
        for (int k = 0; k < BK; k++)
            for (int i = 0; i < TM; i++)
                for (int j = 0; j < TN; j++)
                    acc[i][j] = fmaf(As[k][ty * TM + i], Bs[k][tx * TN + j], acc[i][j]);
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
    sgemmHides<<<grid, THREADS>>>(A, B, C, M, N, K);
}
