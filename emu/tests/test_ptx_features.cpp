/* test_ptx_features.cpp - the executor's conformance kernels beyond the
 * matrix product (emu/tests/ptx/features.cu, from nvcc's PTX): float4 loads
 * and stores, atomics in global and shared memory (f32 add, max, a
 * __device__ counter set from the host through its symbol), warp shuffles,
 * ballots and votes, __constant__ memory with an initializer, the fast math
 * intrinsics and bit instructions (popc, clz, brev, and bfe/bfi through
 * inline asm), printf (formatted by the executor, %n printed as it stands),
 * device functions nvcc did not inline (nested, predicated, with local
 * memory of their own; recursion refused by name), and what plain CUDA C
 * compiles to besides (conformance.cu: funnel shifts, byte permutes, sad,
 * bit finds, 24-bit and high multiplies, 64-bit division by constants, 8-
 * and 16-bit memory, half and double precision, a switch, a struct copy);
 * every result against what the C++ on the host computes. The tensor-core
 * instructions are refused by name. */
#include "ptx_test_helpers.h"

#include <algorithm>
#include <cmath>

static ptx_launch_result_t launch(ptx_device_t *d, const char *plain, unsigned blocks, unsigned threads,
                                  void **args)
{
    std::string name = mangled(ptx_text("features"), plain);
    ptx_launch_result_t r;
    cr_assert_eq(ptx_launch(d, name.c_str(), {blocks, 1, 1}, {threads, 1, 1}, 0, args, 0, &r), PTX_OK,
                 "%s: %s", plain, r.message);
    return r;
}

Test(ptx_features, float4_loads_and_stores)
{
    ptx_device_t *d = device_with("features");
    const int n = 37;
    std::vector<float> in = random_floats(4 * n, 5);
    uint64_t din = to_device(d, in), dout = ptx_malloc(d, in.size() * sizeof(float));
    int count = n;
    void *args[] = {&din, &dout, &count};
    launch(d, "vectorReverse", 2, 32, args);
    std::vector<float> out = from_device(d, dout, in.size());
    for (int i = 0; i < n; i++)
        for (int e = 0; e < 4; e++)
            cr_assert_eq(out[4 * i + e], in[4 * i + 3 - e], "element %d.%d", i, e);
    ptx_device_free(d);
}

Test(ptx_features, atomics_in_global_and_shared_memory)
{
    ptx_device_t *d = device_with("features");
    const int n = 300;
    std::vector<int> in(n);
    for (int i = 0; i < n; i++)
        in[i] = (i * 37) % 101;
    uint64_t din = ptx_malloc(d, n * sizeof(int)), fsum = ptx_malloc(d, 4), hist = ptx_malloc(d, 32),
             maxv = ptx_malloc(d, 4), got = ptx_malloc(d, 4);
    cr_assert_eq(ptx_copy_to_device(d, din, in.data(), n * sizeof(int)), PTX_OK);
    cr_assert_eq(ptx_memset(d, fsum, 0, 4), PTX_OK);
    cr_assert_eq(ptx_memset(d, hist, 0, 32), PTX_OK);
    cr_assert_eq(ptx_memset(d, maxv, 0, 4), PTX_OK);
    uint64_t counter;
    size_t size;
    cr_assert_eq(ptx_symbol(d, "counter", &counter, &size), PTX_OK);
    cr_assert_eq(size, 4u);
    int start = 100;
    cr_assert_eq(ptx_copy_to_device(d, counter, &start, 4), PTX_OK);
    int count = n;
    void *args[] = {&din, &count, &fsum, &hist, &maxv};
    launch(d, "atomics", 3, 128, args);
    void *args2[] = {&got};
    launch(d, "readCounter", 1, 1, args2);
    float sum;
    int h[8], mx, c;
    cr_assert_eq(ptx_copy_from_device(d, &sum, fsum, 4), PTX_OK);
    cr_assert_eq(ptx_copy_from_device(d, h, hist, 32), PTX_OK);
    cr_assert_eq(ptx_copy_from_device(d, &mx, maxv, 4), PTX_OK);
    cr_assert_eq(ptx_copy_from_device(d, &c, got, 4), PTX_OK);
    cr_assert_eq(sum, (float)n);
    cr_assert_eq(mx, *std::max_element(in.begin(), in.end()));
    cr_assert_eq(c, start + n, "the __device__ counter: %d", c);
    for (int k = 0; k < 8; k++)
        cr_assert_eq(h[k], (int)std::count_if(in.begin(), in.end(), [k](int v) { return (v & 7) == k; }),
                     "bin %d", k);
    ptx_device_free(d);
}

Test(ptx_features, warp_shuffles_ballots_and_votes)
{
    ptx_device_t *d = device_with("features");
    std::vector<float> in = random_floats(64, 6);
    in[40] = NAN; /* the second warp is not all finite */
    uint64_t din = to_device(d, in), sums = ptx_malloc(d, 8), ballots = ptx_malloc(d, 8), alls = ptx_malloc(d, 8);
    void *args[] = {&din, &sums, &ballots, &alls};
    launch(d, "warpVotes", 1, 64, args);
    std::vector<float> s = from_device(d, sums, 2);
    unsigned b[2];
    int a[2];
    cr_assert_eq(ptx_copy_from_device(d, b, ballots, 8), PTX_OK);
    cr_assert_eq(ptx_copy_from_device(d, a, alls, 8), PTX_OK);
    for (int w = 0; w < 2; w++) {
        unsigned want = 0;
        for (int l = 0; l < 32; l++)
            want |= (in[32 * w + l] > 0.0f ? 1u : 0u) << l;
        cr_assert_eq(b[w], want, "warp %d: ballot %08x, want %08x", w, b[w], want);
    }
    cr_assert_eq(a[0], 1);
    cr_assert_eq(a[1], 0, "a NaN in the second warp");
    /* lane 0's sum after the tree of shuffles, in the tree's order */
    float v[32];
    for (int l = 0; l < 32; l++)
        v[l] = in[l];
    for (int off = 16; off > 0; off /= 2)
        for (int l = 0; l + off < 32; l++)
            v[l] += v[l + off];
    cr_assert_eq(s[0], v[0], "warp 0: %g, want %g", s[0], v[0]);
    cr_assert(std::isnan(s[1]));
    ptx_device_free(d);
}

Test(ptx_features, constant_memory_with_its_initializer)
{
    ptx_device_t *d = device_with("features");
    const int n = 10;
    std::vector<float> in = random_floats(n, 7);
    uint64_t din = to_device(d, in), dout = ptx_malloc(d, n * sizeof(float));
    int count = n;
    void *args[] = {&din, &dout, &count};
    launch(d, "constantWeights", 1, 32, args);
    std::vector<float> out = from_device(d, dout, n);
    const float w[4] = {0.5f, 0.25f, 2.0f, -1.0f};
    for (int i = 0; i < n; i++)
        cr_assert_eq(out[i], in[i] * w[i & 3], "out[%d]", i);
    ptx_device_free(d);
}

Test(ptx_features, tensor_core_instructions_are_refused_by_name)
{
    std::string text = ptx_text("lab3");
    size_t at = text.find("fma.rn.f32");
    text.replace(at, text.find(';', at) - at,
                 "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r3}, {%f5,%f6,%f7,%f8}");
    ptx_device_t *d = ptx_device_new();
    char err[256] = "";
    cr_assert_eq(ptx_load(d, text.data(), text.size(), err, sizeof err), PTX_ERR_PARSE);
    cr_assert(strstr(err, "the tensor-core instruction 'mma.sync.aligned.m16n8k8"), "%s", err);
    ptx_device_free(d);
}

Test(ptx_features, math_intrinsics_and_bit_instructions)
{
    ptx_device_t *d = device_with("features");
    const int n = 32;
    std::vector<float> x = random_floats(n, 8);
    std::vector<unsigned> u(n);
    for (int i = 0; i < n; i++)
        u[i] = 0x9e3779b9u * (unsigned)(i + 1) ^ (i == 0 ? 0u : 0xf0000000u);
    u[1] = 0; /* clz of 0 is 32 */
    uint64_t dx = to_device(d, x), du = ptx_malloc(d, n * 4), df = ptx_malloc(d, 4 * n * 4),
             dr = ptx_malloc(d, 5 * n * 4);
    cr_assert_eq(ptx_copy_to_device(d, du, u.data(), n * 4), PTX_OK);
    void *args[] = {&dx, &du, &df, &dr};
    launch(d, "mathAndBits", 1, n, args);
    std::vector<float> f = from_device(d, df, 4 * n);
    std::vector<unsigned> r(5 * n);
    cr_assert_eq(ptx_copy_from_device(d, r.data(), dr, 5 * n * 4), PTX_OK);
    for (int i = 0; i < n; i++) {
        cr_assert(std::fabs(f[4 * i] - std::exp(x[i])) <= 1e-5f * std::exp(x[i]), "expf(%g): %g", x[i], f[4 * i]);
        cr_assert(std::fabs(f[4 * i + 1] - std::sin(x[i])) <= 1e-5f, "sinf(%g): %g", x[i], f[4 * i + 1]);
        cr_assert(std::fabs(f[4 * i + 2] - std::cos(x[i])) <= 1e-5f, "cosf(%g): %g", x[i], f[4 * i + 2]);
        cr_assert(std::fabs(f[4 * i + 3] - std::log2(std::fabs(x[i]) + 1.0f)) <= 1e-5f);
        unsigned a = u[i], brev = 0;
        for (int k = 0; k < 32; k++)
            brev |= ((a >> k) & 1u) << (31 - k);
        int top = (int)a >> 28; /* bits 28..31, sign-extended */
        cr_assert_eq(r[5 * i], (unsigned)__builtin_popcount(a), "popc(%08x)", a);
        cr_assert_eq(r[5 * i + 1], a ? (unsigned)__builtin_clz(a) : 32u, "clz(%08x)", a);
        cr_assert_eq(r[5 * i + 2], brev, "brev(%08x)", a);
        cr_assert_eq(r[5 * i + 3], ((a >> 4) & 0xffu) + (unsigned)top, "bfe(%08x)", a);
        cr_assert_eq(r[5 * i + 4], (0xffffffffu & ~0xf00u) | ((a & 0xfu) << 8), "bfi(%08x)", a);
    }
    ptx_device_free(d);
}

Test(ptx_features, printf_is_formatted_by_the_executor)
{
    ptx_device_t *d = device_with("features");
    const char text[] = "lab3";
    uint64_t name = ptx_malloc(d, sizeof text);
    cr_assert_eq(ptx_copy_to_device(d, name, text, sizeof text), PTX_OK);
    int n = 7;
    float x = 2.5f;
    void *args[] = {&n, &x, &name};
    launch(d, "prints", 1, 32, args);
    const char *line;
    cr_assert_eq(ptx_printed(d, 0, &line), 2u, "two threads printed");
    cr_assert_str_eq(line, "thread 0 of 7: x=2.50 lab3 2.5e+03 60129542144 ff % %n\n");
    ptx_printed(d, 1, &line);
    cr_assert_str_eq(line, "thread 1 of 7: x=2.50 lab3 2.5e+03 60129542144 ff % %n\n");
    ptx_device_free(d);
}

Test(ptx_features, device_functions_nvcc_did_not_inline)
{
    ptx_device_t *d = device_with("features");
    const int n = 50;
    std::vector<float> in = random_floats(n, 9);
    uint64_t din = to_device(d, in), dout = ptx_malloc(d, n * sizeof(float));
    int count = n;
    void *args[] = {&din, &dout, &count};
    launch(d, "deviceCalls", 2, 32, args);
    std::vector<float> out = from_device(d, dout, n);
    auto scaled = [](float v, float s) { return v * s + 1.0f; };
    for (int i = 0; i < n; i++) {
        float v = scaled(scaled(in[i], 2.0f), 0.5f);
        if (i & 1)
            v = scaled(v, -1.0f);
        for (int k = 0; k < i % 5; k++)
            v += 1.0f * (float)(k & 7);
        cr_assert(std::fabs(out[i] - v) <= 1e-5f * (1 + std::fabs(v)), "out[%d] = %g, want %g", i, out[i], v);
    }
    ptx_device_free(d);
    std::string text = ptx_text("recursion");
    d = ptx_device_new();
    char err[256] = "";
    cr_assert_eq(ptx_load(d, text.data(), text.size(), err, sizeof err), PTX_ERR_PARSE);
    cr_assert(strstr(err, "'_Z3fibi' calls itself (recursion"), "%s", err);
    ptx_device_free(d);
}

struct Pair { /* conformance.cu's */
    int a;
    short b;
    char c;
    double d;
};

#include "ptx/conformance_inputs.h"

static unsigned funnel_left(unsigned lo, unsigned hi, unsigned n)
{
    return (unsigned)((((unsigned long long)hi << 32 | lo) << (n & 31)) >> 32);
}

static unsigned funnel_right(unsigned lo, unsigned hi, unsigned n)
{
    return (unsigned)((((unsigned long long)hi << 32 | lo) >> (n & 31)) & 0xffffffffu);
}

static unsigned byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long both = (unsigned long long)y << 32 | x;
    unsigned r = 0;
    for (int k = 0; k < 4; k++)
        r |= (unsigned)((both >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
    return r;
}

Test(ptx_features, plain_cuda_c_conformance)
{
    const int n = 100;
    ConformanceInputs inputs = conformance_inputs(n);
    const std::vector<int> &in = inputs.in;
    const std::vector<char> &bytes = inputs.bytes;
    const std::vector<short> &shorts = inputs.shorts;
    const std::vector<Pair> &pairs = inputs.pairs;
    ptx_device_t *d = device_with("conformance");
    uint64_t din = ptx_malloc(d, n * 4), db = ptx_malloc(d, n), ds = ptx_malloc(d, n * 2),
             du = ptx_malloc(d, 8 * n * 4), dl = ptx_malloc(d, 4 * n * 8), dd = ptx_malloc(d, 3 * n * 8),
             df = ptx_malloc(d, 3 * n * 4), dc = ptx_malloc(d, n), dp = ptx_malloc(d, n * sizeof(Pair));
    cr_assert_eq(ptx_copy_to_device(d, din, in.data(), n * 4), PTX_OK);
    cr_assert_eq(ptx_copy_to_device(d, db, bytes.data(), n), PTX_OK);
    cr_assert_eq(ptx_copy_to_device(d, ds, shorts.data(), n * 2), PTX_OK);
    cr_assert_eq(ptx_copy_to_device(d, dp, pairs.data(), n * sizeof(Pair)), PTX_OK);
    int count = n;
    void *args[] = {&din, &db, &ds, &du, &dl, &dd, &df, &dc, &dp, &count};
    std::string name = mangled(ptx_text("conformance"), "conformance");
    ptx_launch_result_t r;
    cr_assert_eq(ptx_launch(d, name.c_str(), {4, 1, 1}, {32, 1, 1}, 0, args, 0, &r), PTX_OK, "%s", r.message);
    std::vector<unsigned> u(8 * n);
    std::vector<long long> l(4 * n);
    std::vector<double> dv(3 * n);
    std::vector<float> f(3 * n);
    std::vector<unsigned char> c(n);
    std::vector<Pair> p(n);
    cr_assert_eq(ptx_copy_from_device(d, u.data(), du, 8 * n * 4), PTX_OK);
    cr_assert_eq(ptx_copy_from_device(d, l.data(), dl, 4 * n * 8), PTX_OK);
    cr_assert_eq(ptx_copy_from_device(d, dv.data(), dd, 3 * n * 8), PTX_OK);
    cr_assert_eq(ptx_copy_from_device(d, f.data(), df, 3 * n * 4), PTX_OK);
    cr_assert_eq(ptx_copy_from_device(d, c.data(), dc, n), PTX_OK);
    cr_assert_eq(ptx_copy_from_device(d, p.data(), dp, n * sizeof(Pair)), PTX_OK);
    for (int i = 0; i < n; i++) {
        int x = in[i];
        unsigned w = (unsigned)x * 2654435761u;
        cr_assert_eq(u[8 * i + 0], funnel_left(w, w >> 3, (unsigned)x & 63), "funnel left, x = %d", x);
        cr_assert_eq(u[8 * i + 1], funnel_right(w, ~w, (unsigned)x & 31), "funnel right, x = %d", x);
        cr_assert_eq(u[8 * i + 2], byte_perm(w, 0x89abcdefu, (unsigned)x & 0xffff), "byte_perm, x = %d", x);
        cr_assert_eq(u[8 * i + 3], (unsigned)(std::abs(x - (7 - x)) + 3), "sad, x = %d", x);
        cr_assert_eq(u[8 * i + 4], (unsigned)((w ? __builtin_ctz(w) + 1 : 0) + (w ? __builtin_clz(w) : 32)), "ffs + clz");
        cr_assert_eq(u[8 * i + 5], (unsigned)(x * -3), "mul24");
        cr_assert_eq(u[8 * i + 6], (unsigned)(((unsigned long long)w * 0xdeadbeefu) >> 32), "umulhi");
        unsigned long long rev = 0, ww = (unsigned long long)(long long)w;
        for (int k = 0; k < 64; k++)
            rev |= ((ww >> k) & 1ull) << (63 - k);
        cr_assert_eq(u[8 * i + 7], (unsigned)((unsigned long long)__builtin_popcountll((unsigned long long)((long long)w << 20)) + rev % 97), "popcll + brevll");
        long long big = (long long)x * 1000000007LL - 12345;
        cr_assert_eq(l[4 * i + 0], big / 7);
        cr_assert_eq(l[4 * i + 1], big % 13);
        cr_assert_eq(l[4 * i + 2], (long long)((unsigned long long)big / 10u));
        long long sw;
        switch ((x + i) & 7) {
        case 0: sw = 1; break;
        case 1: sw = 10; break;
        case 2: sw = 100; break;
        case 3: sw = -1000; break;
        case 5: sw = big >> 40; break;
        default: sw = -big; break;
        }
        cr_assert_eq(l[4 * i + 3], sw, "switch, case %d", (x + i) & 7);
        double v = (double)x / 8.0;
        cr_assert(std::fabs(dv[3 * i] - std::sqrt(v * v + 1.0) / (v + 3.5)) <= 1e-15 * std::fabs(dv[3 * i]) + 1e-300);
        cr_assert_eq(dv[3 * i + 1], std::fma(v, 3.0, -0.1) + std::fmin(v, 2.0) + std::fabs(v));
        cr_assert_eq(dv[3 * i + 2], (double)(float)v);
        float g = (float)x * 0.37f;
        cr_assert_eq(f[3 * i], (float)(_Float16)g, "half round trip of %g: %g", g, f[3 * i]);
        cr_assert(std::fabs(f[3 * i + 1] - (std::sqrt(std::fabs(g)) + std::fmax(g, 0.5f) + std::copysign(1.0f, g))) <= 1e-5f * (1 + std::fabs(g)));
        _Float16 h = (_Float16)(g * 1000.0f);
        short hbits;
        memcpy(&hbits, &h, 2);
        cr_assert_eq(f[3 * i + 2], (float)hbits, "half bits of %g", g * 1000.0f);
        cr_assert_eq(c[i], (unsigned char)(bytes[i] + shorts[i]));
        cr_assert_eq(p[i].a, pairs[i].a + i);
        cr_assert_eq(p[i].b, (short)(pairs[i].b * 2));
        cr_assert_eq(p[i].c, (char)(pairs[i].c + 1));
        cr_assert_eq(p[i].d, pairs[i].d * -2.0);
    }
    ptx_device_free(d);
}

/* clock(), clock64(), %globaltimer, %smid, %nsmid, %warpid (emu/tests/ptx/
 * clocks.cu) load and run, answered with the executor's own values: time
 * moves forward within a kernel, the SM is one of 132, the second warp is
 * warp 1, and two runs give the same numbers (a kernel cannot tell a
 * loaded machine from an idle one). */
Test(ptx_features, clocks_and_sm_ids_are_the_executors_and_the_same_every_run)
{
    unsigned long long runs[2][6 * 140];
    for (int k = 0; k < 2; k++) {
        ptx_device_t *d = device_with("clocks");
        uint64_t out = ptx_malloc(d, sizeof runs[k]);
        void *args[] = {&out};
        std::string name = mangled(ptx_text("clocks"), "readClocks");
        ptx_launch_result_t r;
        cr_assert_eq(ptx_launch(d, name.c_str(), {140, 1, 1}, {64, 1, 1}, 0, args, 0, &r), PTX_OK, "%s",
                     r.message);
        cr_assert_eq(ptx_copy_from_device(d, runs[k], out, sizeof runs[k]), PTX_OK);
        ptx_device_free(d);
    }
    cr_assert_eq(memcmp(runs[0], runs[1], sizeof runs[0]), 0, "two runs, other clocks");
    for (int b = 0; b < 140; b++) {
        const unsigned long long *o = runs[0] + 6 * b;
        cr_assert_gt(o[0], 0ull, "block %d: clock64() did not move", b);
        cr_assert_lt(o[1], 132ull, "block %d: %%smid %llu", b, o[1]);
        cr_assert_eq(o[2], 132ull);
        cr_assert_eq(o[3], 1ull, "the second warp");
    }
    cr_assert_neq(runs[0][1], runs[0][6 + 1], "blocks 0 and 1 on different SMs");
}

/* An address below its register, "[%rd6+-4]" as nvcc writes it (a tiled
 * loop's pointer stepping past the element it reads): the executor read it
 * as "expected an address, found '-'" and could not run the kernel */
Test(ptx_features, negative_address_offsets)
{
    ptx_device_t *d = device_with("features");
    const int n = 77;
    std::vector<float> in = random_floats(n, 11);
    uint64_t din = to_device(d, in), dout = ptx_malloc(d, n * sizeof(float));
    int count = n;
    void *args[] = {&din, &dout, &count};
    launch(d, "negativeOffsets", 3, 32, args);
    std::vector<float> out = from_device(d, dout, n);
    for (int i = 2; i < n; i++)
        cr_assert_eq(out[i], in[i - 1] * 2.0f + in[i - 2], "element %d", i);
    ptx_device_free(d);
}
