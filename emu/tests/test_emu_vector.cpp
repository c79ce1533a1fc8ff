/* test_emu_vector.cpp - CUDA's vector types and the loads a tiled SGEMM
 * uses, on the emulator: the types' sizes and alignments are CUDA's (float4
 * 16 bytes aligned to 16, float2 8, the *_32a forms 32), make_* builds
 * them; float4 loads and stores through reinterpret_cast, between global
 * and shared memory, move the right elements; __ldg reads float, float2,
 * float4, int, int4 and double; __stcg & co. write; `__restrict__` and
 * `__launch_bounds__` compile. (Misaligned vector accesses: the checking
 * mode, test_emu_checks_async.cpp.) */
#include <criterion/criterion.h>

#include "emu_test_helpers.h"

static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4");
static_assert(sizeof(float2) == 8 && alignof(float2) == 8, "float2");
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3");
static_assert(sizeof(int4) == 16 && alignof(int4) == 16, "int4");
static_assert(sizeof(uint4) == 16 && alignof(uint4) == 16, "uint4");
static_assert(sizeof(int2) == 8 && alignof(int2) == 8, "int2");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "double2");
static_assert(sizeof(double4) == 32 && alignof(double4) == 16, "double4");
static_assert(sizeof(double4_32a) == 32 && alignof(double4_32a) == 32, "double4_32a");
static_assert(sizeof(longlong4) == 32 && alignof(longlong4) == 16, "longlong4");
static_assert(sizeof(ulonglong3) == 24 && alignof(ulonglong3) == 8, "ulonglong3");
static_assert(sizeof(char4) == 4 && alignof(char4) == 4, "char4");
static_assert(sizeof(short4) == 8 && alignof(short4) == 8, "short4");

Test(emu_vector, make_functions_and_members)
{
    float4 f = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
    cr_assert(f.x == 1.0f && f.y == 2.0f && f.z == 3.0f && f.w == 4.0f);
    int2 i = make_int2(-1, 7);
    cr_assert(i.x == -1 && i.y == 7);
    double4_32a d = make_double4_32a(0.5, 1.5, 2.5, 3.5);
    cr_assert(d.w == 3.5);
    ulonglong4 u = make_ulonglong4(1, 2, 3, 1ull << 40);
    cr_assert(u.w == 1ull << 40);
    float4 braced = {5.0f, 6.0f, 7.0f, 8.0f};
    cr_assert(braced.z == 7.0f);
}

/* Each block moves 64 floats through shared memory as float4s: 16 threads
 * load one float4 each from global memory, store it to shared memory, and
 * write back the float4 of the thread opposite, reversed, with the sum of
 * its elements read with __ldg. */
__global__ void __launch_bounds__(16, 1) swap_quads(const float *__restrict__ in, float *__restrict__ out,
                                                      float *__restrict__ sums)
{
    __shared__ __align__(16) float tile[64];
    const float4 *in4 = reinterpret_cast<const float4 *>(in + blockIdx.x * 64);
    *reinterpret_cast<float4 *>(&tile[threadIdx.x * 4]) = in4[threadIdx.x];
    __syncthreads();
    float4 v = *reinterpret_cast<const float4 *>(&tile[(15 - threadIdx.x) * 4]);
    reinterpret_cast<float4 *>(out + blockIdx.x * 64)[threadIdx.x] = make_float4(v.w, v.z, v.y, v.x);
    float4 g = __ldg(&in4[threadIdx.x]);
    sums[blockIdx.x * 16 + threadIdx.x] = g.x + g.y + g.z + g.w;
}

Test(emu_vector, float4_loads_and_stores_through_shared_memory)
{
    const int blocks = 3, n = blocks * 64;
    float *in, *out, *sums;
    cudaMallocManaged(&in, n * sizeof(float));
    cudaMallocManaged(&out, n * sizeof(float));
    cudaMallocManaged(&sums, blocks * 16 * sizeof(float));
    for (int i = 0; i < n; i++)
        in[i] = float(i);
    ::cugrade::kernel_launch(swap_quads, "swap_quads", __FILE__, __LINE__).config(blocks, 16)(in, out, sums);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < 16; t++) {
            for (int e = 0; e < 4; e++)
                cr_assert_eq(out[b * 64 + t * 4 + e], in[b * 64 + (15 - t) * 4 + 3 - e], "block %d thread %d", b, t);
            float *q = in + b * 64 + t * 4;
            cr_assert_eq(sums[b * 16 + t], q[0] + q[1] + q[2] + q[3]);
        }
}

/* __ldg of every type a tiled kernel reads, and the cache-hinted stores. */
__global__ void read_only_loads(const float *f, const float2 *f2, const float4 *f4, const int *i, const int4 *i4,
                                const double *d, double *out, int *iout)
{
    float2 a = __ldg(f2 + 1);
    float4 b = __ldg(f4 + 1);
    int4 c = __ldg(i4);
    out[0] = __ldg(f + 2) + a.x + a.y + b.x + b.w + __ldg(d) + __ldcg(f) + __ldcs(f + 1) + __ldca(f + 3);
    iout[0] = __ldg(i + 1) + c.x + c.w;
    __stcg(iout + 1, 41);
    __stcs(out + 1, 2.5);
    __stwt(iout + 2, __ldlu(i));
    __stwb(reinterpret_cast<int4 *>(iout) + 1, make_int4(1, 2, 3, 4));
}

Test(emu_vector, ldg_and_cache_hinted_loads_and_stores)
{
    float *f;
    float2 *f2;
    float4 *f4;
    int *i, *iout;
    int4 *i4;
    double *d, *out;
    cudaMallocManaged(&f, 4 * sizeof(float));
    cudaMallocManaged(&f2, 2 * sizeof(float2));
    cudaMallocManaged(&f4, 2 * sizeof(float4));
    cudaMallocManaged(&i, 2 * sizeof(int));
    cudaMallocManaged(&i4, sizeof(int4));
    cudaMallocManaged(&d, sizeof(double));
    cudaMallocManaged(&out, 2 * sizeof(double));
    cudaMallocManaged(&iout, 8 * sizeof(int));
    for (int k = 0; k < 4; k++)
        f[k] = float(k + 1);                     /* 1 2 3 4 */
    f2[1] = make_float2(10.0f, 20.0f);
    f4[1] = make_float4(100.0f, 0.0f, 0.0f, 200.0f);
    i[0] = 5;
    i[1] = 6;
    *i4 = make_int4(1000, 0, 0, 3000);
    *d = 0.25;
    ::cugrade::kernel_launch(read_only_loads, "read_only_loads", __FILE__, __LINE__)
        .config(1, 1)(f, f2, f4, i, i4, d, out, iout);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    cr_assert_eq(out[0], 3.0 + 10 + 20 + 100 + 200 + 0.25 + 1 + 2 + 4);
    cr_assert_eq(out[1], 2.5);
    cr_assert_eq(iout[0], 6 + 1000 + 3000);
    cr_assert_eq(iout[1], 41);
    cr_assert_eq(iout[2], 5);
    cr_assert(iout[4] == 1 && iout[5] == 2 && iout[6] == 3 && iout[7] == 4);
}
