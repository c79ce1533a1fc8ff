/* bench.cu - the challenge lab's benchmark (bench/challenge.sh builds and
 * runs it): cuBLAS SGEMM, the lab 3 tiled reference, the untiled kernel
 * and the challenge reference, timed with the course's protocol (common.h)
 * at the challenge's shapes, after a correctness sweep of the challenge
 * reference over awkward shapes.
 *
 *     bench [--reps N] [--shape MxKxN]...     (default: 21 reps, the 4 shapes)
 *
 * Linked with reference/challenge/sgemm.cu (launchSgemm) and the two lab 3
 * files compiled with their launch function and kernel renamed
 * (-DlaunchMatrixMultiplyShared=lab3TiledLaunch ..., as the grader does),
 * so that both fit in one program.
 *
 * Prints one table; exit 0 only when every output was right, 1 with a
 * message on a wrong output or any CUDA or cuBLAS error, 2 on bad usage. */
#include "common.h"

void launchSgemm(const float *A, const float *B, float *C, int M, int N, int K);
void lab3TiledLaunch(const float *, const float *, float *, int, int, int, int, int, int);
void lab3NaiveLaunch(const float *, const float *, float *, int, int, int, int, int, int);

static void runCublas(const float *A, const float *B, float *C, int m, int n, int k)
{
    cublasSgemmRowMajor(A, B, C, m, n, k);
}

static void runLab3(const float *A, const float *B, float *C, int m, int n, int k)
{
    lab3TiledLaunch(A, B, C, m, k, k, n, m, n);
}

static void runNaive(const float *A, const float *B, float *C, int m, int n, int k)
{
    lab3NaiveLaunch(A, B, C, m, k, k, n, m, n);
}

static void runChallenge(const float *A, const float *B, float *C, int m, int n, int k)
{
    launchSgemm(A, B, C, m, n, k);
}

static Shape parseShape(const char *s)
{
    Shape sh;
    char end;
    if (sscanf(s, "%dx%dx%d%c", &sh.m, &sh.k, &sh.n, &end) != 3 || sh.m < 1 || sh.k < 1 ||
        sh.n < 1) {
        fprintf(stderr, "bench: bad shape '%s' (want MxKxN)\n", s);
        exit(2);
    }
    return sh;
}

/* The challenge reference on awkward shapes (K = 1, M or N = 1, sizes
 * that are no multiple of anything, tall and skinny), each output checked
 * against cuBLAS. Exit 1 if any is wrong. */
static void sweep(void)
{
    static const Shape shapes[] = {
        {1, 1, 1},       {1, 1000, 1},    {1000, 1, 1000}, {1, 513, 777},    {777, 513, 1},
        {127, 129, 131}, {64, 64, 64},    {257, 33, 255},  {3, 5000, 7},     {2048, 17, 4100},
        {129, 4097, 65}, {20000, 8, 12},  {300, 1, 4},     {5, 7, 2999},     {1000, 1000, 1000},
        {1, 8192, 4096}, {4096, 8192, 1}, {512, 512, 512}, {100000, 64, 16}, {1024, 8192, 1024},
    };
    const int n = (int)(sizeof shapes / sizeof shapes[0]);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        const Shape s = shapes[i];
        Problem p = problemNew(s, 100 + i);
        Impl im = {"challenge", runChallenge};
        implAlloc(&im, &p);
        cudaEvent_t e0, e1;
        CK(cudaEventCreate(&e0));
        CK(cudaEventCreate(&e1));
        runChecked(&im, &p, e0, e1, false);
        CK(cudaDeviceSynchronize());
        Verdict v = implVerdict(&im);
        if (v.wrong) {
            fprintf(stderr,
                    "bench: WRONG: challenge at %dx%dx%d: %llu of %lld elements off by more "
                    "than %.3g\n",
                    s.m, s.k, s.n, v.wrong, (long long)s.m * s.n, tolerance(s.k));
            bad = 1;
        }
        CK(cudaEventDestroy(e0));
        CK(cudaEventDestroy(e1));
        implFree(&im);
        problemFree(&p);
    }
    if (bad) {
        fprintf(stderr, "bench: FAILED: the challenge reference is wrong on the shapes above\n");
        exit(1);
    }
    printf("correctness: the challenge reference matches cuBLAS on %d awkward shapes "
           "(K = 1, M = 1, N = 1, uneven, tall-skinny)\n", n);
}

int main(int argc, char **argv)
{
    int reps = 21;
    std::vector<Shape> shapes;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--shape") == 0 && i + 1 < argc)
            shapes.push_back(parseShape(argv[++i]));
        else {
            fprintf(stderr, "usage: bench [--reps N] [--shape MxKxN]...\n");
            return 2;
        }
    }
    if (reps < 1) {
        fprintf(stderr, "bench: --reps must be >= 1\n");
        return 2;
    }
    if (shapes.empty())
        shapes = {{4096, 4096, 4096}, {3001, 2999, 3003}, {8192, 8192, 1024}, {1024, 1024, 8192}};

    CK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int rt, drv, cublasVer;
    CK(cudaRuntimeGetVersion(&rt));
    CK(cudaDriverGetVersion(&drv));
    flushInit();
    cublasInit();
    CKB(cublasGetVersion(g_cublas, &cublasVer));
    printf("device: %s, %d SMs, runtime %d, driver %d, cuBLAS %d\n", prop.name,
           prop.multiProcessorCount, rt, drv, cublasVer);
    printf("protocol: 2 warm-ups, %d timed reps each, interleaved; output poisoned and L2 "
           "flushed (%zu MB) before every rep; median of CUDA event times; every output "
           "checked against cuBLAS\n", reps, g_flushBytes >> 20);
    sweep();

    Impl impls[] = {
        {"cuBLAS", runCublas},
        {"lab 3 tiled", runLab3},
        {"untiled", runNaive},
        {"challenge", runChallenge},
    };
    const int nImpl = (int)(sizeof impls / sizeof impls[0]);
    double logSum = 0;
    int bad = 0;
    printf("\n%-16s %-12s %9s %10s %9s %9s\n", "shape MxKxN", "kernel", "ms", "GFLOP/s",
           "% cuBLAS", "max err");
    for (const Shape &s : shapes) {
        Problem p = problemNew(s, 1);
        timeInterleaved(impls, nImpl, &p, 2, reps);
        const double cublasMs = median(impls[0].ms);
        char name[32];
        snprintf(name, sizeof name, "%dx%dx%d", s.m, s.k, s.n);
        for (int i = 0; i < nImpl; i++) {
            Verdict v = implVerdict(&impls[i]);
            const double ms = median(impls[i].ms);
            printf("%-16s %-12s %9.3f %10.0f %8.1f%% %9.2g%s\n", i ? "" : name, impls[i].name, ms,
                   gflops(s, ms), 100.0 * cublasMs / ms, v.maxErr, v.wrong ? "  WRONG" : "");
            if (v.wrong) {
                fprintf(stderr, "bench: WRONG: %s at %s: %llu elements off by more than %.3g\n",
                        impls[i].name, name, v.wrong, tolerance(s.k));
                bad = 1;
            }
            if (i == nImpl - 1)
                logSum += log(cublasMs / ms);
            implFree(&impls[i]);
        }
        problemFree(&p);
        fflush(stdout);
    }
    printf("challenge reference: geometric mean %.1f%% of cuBLAS over %zu shapes\n",
           100.0 * exp(logSum / shapes.size()), shapes.size());
    CKB(cublasDestroy(g_cublas));
    if (bad) {
        fprintf(stderr, "bench: FAILED: wrong outputs (above)\n");
        return 1;
    }
    return 0;
}
