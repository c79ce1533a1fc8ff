/* test_emu_pipeline.cpp - asynchronous copies (cuda_pipeline.h) on the
 * emulator: __pipeline_memcpy_async of 4, 8 and 16 bytes (with zfill)
 * lands at the __pipeline_wait_prior that covers its group and not before
 * (a read before it sees the block's fresh shared memory, the poison
 * pattern), __syncthreads() does not make another thread's copies land,
 * wait_prior(N) leaves the N most recent groups in flight and ignores
 * copies not yet committed, nvcuda::experimental's pipeline works, and a
 * copy the GPU would fault on (a bad size, a destination outside shared
 * memory, a misaligned address) is reported with the call's file:line. The
 * checking mode's view of the copies: test_emu_checks_async.cpp. */
#include <criterion/criterion.h>
#include <cuda_pipeline.h>

#include "emu_test_helpers.h"

static const unsigned kPoison = 0x7FBADBADu;

/* 32 threads: thread t copies in[4t..4t+3] to shared memory, as one 16-byte
 * copy (t % 4 == 0), two 8-byte ones (1), four 4-byte ones (2) or 16 bytes
 * of which the last 8 are zero-filled (3), and reads its own first word
 * before the wait (out[t]), then the word of the thread opposite after the
 * wait and a barrier (out[32 + 4t + e]). */
__global__ void copy_sizes(const unsigned *in, unsigned *out)
{
    __shared__ __align__(16) unsigned tile[128];
    unsigned t = threadIdx.x, *dst = &tile[4 * t];
    const unsigned *src = in + 4 * t;
    switch (t % 4) {
    case 0:
        __pipeline_memcpy_async(dst, src, 16);
        break;
    case 1:
        __pipeline_memcpy_async(dst, src, 8);
        __pipeline_memcpy_async(dst + 2, src + 2, 8);
        break;
    case 2:
        for (int e = 0; e < 4; e++)
            __pipeline_memcpy_async(dst + e, src + e, 4);
        break;
    default:
        __pipeline_memcpy_async(dst, src, 16, 8);
    }
    __pipeline_commit();
    out[t] = tile[4 * t]; /* too early: nothing has landed */
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int e = 0; e < 4; e++)
        out[32 + 4 * t + e] = tile[4 * (31 - t) + e];
}

Test(emu_pipeline, copies_land_at_the_wait_not_before)
{
    unsigned *in, *out;
    cudaMallocManaged(&in, 128 * sizeof(unsigned));
    cudaMallocManaged(&out, 160 * sizeof(unsigned));
    for (unsigned i = 0; i < 128; i++)
        in[i] = 1000 + i;
    ::cugrade::kernel_launch(copy_sizes, "copy_sizes", __FILE__, __LINE__).config(1, 32)(in, out);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    for (unsigned t = 0; t < 32; t++) {
        cr_assert_eq(out[t], kPoison, "thread %u read %#x before its wait", t, out[t]);
        unsigned from = 31 - t;
        for (unsigned e = 0; e < 4; e++) {
            unsigned want = from % 4 == 3 && e >= 2 ? 0 : in[4 * from + e];
            cr_assert_eq(out[32 + 4 * t + e], want, "thread %u element %u", t, e);
        }
    }
}

/* Thread 0 copies one word per group (groups 0, 1, 2) and one more it never
 * commits; out[] records what thread 1 sees of the four after each step. */
__global__ void groups_in_flight(const unsigned *in, unsigned *out)
{
    __shared__ __align__(16) unsigned words[4];
    if (threadIdx.x == 0) {
        for (int g = 0; g < 3; g++) {
            __pipeline_memcpy_async(&words[g], in + g, 4);
            __pipeline_commit();
        }
        __pipeline_memcpy_async(&words[3], in + 3, 4); /* not committed */
    }
    __syncthreads(); /* a barrier lands nothing */
    if (threadIdx.x == 1)
        for (int w = 0; w < 4; w++)
            out[w] = words[w];
    __syncthreads();
    if (threadIdx.x == 0)
        __pipeline_wait_prior(2); /* group 0 */
    __syncthreads();
    if (threadIdx.x == 1)
        for (int w = 0; w < 4; w++)
            out[4 + w] = words[w];
    __syncthreads();
    if (threadIdx.x == 0)
        __pipeline_wait_prior(0); /* groups 1 and 2, not the uncommitted copy */
    __syncthreads();
    if (threadIdx.x == 1)
        for (int w = 0; w < 4; w++)
            out[8 + w] = words[w];
    __syncthreads();
    if (threadIdx.x == 0) {
        __pipeline_commit();
        __pipeline_wait_prior(0);
    }
    __syncthreads();
    if (threadIdx.x == 1)
        for (int w = 0; w < 4; w++)
            out[12 + w] = words[w];
}

Test(emu_pipeline, wait_prior_leaves_the_newest_groups_and_uncommitted_copies)
{
    unsigned *in, *out;
    cudaMallocManaged(&in, 4 * sizeof(unsigned));
    cudaMallocManaged(&out, 16 * sizeof(unsigned));
    for (unsigned i = 0; i < 4; i++)
        in[i] = 7 + i;
    ::cugrade::kernel_launch(groups_in_flight, "groups_in_flight", __FILE__, __LINE__).config(1, 2)(in, out);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    const unsigned P = kPoison;
    const unsigned want[16] = {P, P, P, P, 7, P, P, P, 7, 8, 9, P, 7, 8, 9, 10};
    for (int i = 0; i < 16; i++)
        cr_assert_eq(out[i], want[i], "step %d word %d: %#x", i / 4, i % 4, out[i]);
}

/* A prior above 8 waits as 8 does (CUDA's __pipeline_wait_prior). */
__global__ void many_groups(const unsigned *in, unsigned *out)
{
    __shared__ unsigned words[12];
    for (int g = 0; g < 12; g++) {
        __pipeline_memcpy_async(&words[g], in + g, 4);
        __pipeline_commit();
    }
    __pipeline_wait_prior(100);
    for (int g = 0; g < 12; g++)
        out[g] = words[g];
    __pipeline_wait_prior(0);
}

Test(emu_pipeline, a_prior_above_eight_counts_as_eight)
{
    unsigned *in, *out;
    cudaMallocManaged(&in, 12 * sizeof(unsigned));
    cudaMallocManaged(&out, 12 * sizeof(unsigned));
    for (unsigned i = 0; i < 12; i++)
        in[i] = i;
    ::cugrade::kernel_launch(many_groups, "many_groups", __FILE__, __LINE__).config(1, 1)(in, out);
    for (unsigned g = 0; g < 12; g++)
        cr_assert_eq(out[g], g < 4 ? g : kPoison, "group %u", g);
}

/* nvcuda::experimental's pipeline: a float4 and a 2-of-4 segment. */
__global__ void cpp_pipeline(const float4 *in, float *out)
{
    __shared__ float4 v;
    __shared__ __align__(16) float seg[4];
    nvcuda::experimental::pipeline pipe;
    nvcuda::experimental::memcpy_async(v, in[0], pipe);
    nvcuda::experimental::memcpy_async(nvcuda::experimental::segment<4>(seg),
                                       nvcuda::experimental::segment<2>(reinterpret_cast<const float *>(in + 1)), pipe);
    size_t batch = pipe.commit();
    out[0] = float(batch);
    pipe.commit_and_wait();
    out[1] = v.x + v.w;
    for (int i = 0; i < 4; i++)
        out[2 + i] = seg[i];
}

Test(emu_pipeline, nvcuda_experimental_pipeline)
{
    float4 *in;
    float *out;
    cudaMallocManaged(&in, 2 * sizeof(float4));
    cudaMallocManaged(&out, 6 * sizeof(float));
    in[0] = make_float4(1, 2, 3, 4);
    in[1] = make_float4(5, 6, 7, 8);
    ::cugrade::kernel_launch(cpp_pipeline, "cpp_pipeline", __FILE__, __LINE__).config(1, 1)(in, out);
    cr_assert_eq(out[0], 0.0f);
    cr_assert_eq(out[1], 5.0f);
    cr_assert(out[2] == 5 && out[3] == 6 && out[4] == 0 && out[5] == 0, "%g %g %g %g", out[2], out[3], out[4], out[5]);
}

/* ---- copies a GPU would fault on -------------------------------------------------- */
static int g_bad_size_line, g_global_dst_line, g_misaligned_line;

__global__ void bad_copies(const float *in, float *out)
{
    __shared__ __align__(16) float s[8];
    s[0] = s[1] = -1.0f;
    __pipeline_memcpy_async(&s[0], in, 12); g_bad_size_line = __LINE__;
    __pipeline_memcpy_async(out, in, 4); g_global_dst_line = __LINE__;
    __pipeline_memcpy_async(&s[4], in + 1, 16); g_misaligned_line = __LINE__;
    __pipeline_commit();
    __pipeline_wait_prior(0);
    out[0] = s[0];
    out[1] = s[4];
}

Test(emu_pipeline, copies_a_gpu_faults_on_are_reported)
{
    float *in, *out;
    cudaMallocManaged(&in, 8 * sizeof(float));
    cudaMallocManaged(&out, 2 * sizeof(float));
    for (int i = 0; i < 8; i++)
        in[i] = float(i + 1);
    std::string path = use_scratch_diag_file();
    for (int launch = 0; launch < 2; launch++)
        ::cugrade::kernel_launch(bad_copies, "bad_copies", __FILE__, __LINE__).config(1, 2)(in, out);
    unsetenv("CUGRADE_EMU_DIAG");
    std::string diag = read_file(path);
    cr_assert_eq(out[0], -1.0f, "the 12-byte copy must not be done");
    cr_assert_eq(out[1], 2.0f, "the misaligned copy is still done");
    auto has = [&](int line, const char *what) {
        std::string where = std::string(__FILE__) + ":" + std::to_string(line) + " ";
        size_t at = diag.find(where);
        size_t end = at == std::string::npos ? at : diag.find('\n', at);
        return at != std::string::npos && diag.find(what, at) < end;
    };
    cr_assert(has(g_bad_size_line, "copies 4, 8 or 16 bytes"), "%s", diag.c_str());
    cr_assert(has(g_global_dst_line, "which is not shared memory"), "%s", diag.c_str());
    cr_assert(has(g_misaligned_line, "from a global address that is not a multiple of 16"), "%s", diag.c_str());
    cr_assert(has(g_misaligned_line, "cudaErrorMisalignedAddress"), "%s", diag.c_str());
    cr_assert_eq(count_lines(diag, "error\tinvalid-address\tInvalid asynchronous copy in kernel bad_copies"), 6u,
                 "once per call site and launch, not per thread:\n%s", diag.c_str());
}
