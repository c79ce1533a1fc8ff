/* common.h - what bench/challenge/bench.cu and tune.cu share: error checks,
 * inputs, the check against cuBLAS and the course's timing protocol
 * (labs/kinds/matmul/perf.cu, docs/gpu.md): CUDA events on the legacy
 * default stream around each launch, output poisoned and L2 flushed before
 * every timed rep, implementations interleaved rep by rep, the median
 * reported, every timed output re-checked against cuBLAS.
 *
 * Shapes are written M x K x N (perf.cu's order): A is M x K, B is K x N. */
#ifndef CHALLENGE_COMMON_H
#define CHALLENGE_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

/* ---- errors: every failure is fatal, with a message ------------------------ */

#define CK(call)                                                                          \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            fprintf(stderr, "FAILED: %s at %s:%d: %s\n", #call, __FILE__, __LINE__,       \
                    cudaGetErrorString(e_));                                              \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

#define CKB(call)                                                                         \
    do {                                                                                  \
        cublasStatus_t s_ = (call);                                                       \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                \
            fprintf(stderr, "FAILED: %s at %s:%d: %s\n", #call, __FILE__, __LINE__,       \
                    cublasGetStatusString(s_));                                           \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

/* After a launch: did it start? (Faults show at the next synchronisation.) */
static void checkLaunch(const char *what)
{
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        fprintf(stderr, "FAILED: launching %s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}

/* ---- inputs and the check ------------------------------------------------------ */

struct Shape {
    int m, k, n;
};

static __device__ uint64_t mix64(uint64_t x) /* splitmix64's finalizer */
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Values in [-2, 2] in steps of 0.1, from a hash of (stream, i): signed, so
 * that sums cancel and a wrong term shows. */
static __global__ void fillKernel(float *m, size_t n, uint64_t stream)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        m[i] = ((float)(mix64(stream + mix64(i)) % 41u) - 20.0f) / 10.0f;
}

/* Counts elements with !(|got - want| <= tol), the negated form so that
 * NaN (the poison) counts, and keeps the largest error within tolerance.
 * An absolute tolerance (see tolerance()), since signed inputs make some
 * outputs near 0 where a relative test means nothing. */
static __global__ void countWrongKernel(const float *got, const float *want, size_t n, float tol,
                                        unsigned long long *wrong, float *maxErr)
{
    unsigned local = 0;
    float worst = 0.0f;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        float d = fabsf(got[i] - want[i]);
        if (!(d <= tol))
            local++;
        else
            worst = fmaxf(worst, d);
    }
    if (local)
        atomicAdd(wrong, (unsigned long long)local);
    atomicMax(reinterpret_cast<int *>(maxErr), __float_as_int(worst)); /* d >= 0 */
}

static int g_sms;

static void fill(float *m, size_t n, uint64_t stream)
{
    fillKernel<<<4 * g_sms, 256>>>(m, n, stream);
    checkLaunch("fillKernel");
}

/* Tolerance for a K-term dot product of values in [-2, 2]: partial sums
 * grow like sqrt(K), and two FP32 summation orders (cuBLAS's and ours)
 * differ by about 2^-24 * K there (2.5e-4 at K = 4096, measured lower);
 * 4e-6 * K is ~60 times that, while one missing or doubled product (about
 * 1 on average) is far outside it. */
static float tolerance(int k)
{
    return 4e-6f * (float)k + 1e-5f;
}

/* ---- cuBLAS: row-major C = A B as column-major C^T = B^T A^T ---------------------- */

static cublasHandle_t g_cublas;

static void cublasInit(void)
{
    CKB(cublasCreate(&g_cublas));
    CKB(cublasSetStream(g_cublas, 0));
    CKB(cublasSetMathMode(g_cublas, CUBLAS_DEFAULT_MATH)); /* FP32: no TF32 */
}

static void cublasSgemmRowMajor(const float *A, const float *B, float *C, int m, int n, int k)
{
    const float one = 1.0f, zero = 0.0f;
    CKB(cublasSgemm(g_cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &zero, C, n));
}

/* ---- the L2 flush ----------------------------------------------------------------- */

static void *g_flushBuf;
static size_t g_flushBytes;
static unsigned g_flushFills;

static void flushInit(void)
{
    int dev, l2;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    CK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, dev));
    g_flushBytes = 2 * (size_t)(l2 > 0 ? l2 : 64 << 20);
    CK(cudaMalloc(&g_flushBuf, g_flushBytes));
}

static void flushL2(void)
{
    CK(cudaMemsetAsync(g_flushBuf, (int)(g_flushFills++ % 255u), g_flushBytes, 0));
}

/* ---- one implementation under test ---------------------------------------------- */

typedef void (*GemmFn)(const float *A, const float *B, float *C, int m, int n, int k);

struct Impl {
    const char *name;
    GemmFn fn;
    float *C;                 /* its output */
    std::vector<float> ms;    /* event times of the timed reps */
    unsigned long long *wrong; /* device counter, all reps */
    float *maxErr;            /* device, all reps */
};

static double median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + v[n / 2]);
}

struct Problem {
    Shape s;
    float *A, *B, *want;
};

static Problem problemNew(Shape s, uint64_t seed)
{
    Problem p;
    p.s = s;
    CK(cudaMalloc(&p.A, (size_t)s.m * s.k * sizeof(float)));
    CK(cudaMalloc(&p.B, (size_t)s.k * s.n * sizeof(float)));
    CK(cudaMalloc(&p.want, (size_t)s.m * s.n * sizeof(float)));
    fill(p.A, (size_t)s.m * s.k, 2 * seed);
    fill(p.B, (size_t)s.k * s.n, 2 * seed + 1);
    cublasSgemmRowMajor(p.A, p.B, p.want, s.m, s.n, s.k);
    checkLaunch("cublasSgemm (expected output)");
    CK(cudaDeviceSynchronize());
    return p;
}

static void problemFree(Problem *p)
{
    CK(cudaFree(p->A));
    CK(cudaFree(p->B));
    CK(cudaFree(p->want));
}

static void implAlloc(Impl *im, const Problem *p)
{
    CK(cudaMalloc(&im->C, (size_t)p->s.m * p->s.n * sizeof(float)));
    CK(cudaMalloc(&im->wrong, sizeof(unsigned long long)));
    CK(cudaMalloc(&im->maxErr, sizeof(float)));
    CK(cudaMemset(im->wrong, 0, sizeof(unsigned long long)));
    CK(cudaMemset(im->maxErr, 0, sizeof(float)));
    im->ms.clear();
}

static void implFree(Impl *im)
{
    CK(cudaFree(im->C));
    CK(cudaFree(im->wrong));
    CK(cudaFree(im->maxErr));
}

/* Poisons the output (0xFF bytes: NaN), launches, re-checks it. */
static void runChecked(Impl *im, const Problem *p, cudaEvent_t t0, cudaEvent_t t1, bool timed)
{
    const Shape s = p->s;
    const size_t n = (size_t)s.m * s.n;
    CK(cudaMemsetAsync(im->C, 0xFF, n * sizeof(float), 0));
    if (timed)
        flushL2();
    CK(cudaEventRecord(t0, 0));
    im->fn(p->A, p->B, im->C, s.m, s.n, s.k);
    CK(cudaEventRecord(t1, 0));
    checkLaunch(im->name);
    countWrongKernel<<<4 * g_sms, 256>>>(im->C, p->want, n, tolerance(s.k), im->wrong, im->maxErr);
    checkLaunch("countWrongKernel");
}

struct Verdict {
    unsigned long long wrong;
    float maxErr;
};

static Verdict implVerdict(const Impl *im)
{
    Verdict v;
    CK(cudaMemcpy(&v.wrong, im->wrong, sizeof v.wrong, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&v.maxErr, im->maxErr, sizeof v.maxErr, cudaMemcpyDeviceToHost));
    return v;
}

/* Times every implementation on problem p: `warmup` untimed launches each,
 * then `reps` rounds, each implementation once per round in order. Every
 * launch's output is checked; afterwards, im[i].ms holds the times. */
static void timeInterleaved(Impl *im, int nImpl, const Problem *p, int warmup, int reps)
{
    cudaEvent_t ev[64][2];
    for (int i = 0; i < nImpl; i++) {
        implAlloc(&im[i], p);
        CK(cudaEventCreate(&ev[i][0]));
        CK(cudaEventCreate(&ev[i][1]));
    }
    for (int w = 0; w < warmup; w++)
        for (int i = 0; i < nImpl; i++) {
            runChecked(&im[i], p, ev[i][0], ev[i][1], false);
            CK(cudaDeviceSynchronize()); /* a fault names its kernel */
        }
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < nImpl; i++)
            runChecked(&im[i], p, ev[i][0], ev[i][1], true);
        for (int i = 0; i < nImpl; i++) {
            float ms;
            CK(cudaEventSynchronize(ev[i][1]));
            CK(cudaEventElapsedTime(&ms, ev[i][0], ev[i][1]));
            im[i].ms.push_back(ms);
        }
    }
    for (int i = 0; i < nImpl; i++) {
        CK(cudaEventDestroy(ev[i][0]));
        CK(cudaEventDestroy(ev[i][1]));
    }
}

static double gflops(Shape s, double ms)
{
    return 2.0 * s.m * (double)s.k * s.n / (ms * 1e6);
}

#endif
