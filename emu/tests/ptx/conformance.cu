// conformance.cu - the executor's tests (test_ptx_features.cpp): what plain
// CUDA C compiles to beyond the matrix product: funnel shifts, byte
// permutes, sums of absolute differences, bit finds, 24-bit and high
// multiplies, 64-bit division by constants, 8- and 16-bit loads and
// stores, half precision, double precision, a switch, a struct copy. Each
// thread writes its results; the test computes the same on the host.
#include <cuda_fp16.h>

struct Pair {
    int a;
    short b;
    char c;
    double d;
};

__global__ void conformance(const int *in, const char *bytes, const short *shorts, unsigned *u, long long *l,
                            double *d, float *f, unsigned char *c, Pair *pairs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = in[i];
    unsigned w = (unsigned)x * 2654435761u;
    u[8 * i + 0] = __funnelshift_l(w, w >> 3, x & 63);
    u[8 * i + 1] = __funnelshift_r(w, ~w, x & 31);
    u[8 * i + 2] = __byte_perm(w, 0x89abcdefu, (unsigned)x & 0xffff);
    u[8 * i + 3] = __sad(x, 7 - x, 3u);
    u[8 * i + 4] = __ffs(w) + __clz(w);
    u[8 * i + 5] = (unsigned)__mul24(x, -3);
    u[8 * i + 6] = __umulhi(w, 0xdeadbeefu);
    u[8 * i + 7] = (unsigned)(__popcll((long long)w << 20) + __brevll((long long)w) % 97);
    long long big = (long long)x * 1000000007LL - 12345;
    l[4 * i + 0] = big / 7;
    l[4 * i + 1] = big % 13;
    l[4 * i + 2] = (long long)((unsigned long long)big / 10u);
    switch ((x + i) & 7) {
    case 0: l[4 * i + 3] = 1; break;
    case 1: l[4 * i + 3] = 10; break;
    case 2: l[4 * i + 3] = 100; break;
    case 3: l[4 * i + 3] = -1000; break;
    case 5: l[4 * i + 3] = big >> 40; break;
    default: l[4 * i + 3] = -big; break;
    }
    double v = (double)x / 8.0;
    d[3 * i + 0] = sqrt(v * v + 1.0) / (v + 3.5);
    d[3 * i + 1] = fma(v, 3.0, -0.1) + fmin(v, 2.0) + fabs(v);
    d[3 * i + 2] = (double)(float)v;
    float g = (float)x * 0.37f;
    f[3 * i + 0] = __half2float(__float2half(g));
    f[3 * i + 1] = sqrtf(fabsf(g)) + fmaxf(g, 0.5f) + copysignf(1.0f, g);
    f[3 * i + 2] = (float)(short)__half_as_short(__float2half(g * 1000.0f));
    c[i] = (unsigned char)(bytes[i] + shorts[i]);
    Pair p = pairs[i];
    p.a += i;
    p.b = (short)(p.b * 2);
    p.c = (char)(p.c + 1);
    p.d *= -2.0;
    pairs[i] = p;
}
