// features.cu - the executor's conformance kernels beyond the matrix
// product (test_ptx_features.cpp): vector loads and stores, atomics in
// global and shared memory, warp shuffles and votes, a __device__ variable
// and __constant__ memory with an initializer.
__device__ int counter;
__constant__ float weights[4] = {0.5f, 0.25f, 2.0f, -1.0f};

__global__ void vectorReverse(const float4 *in, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i];
        out[i] = make_float4(v.w, v.z, v.y, v.x);
    }
}

__global__ void atomics(const int *in, int n, float *fsum, int *hist, int *maxv)
{
    __shared__ int local[8];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 8)
        local[threadIdx.x] = 0;
    __syncthreads();
    if (i < n) {
        atomicAdd(fsum, 1.0f);
        atomicAdd(&local[in[i] & 7], 1);
        atomicMax(maxv, in[i]);
        atomicAdd(&counter, 1);
    }
    __syncthreads();
    if (threadIdx.x < 8)
        atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

__global__ void warpVotes(const float *in, float *sums, unsigned *ballots, int *alls)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    unsigned positive = __ballot_sync(0xffffffffu, v > 0.0f);
    int all_finite = __all_sync(0xffffffffu, v == v);
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    __syncwarp();
    if ((threadIdx.x & 31) == 0) {
        int warp = i / 32;
        sums[warp] = v;
        ballots[warp] = positive;
        alls[warp] = all_finite;
    }
}

__global__ void constantWeights(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * weights[i & 3];
}

__global__ void readCounter(int *out)
{
    *out = counter;
}

__global__ void mathAndBits(const float *x, const unsigned *u, float *f, unsigned *r)
{
    int i = threadIdx.x;
    f[4 * i + 0] = __expf(x[i]);
    f[4 * i + 1] = __sinf(x[i]);
    f[4 * i + 2] = __cosf(x[i]);
    f[4 * i + 3] = __log2f(fabsf(x[i]) + 1.0f);
    unsigned a = u[i], bfe_u, bfi;
    int bfe_s;
    asm("bfe.u32 %0, %1, 4, 8;" : "=r"(bfe_u) : "r"(a));
    asm("bfe.s32 %0, %1, 28, 4;" : "=r"(bfe_s) : "r"(a));
    asm("bfi.b32 %0, %1, %2, 8, 4;" : "=r"(bfi) : "r"(a), "r"(0xffffffffu));
    r[5 * i + 0] = __popc(a);
    r[5 * i + 1] = __clz(a);
    r[5 * i + 2] = __brev(a);
    r[5 * i + 3] = bfe_u + (unsigned)bfe_s;
    r[5 * i + 4] = bfi;
}

#include <cstdio>

__global__ void prints(int n, float x, const char *name)
{
    if (threadIdx.x < 2)
        printf("thread %d of %d: x=%.2f %s %5.1e %lld %x %% %n\n", threadIdx.x, n, x, name,
               (double)x * 1000, (long long)n << 33, 255u, (int *)0);
}

__device__ __noinline__ float scaled(float v, float s) { return v * s + 1.0f; }
__device__ __noinline__ float twiceScaled(float v) { return scaled(scaled(v, 2.0f), 0.5f); }
__device__ __noinline__ void accumulateInto(float *dst, float v, int times)
{
    float local[8]; /* local memory of its own */
    for (int i = 0; i < 8; i++)
        local[i] = v * (float)i;
    for (int i = 0; i < times; i++)
        *dst += local[i & 7];
}

__global__ void deviceCalls(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = twiceScaled(in[i]);
        if (i & 1) /* a call some lanes make */
            v = scaled(v, -1.0f);
        out[i] = v;
        accumulateInto(&out[i], 1.0f, i % 5);
    }
}


/* Addresses below a register: nvcc writes their offsets "[%rd5+-4]" */
__global__ void negativeOffsets(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + 2;
    if (i < n) {
        const float *p = in + i;
        out[i] = p[-1] * 2.0f + p[-2];
    }
}
