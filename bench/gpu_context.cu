/* gpu_context.cu - what one dataset process pays on a GPU before and around
 * its kernel, the costs a batch's list runs and crash lanes pay per process
 * (bench/gpu_context.sh runs many side by side): the driver's start
 * (cudaGetDeviceCount, which makes no context), the CUDA context
 * (cudaFree(0)), then one small dataset's round trip (three cudaMalloc, two
 * copies in, a kernel, a copy out, three cudaFree), then the context's end
 * (cudaDeviceReset, which a process's exit does otherwise). Prints
 * "CONTEXT_ms ROUND_TRIP_ms INIT_ms END_ms"; exit 1 with the CUDA error when
 * a call fails. */
#include <cuda_runtime.h>
#include <stdio.h>
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

int main(void)
{
    enum { N = 128 * 128 };
    static float ha[N], hb[N], hc[N];
    for (int i = 0; i < N; i++)
        ha[i] = (float)i, hb[i] = 1.0f;
    double t_start = now_ms();
    int devices = 0;
    CHECK(cudaGetDeviceCount(&devices));
    double t0 = now_ms();
    CHECK(cudaFree(0));
    double t1 = now_ms();
    float *a, *b, *c;
    CHECK(cudaMalloc((void **)&a, sizeof ha));
    CHECK(cudaMalloc((void **)&b, sizeof hb));
    CHECK(cudaMalloc((void **)&c, sizeof hc));
    CHECK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
    add<<<(N + 255) / 256, 256>>>(a, b, c, N);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    double t2 = now_ms();
    if (!(hc[N - 1] == (float)(N - 1) + 1.0f)) {
        fprintf(stderr, "gpu_context: wrong sum %g\n", hc[N - 1]);
        return 1;
    }
    double t3 = now_ms();
    CHECK(cudaDeviceReset());
    printf("%.1f %.1f %.1f %.1f\n", t1 - t0, t2 - t1, t0 - t_start, now_ms() - t3);
    return 0;
}
