/* test_ptx_kernels.cpp - the executor runs the course's reference kernels
 * from the PTX nvcc makes of them: lab 2's basic and lab 3's tiled matrix
 * product on shapes that are and are not multiples of the tile (every
 * element against a product in double precision), and the dot product's
 * shared-memory tree (the partial sums against double precision); with no
 * finding, the same instruction count each time, and every word of C known
 * to be the kernel's work (ptx_origin), on the fast paths and the general. */
#include "ptx_test_helpers.h"

#include <cmath>

static std::vector<double> product(const std::vector<float> &a, const std::vector<float> &b, int m,
                                   int k, int n)
{
    std::vector<double> c((size_t)m * n, 0.0);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            for (int p = 0; p < k; p++)
                c[(size_t)i * n + j] += (double)a[(size_t)i * k + p] * b[(size_t)p * n + j];
    return c;
}

/* C = A B on the device by kernel (16 x 16 blocks), checked element by
 * element, with the fast paths or the general path alone (fast); the
 * launch's instruction count. C's bits into bits when it is not null. */
static uint64_t matmul(const char *ptx, const char *kernel, int m, int k, int n, int fast = 1,
                       std::vector<float> *bits = nullptr)
{
    ptx_device_t *d = device_with(ptx);
    ptx_set_fast_paths(d, fast);
    ptx_launch_result_t r;
    Product p = launch_product(d, ptx, kernel, m, k, n, r);
    const std::vector<float> &a = p.a, &b = p.b;
    uint64_t da = p.da, dc = p.dc;
    cr_assert_eq(p.status, PTX_OK, "%s %dx%dx%d: %s", kernel, m, k, n, r.message);
    cr_assert_eq(r.nfindings, 0u);
    uint64_t words[3];
    cr_assert_eq(ptx_origin(d, dc, (size_t)m * n * sizeof(float), words), PTX_OK);
    cr_assert_eq(words[2], (uint64_t)m * n, "every word of C written by the kernel (fast %d)", fast);
    cr_assert_eq(ptx_origin(d, da, (size_t)m * k * sizeof(float), words), PTX_OK);
    cr_assert_eq(words[1], (uint64_t)m * k, "A came from the host");
    std::vector<float> c = from_device(d, dc, (size_t)m * n);
    std::vector<double> want = product(a, b, m, k, n);
    for (size_t i = 0; i < c.size(); i++)
        cr_assert(std::fabs(c[i] - want[i]) <= 1e-4 * (1 + std::fabs(want[i])),
                  "%s %dx%dx%d: C[%zu] = %g, want %g", kernel, m, k, n, i, c[i], want[i]);
    if (bits)
        *bits = c;
    ptx_device_free(d);
    return r.instructions;
}

Test(ptx_kernels, lab2_basic_matmul)
{
    cr_assert_gt(matmul("lab2", "matrixMultiply", 37, 29, 41), 0u);
    matmul("lab2", "matrixMultiply", 16, 16, 16);
    matmul("lab2", "matrixMultiply", 1, 1, 1);
}

Test(ptx_kernels, lab3_tiled_matmul_and_its_count_is_the_same_each_time)
{
    uint64_t first = matmul("lab3", "matrixMultiplyShared", 37, 29, 41);
    cr_assert_eq(matmul("lab3", "matrixMultiplyShared", 37, 29, 41), first);
    matmul("lab3", "matrixMultiplyShared", 64, 48, 32);
    matmul("lab3", "matrixMultiplyShared", 1, 200, 3);
}

Test(ptx_kernels, dotprod_partial_sums)
{
    const int n = 1000, threads = 256, blocks = (n + threads - 1) / threads;
    ptx_device_t *d = device_with("dotprod");
    std::string name = mangled(ptx_text("dotprod"), "dotProductShared");
    std::vector<float> a = random_floats(n, 3), b = random_floats(n, 4);
    uint64_t da = to_device(d, a), db = to_device(d, b), dp = ptx_malloc(d, blocks * sizeof(float));
    int count = n;
    void *args[] = {&da, &db, &dp, &count};
    ptx_launch_result_t r;
    cr_assert_eq(ptx_launch(d, name.c_str(), {(unsigned)blocks, 1, 1}, {threads, 1, 1}, 0, args, 0, &r),
                 PTX_OK, "%s", r.message);
    std::vector<float> partial = from_device(d, dp, blocks);
    for (int blk = 0; blk < blocks; blk++) {
        double want = 0;
        for (int i = blk * threads; i < n && i < (blk + 1) * threads; i++)
            want += (double)a[i] * b[i];
        cr_assert(std::fabs(partial[blk] - want) <= 1e-4, "block %d: %g, want %g", blk, partial[blk], want);
    }
    ptx_device_free(d);
}

Test(ptx_kernels, the_fast_paths_give_the_general_paths_bits_and_counts)
{
    const char *kernels[][2] = {{"lab2", "matrixMultiply"}, {"lab3", "matrixMultiplyShared"}};
    for (auto &k : kernels) {
        std::vector<float> fast, general;
        uint64_t nf = matmul(k[0], k[1], 37, 29, 41, 1, &fast);
        uint64_t ng = matmul(k[0], k[1], 37, 29, 41, 0, &general);
        cr_assert_eq(nf, ng, "%s: %llu instructions, %llu on the general path", k[1],
                     (unsigned long long)nf, (unsigned long long)ng);
        cr_assert_eq(memcmp(fast.data(), general.data(), fast.size() * sizeof(float)), 0,
                     "%s: the fast paths computed other bits", k[1]);
    }
}

