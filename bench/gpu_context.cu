/* gpu_context.cu - what one dataset process pays on a GPU before and around
 * its kernel, the costs a batch's list runs and crash lanes pay per process
 * (bench/gpu_context.sh runs many side by side): the driver's start
 * (cudaGetDeviceCount, which makes no context), the CUDA context
 * (cudaFree(0)), then the datasets' round trips, then the context's end
 * (cudaDeviceReset, which a process's exit does otherwise).
 *
 *   gpu_context                 one small dataset: three cudaMalloc, two
 *                               copies in, a kernel, a copy out, three cudaFree
 *   gpu_context --list each     lab 3's list run: its 20 shipped shapes and 8
 *                               more, each with its own cudaMalloc, events and
 *                               cudaFree, as labs/kinds/matmul/driver.cu does
 *   gpu_context --list reuse    the same list, its buffers and events made once
 *                               for the largest shape and reused
 *   gpu_context --list guards   as each, every buffer between two 4 MiB guards
 *                               set by one cudaMemset of the whole, as the
 *                               drivers do (labs/common/harness_device.h)
 *   gpu_context --list guards-reuse
 *                               as reuse, the buffers between guards, each set
 *                               whole again for every dataset
 *
 * Prints "CONTEXT_ms ROUND_TRIPS_ms INIT_ms END_ms"; exit 1 with the CUDA
 * error when a call fails or a product is wrong. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t e_ = (call);                                                      \
        if (e_ != cudaSuccess) {                                                      \
            fprintf(stderr, "gpu_context: %s: %s\n", #call, cudaGetErrorString(e_)); \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void matmul(const float *A, const float *B, float *C, int M, int K, int N)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= M || c >= N)
        return;
    float s = 0.0f;
    for (int k = 0; k < K; k++)
        s += A[r * K + k] * B[k * N + c];
    C[r * N + c] = s;
}

/* datasets/lab3/manifest.txt's shapes (M K N), then 8 like the hidden ones */
static const int SHAPES[][3] = {
    {64, 64, 64},    {48, 48, 48},    {128, 128, 128}, {128, 64, 256},  {100, 128, 64},
    {256, 300, 256}, {256, 256, 257}, {100, 128, 56},  {1, 200, 1},     {64, 1, 48},
    {40, 7, 33},     {97, 89, 101},   {417, 210, 519}, {200, 100, 256}, {129, 257, 65},
    {16, 16, 16},    {32, 32, 32},    {1, 1, 1},       {2, 1000, 3},    {65, 33, 17},
    {300, 200, 100}, {77, 333, 99},   {256, 256, 256}, {199, 201, 203}, {33, 500, 47},
    {400, 400, 400}, {5, 123, 321},   {321, 77, 5}};
enum { NSHAPES = sizeof SHAPES / sizeof SHAPES[0], MAXF = 520 * 520 };

static float ha[MAXF], hb[MAXF], hc[MAXF];

#define GUARD ((size_t)4 << 20) /* labs/common/harness_device.h's HARNESS_GUARD_BYTES */

/* How a list run keeps its buffers and events. */
typedef struct {
    int reuse;    /* made once for the largest shape */
    size_t guard; /* each buffer between two guards of this many bytes */
} list_how_t;

/* A buffer of bytes between h's guards; its data at *d. */
static int make_buffer(const list_how_t *h, size_t bytes, float **base, float **d)
{
    CHECK(cudaMalloc((void **)base, bytes + 2 * h->guard));
    *d = (float *)((char *)*base + h->guard);
    return 0;
}

/* Sets a buffer of bytes (h's guards around it) to fill: all of it, guards
 * too, with guards; else its data alone, and an input not at all. */
static int set_buffer(const list_how_t *h, float *base, size_t bytes, int fill)
{
    if (h->guard)
        CHECK(cudaMemset(base, fill, bytes + 2 * h->guard));
    else if (fill == 0xff)
        CHECK(cudaMemset(base, fill, bytes));
    return 0;
}

/* One dataset's round trip; with h->reuse, into the buffers (of cap bytes
 * each) and events given. */
static int dataset(const int *s, const list_how_t *h, float **base, size_t cap, cudaEvent_t *ev)
{
    int M = s[0], K = s[1], N = s[2];
    size_t bytes[3] = {(size_t)M * K * 4, (size_t)K * N * 4, (size_t)M * N * 4};
    float *b[3], *d[3];
    cudaEvent_t e[2];
    if (h->reuse) {
        memcpy(b, base, sizeof b);
        memcpy(e, ev, sizeof e);
        for (int i = 0; i < 3; i++)
            d[i] = (float *)((char *)b[i] + h->guard);
    } else {
        for (int i = 0; i < 3; i++)
            if (make_buffer(h, bytes[i], &b[i], &d[i]) != 0)
                return 1;
        CHECK(cudaEventCreate(&e[0]));
        CHECK(cudaEventCreate(&e[1]));
    }
    for (int i = 0; i < 3; i++) /* the inputs' guards, the output's poison */
        if (set_buffer(h, b[i], h->reuse ? cap : bytes[i], i < 2 ? 0x7f : 0xff) != 0)
            return 1;
    CHECK(cudaMemcpy(d[0], ha, bytes[0], cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d[1], hb, bytes[1], cudaMemcpyHostToDevice));
    CHECK(cudaEventRecord(e[0]));
    matmul<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(d[0], d[1], d[2], M, K, N);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(e[1]));
    CHECK(cudaMemcpy(hc, d[2], bytes[2], cudaMemcpyDeviceToHost));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, e[0], e[1]));
    if (!(hc[0] == (float)K)) { /* every element of A and B is 1 */
        fprintf(stderr, "gpu_context: %dx%dx%d: C[0] = %g, not %d\n", M, K, N, hc[0], K);
        return 1;
    }
    if (!h->reuse) {
        for (int i = 0; i < 3; i++)
            CHECK(cudaFree(b[i]));
        for (int i = 0; i < 2; i++)
            CHECK(cudaEventDestroy(e[i]));
    }
    return 0;
}

static int list_run(const list_how_t *h)
{
    float *base[3] = {NULL, NULL, NULL}, *unused;
    cudaEvent_t ev[2];
    size_t cap = MAXF * sizeof(float);
    if (h->reuse) {
        for (int i = 0; i < 3; i++)
            if (make_buffer(h, cap, &base[i], &unused) != 0)
                return 1;
        CHECK(cudaEventCreate(&ev[0]));
        CHECK(cudaEventCreate(&ev[1]));
    }
    for (int k = 0; k < NSHAPES; k++)
        if (dataset(SHAPES[k], h, base, cap, ev) != 0)
            return 1;
    if (h->reuse) {
        for (int i = 0; i < 3; i++)
            CHECK(cudaFree(base[i]));
        CHECK(cudaEventDestroy(ev[0]));
        CHECK(cudaEventDestroy(ev[1]));
    }
    return 0;
}

static int one_dataset(void)
{
    enum { N = 128 * 128 };
    for (int i = 0; i < N; i++)
        ha[i] = (float)i, hb[i] = 1.0f;
    float *a, *b, *c;
    CHECK(cudaMalloc((void **)&a, N * sizeof(float)));
    CHECK(cudaMalloc((void **)&b, N * sizeof(float)));
    CHECK(cudaMalloc((void **)&c, N * sizeof(float)));
    CHECK(cudaMemcpy(a, ha, N * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb, N * sizeof(float), cudaMemcpyHostToDevice));
    add<<<(N + 255) / 256, 256>>>(a, b, c, N);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hc, c, N * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    if (!(hc[N - 1] == (float)(N - 1) + 1.0f)) {
        fprintf(stderr, "gpu_context: wrong sum %g\n", hc[N - 1]);
        return 1;
    }
    return 0;
}

/* "each", "reuse", "guards", "guards-reuse": how; else -1. */
static int list_how(const char *mode, list_how_t *h)
{
    static const char *const modes[] = {"each", "reuse", "guards", "guards-reuse"};
    for (int m = 0; m < 4; m++)
        if (strcmp(mode, modes[m]) == 0) {
            h->reuse = m % 2;
            h->guard = m >= 2 ? GUARD : 0;
            return 0;
        }
    return -1;
}

int main(int argc, char **argv)
{
    list_how_t how;
    int list = argc == 3 && strcmp(argv[1], "--list") == 0;
    if (argc != 1 && !(list && list_how(argv[2], &how) == 0)) {
        fprintf(stderr, "usage: gpu_context [--list each|reuse|guards|guards-reuse]\n");
        return 2;
    }
    if (list)
        for (int i = 0; i < MAXF; i++)
            ha[i] = hb[i] = 1.0f;
    double t_start = now_ms();
    int devices = 0;
    CHECK(cudaGetDeviceCount(&devices));
    double t0 = now_ms();
    CHECK(cudaFree(0));
    double t1 = now_ms();
    if ((list ? list_run(&how) : one_dataset()) != 0)
        return 1;
    double t2 = now_ms();
    CHECK(cudaDeviceReset());
    printf("%.1f %.1f %.1f %.1f\n", t1 - t0, t2 - t1, t0 - t_start, now_ms() - t2);
    return 0;
}
