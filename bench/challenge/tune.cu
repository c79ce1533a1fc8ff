/* tune.cu - times several tilings of the challenge reference
 * (reference/challenge/sgemm.cu, included so its templates can be
 * instantiated with other tile sizes) against cuBLAS, in one process, with
 * the course's protocol (common.h), after a correctness sweep of every
 * tiling over awkward shapes.
 *
 *     tune                      sweep, then the timing table
 *     tune --one NAME MxKxN     one checked launch of NAME (for ncu)
 *
 * Exit 1 with a message on any CUDA error or wrong output. */
#include "../../reference/challenge/sgemm.cu"

#include "common.h"

/* Candidate tilings: <BM, BN, BK, WM, WN, TM, TN, STAGES, MIN_BLOCKS[, GROUP_M]>
 * (earlier rounds also tried 128x256 with BK 8 and 4 stages, BK 16 with 4
 * stages, BK 32 with 3; 256x128 with 16x8 per thread; 128x128 with 128
 * threads of 8x16: docs/benchmarks.md). */
typedef SgemmTiling<128, 256, 16, 64, 64, 8, 16, 3, 1> L_K16S3;
typedef SgemmTiling<128, 256, 32, 64, 64, 8, 16, 2, 1, 1> L_ROWMAJOR; /* no grouping */

template <class T, int SPLITS>
static void runTiling(const float *A, const float *B, float *C, int m, int n, int k)
{
    const bool vec = n % 4 == 0;
    if (SPLITS > 1)
        CK(cudaMemsetAsync(C, 0, (size_t)m * n * sizeof(float), 0));
    launchTiling<T>(A, B, C, m, n, k, SPLITS, vec);
}

static void runCublas(const float *A, const float *B, float *C, int m, int n, int k)
{
    cublasSgemmRowMajor(A, B, C, m, n, k);
}

static Impl g_impls[] = {
    {"cublas", runCublas},
    {"auto", launchSgemm},
    {"L128x256k32s2", runTiling<SgemmLarge, 1>},
    {"L_rowmajor", runTiling<L_ROWMAJOR, 1>},
    {"L128x256k16s3", runTiling<L_K16S3, 1>},
    {"M128x128k8s4", runTiling<SgemmMedium, 1>},
    {"S64x64", runTiling<SgemmSmall, 1>},
    {"L_split2", runTiling<SgemmLarge, 2>},
    {"L_split4", runTiling<SgemmLarge, 4>},
    {"M_split2", runTiling<SgemmMedium, 2>},
    {"M_split4", runTiling<SgemmMedium, 4>},
};
static const int N_IMPLS = sizeof g_impls / sizeof g_impls[0];

static Shape parseShape(const char *s)
{
    Shape sh;
    if (sscanf(s, "%dx%dx%d", &sh.m, &sh.k, &sh.n) != 3 || sh.m < 1 || sh.k < 1 || sh.n < 1) {
        fprintf(stderr, "FAILED: bad shape %s (want MxKxN)\n", s);
        exit(2);
    }
    return sh;
}

/* Every implementation on awkward shapes, each output checked. */
static void sweep(void)
{
    static const Shape shapes[] = {
        {1, 1, 1},     {1, 1000, 1},   {1000, 1, 1000}, {1, 513, 777},  {777, 513, 1},
        {127, 129, 131}, {64, 64, 64}, {257, 33, 255},  {3, 5000, 7},   {2048, 17, 4100},
        {129, 4097, 65}, {20000, 8, 12}, {300, 1, 4},   {5, 7, 2999},   {1000, 1000, 1000},
    };
    int bad = 0;
    for (const Shape &s : shapes) {
        Problem p = problemNew(s, 7u + s.m);
        for (int i = 1; i < N_IMPLS; i++) {
            Impl *im = &g_impls[i];
            implAlloc(im, &p);
            cudaEvent_t e0, e1;
            CK(cudaEventCreate(&e0));
            CK(cudaEventCreate(&e1));
            runChecked(im, &p, e0, e1, false);
            CK(cudaDeviceSynchronize());
            Verdict v = implVerdict(im);
            if (v.wrong) {
                printf("WRONG %-16s %dx%dx%d: %llu elements outside %.3g\n", im->name, s.m, s.k,
                       s.n, v.wrong, tolerance(s.k));
                bad = 1;
            }
            CK(cudaEventDestroy(e0));
            CK(cudaEventDestroy(e1));
            implFree(im);
        }
        problemFree(&p);
    }
    if (bad) {
        fprintf(stderr, "FAILED: wrong outputs in the sweep\n");
        exit(1);
    }
    printf("sweep: %d implementations x %d shapes correct\n", N_IMPLS - 1,
           (int)(sizeof shapes / sizeof shapes[0]));
}

static void timeShape(Shape s, int reps)
{
    Problem p = problemNew(s, 1);
    timeInterleaved(g_impls, N_IMPLS, &p, 2, reps);
    const double cublasMs = median(g_impls[0].ms);
    int bad = 0;
    for (int i = 0; i < N_IMPLS; i++) {
        Impl *im = &g_impls[i];
        Verdict v = implVerdict(im);
        const double ms = median(im->ms);
        const float mn = *std::min_element(im->ms.begin(), im->ms.end());
        const float mx = *std::max_element(im->ms.begin(), im->ms.end());
        printf("%5dx%dx%-5d %-16s %8.3f ms  %6.2f TFLOP/s  %6.1f%%  [%.3f..%.3f] err %.2g%s\n",
               s.m, s.k, s.n, im->name, ms, gflops(s, ms) / 1e3, 100.0 * cublasMs / ms, mn, mx,
               v.maxErr, v.wrong ? "  WRONG" : "");
        bad |= v.wrong != 0;
        implFree(im);
    }
    problemFree(&p);
    fflush(stdout);
    if (bad) {
        fprintf(stderr, "FAILED: wrong timed outputs\n");
        exit(1);
    }
}

int main(int argc, char **argv)
{
    CK(cudaSetDevice(0));
    flushInit();
    cublasInit();
    if (argc == 4 && strcmp(argv[1], "--one") == 0) {
        Shape s = parseShape(argv[3]);
        for (int i = 0; i < N_IMPLS; i++)
            if (strcmp(g_impls[i].name, argv[2]) == 0) {
                Problem p = problemNew(s, 1);
                timeInterleaved(&g_impls[i], 1, &p, 1, 1);
                Verdict v = implVerdict(&g_impls[i]);
                printf("%s %s: %.3f ms, %llu wrong\n", argv[2], argv[3], g_impls[i].ms[0],
                       v.wrong);
                return v.wrong ? 1 : 0;
            }
        fprintf(stderr, "FAILED: no implementation %s\n", argv[2]);
        return 2;
    }
    sweep();
    const Shape shapes[] = {
        {4096, 4096, 4096}, {3001, 2999, 3003}, {8192, 8192, 1024}, {1024, 1024, 8192},
        {1024, 8192, 1024},
    };
    for (const Shape &s : shapes)
        timeShape(s, 21);
    CKB(cublasDestroy(g_cublas));
    return 0;
}
