/* ptx_test_helpers.h - what the executor's tests (test_ptx_*.cpp) share: a
 * device with one of the kernels nvcc compiled to PTX at build time
 * (build/ptx/, the Makefile's PTX_KERNELS) loaded, its kernels found by
 * their unmangled name, and matrices in device memory. Run from the
 * repository root. */
#ifndef CUGRADE_PTX_TEST_HELPERS_H
#define CUGRADE_PTX_TEST_HELPERS_H

#include "ptx.h"

#include <criterion/criterion.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

static inline std::string ptx_text(const char *name)
{
    std::string path = std::string("build/ptx/") + name + ".ptx";
    std::ifstream in(path);
    cr_assert(in.good(), "cannot read %s (made by make from its .cu with nvcc -ptx)", path.c_str());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/* The mangled name of the kernel whose name is plain (".entry _Z<len><plain>"). */
static inline std::string mangled(const std::string &ptx, const char *plain)
{
    std::string key = "_Z" + std::to_string(strlen(plain)) + plain;
    size_t at = ptx.find(".entry " + key);
    cr_assert_neq(at, std::string::npos, "no kernel %s in the PTX", plain);
    at += 7;
    size_t end = ptx.find_first_of("( \n", at);
    return ptx.substr(at, end - at);
}

static inline ptx_device_t *device_with(const char *name)
{
    ptx_device_t *d = ptx_device_new();
    cr_assert_not_null(d);
    std::string text = ptx_text(name);
    char err[256] = "";
    cr_assert_eq(ptx_load(d, text.data(), text.size(), err, sizeof err), PTX_OK, "%s: %s", name, err);
    return d;
}

static inline std::vector<float> random_floats(size_t n, unsigned seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (float &x : v)
        x = dist(gen);
    return v;
}

static inline uint64_t to_device(ptx_device_t *d, const std::vector<float> &v)
{
    uint64_t p = ptx_malloc(d, v.size() * sizeof(float));
    cr_assert_neq(p, 0u);
    cr_assert_eq(ptx_copy_to_device(d, p, v.data(), v.size() * sizeof(float)), PTX_OK);
    return p;
}

static inline std::vector<float> from_device(ptx_device_t *d, uint64_t p, size_t n)
{
    std::vector<float> v(n);
    cr_assert_eq(ptx_copy_from_device(d, v.data(), p, n * sizeof(float)), PTX_OK);
    return v;
}

/* A product C = A B of random A (m x k) and B (k x n) on the device, by a
 * matmul kernel of the lab's signature (A, B, C and the six sizes) in tile x
 * tile blocks (16 unless said): the launch's result into r, and A, B and
 * C's addresses. */
struct Product {
    std::vector<float> a, b;
    uint64_t da, db, dc;
    ptx_status_t status;
};

static inline Product launch_product(ptx_device_t *d, const char *ptx, const char *kernel, int m, int k,
                                     int n, ptx_launch_result_t &r, unsigned tile = 16)
{
    std::string name = mangled(ptx_text(ptx), kernel);
    Product p;
    p.a = random_floats((size_t)m * k, 1), p.b = random_floats((size_t)k * n, 2);
    p.da = to_device(d, p.a), p.db = to_device(d, p.b);
    p.dc = ptx_malloc(d, (size_t)m * n * sizeof(float));
    int rows_a = m, cols_a = k, rows_b = k, cols_b = n, rows_c = m, cols_c = n;
    void *args[] = {&p.da, &p.db, &p.dc, &rows_a, &cols_a, &rows_b, &cols_b, &rows_c, &cols_c};
    ptx_dim3_t grid = {((unsigned)n + tile - 1) / tile, ((unsigned)m + tile - 1) / tile, 1}, block = {tile, tile, 1};
    p.status = ptx_launch(d, name.c_str(), grid, block, 0, args, 0, &r);
    return p;
}

#endif
