// ptx_conformance.cu - the executor against a real GPU (make gpu-test,
// tests/gpu/ptx_conformance.sh): one program, built twice from the same
// source, once with libcudart (it runs on the GPU) and once with
// emu/vcudart (its kernels run on the executor, bin/cugrade-vgpu); each
// prints every result of the conformance kernels (emu/tests/ptx/), exact
// ones as hex, the approximate intrinsics' to 5 digits; the two outputs
// must be the same.
#include "../../emu/tests/ptx/conformance.cu"
#include "../../emu/tests/ptx/features.cu"
#include "../../emu/tests/ptx/conformance_inputs.h"

#include <cstdio>
#include <vector>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorName(e_));                      \
            return 2;                                                                      \
        }                                                                                  \
    } while (0)

template <typename T> static T *dev(const std::vector<T> &v)
{
    T *p = nullptr;
    if (cudaMalloc((void **)&p, v.size() * sizeof(T)) != cudaSuccess ||
        cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice) != cudaSuccess)
        return nullptr;
    return p;
}

template <typename T> static void dump(const char *name, const T *d, size_t n)
{
    std::vector<T> h(n);
    cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
    const unsigned char *b = (const unsigned char *)h.data();
    printf("%s:", name);
    for (size_t i = 0; i < n * sizeof(T); i++)
        printf("%s%02x", i % sizeof(T) ? "" : " ", b[i]);
    printf("\n");
}

int main()
{
    const int n = 100;
    ConformanceInputs inputs = conformance_inputs(n);
    int *din = dev(inputs.in);
    char *db = dev(inputs.bytes);
    short *ds = dev(inputs.shorts);
    Pair *dp = dev(inputs.pairs);
    unsigned *du = dev(std::vector<unsigned>(8 * n));
    long long *dl = dev(std::vector<long long>(4 * n));
    double *dd = dev(std::vector<double>(3 * n));
    float *df = dev(std::vector<float>(3 * n));
    unsigned char *dc = dev(std::vector<unsigned char>(n));
    conformance<<<4, 32>>>(din, db, ds, du, dl, dd, df, dc, dp, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    dump("u32", du, 8 * n);
    dump("i64", dl, 4 * n);
    dump("f64", dd, 3 * n);
    dump("f32", df, 3 * n);
    dump("u8", dc, n);
    dump("pairs", (const unsigned char *)dp, n * sizeof(Pair));

    std::vector<float> x(64);
    for (int i = 0; i < 64; i++)
        x[i] = (float)((i * 37) % 23) - 11.5f;
    float *dx = dev(x), *sums = dev(std::vector<float>(2));
    unsigned *ballots = dev(std::vector<unsigned>(2));
    int *alls = dev(std::vector<int>(2));
    warpVotes<<<1, 64>>>(dx, sums, ballots, alls);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    dump("warp sums", sums, 2);
    dump("ballots", ballots, 2);
    dump("alls", alls, 2);

    std::vector<int> vals(300);
    for (int i = 0; i < 300; i++)
        vals[i] = (i * 37) % 101;
    int *dv = dev(vals), *hist = dev(std::vector<int>(8)), *maxv = dev(std::vector<int>(1));
    float *fsum = dev(std::vector<float>(1));
    atomics<<<3, 128>>>(dv, 300, fsum, hist, maxv);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    dump("fsum", fsum, 1);
    dump("hist", hist, 8);
    dump("max", maxv, 1);

    std::vector<unsigned> u(32);
    for (int i = 0; i < 32; i++)
        u[i] = 0x9e3779b9u * (unsigned)(i + 1);
    unsigned *dbits = dev(u), *r = dev(std::vector<unsigned>(5 * 32));
    float *fx = dev(std::vector<float>(x.begin(), x.begin() + 32)), *fr = dev(std::vector<float>(4 * 32));
    mathAndBits<<<1, 32>>>(fx, dbits, fr, r);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    dump("bits", r, 5 * 32);
    std::vector<float> approx(4 * 32);
    cudaMemcpy(approx.data(), fr, approx.size() * sizeof(float), cudaMemcpyDeviceToHost);
    printf("approx:");
    for (float a : approx)
        printf(" %.5g", a);
    printf("\n");
    return 0;
}
