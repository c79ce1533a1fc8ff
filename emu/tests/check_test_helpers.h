/* check_test_helpers.h - helpers of the checking-mode tests
 * (test_emu_checks*.cpp): device matrices with a CPU reference product, a
 * launch run with its diagnostics captured, and readers for the captured
 * lines ("error\trace\t...", "stat\tkey\tvalue"). */
#ifndef CUGRADE_CHECK_TEST_HELPERS_H
#define CUGRADE_CHECK_TEST_HELPERS_H

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "check_kernels.h"
#include "emu_test_helpers.h"

/* A, B (filled) and C (poisoned with 0xFF, as the harness does) on the
 * device, with the product computed on the CPU. */
struct matrices {
    int M, K, N;
    std::vector<float> A, B, expected;
    float *dA = nullptr, *dB = nullptr, *dC = nullptr;

    matrices(int m, int k, int n) : M(m), K(k), N(n), A(size_t(m) * k), B(size_t(k) * n), expected(size_t(m) * n)
    {
        for (size_t i = 0; i < A.size(); i++)
            A[i] = float(int(i * 37 % 19) - 9) / 4.0f;
        for (size_t i = 0; i < B.size(); i++)
            B[i] = float(int(i * 53 % 23) - 11) / 8.0f;
        for (int r = 0; r < M; r++)
            for (int c = 0; c < N; c++) {
                double s = 0;
                for (int j = 0; j < K; j++)
                    s += double(A[size_t(r) * K + j]) * B[size_t(j) * N + c];
                expected[size_t(r) * N + c] = float(s);
            }
        cudaMalloc(&dA, A.size() * sizeof(float));
        cudaMalloc(&dB, B.size() * sizeof(float));
        cudaMalloc(&dC, expected.size() * sizeof(float));
        cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice);
        cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice);
        cudaMemset(dC, 0xFF, expected.size() * sizeof(float));
    }
    ~matrices()
    {
        cudaFree(dA);
        cudaFree(dB);
        cudaFree(dC);
    }
    matrices(const matrices &) = delete;
    matrices &operator=(const matrices &) = delete;

    /* Elements of C that differ from the CPU product. */
    int wrong() const
    {
        std::vector<float> got(expected.size());
        cudaMemcpy(got.data(), dC, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
        int bad = 0;
        for (size_t i = 0; i < got.size(); i++)
            bad += !(std::fabs(got[i] - expected[i]) <= 1e-3f + 1e-4f * std::fabs(expected[i]));
        return bad;
    }
};

/* Runs f with a fresh diagnostics file; returns what was written to it. */
template <class F> std::string captured(F f)
{
    std::string path = use_scratch_diag_file();
    f();
    unsetenv("CUGRADE_EMU_DIAG");
    return read_file(path);
}

/* The lines of text that start with prefix. */
static inline std::vector<std::string> lines_starting(const std::string &text, const std::string &prefix)
{
    std::vector<std::string> found;
    for (size_t pos = 0, end; pos < text.size(); pos = end + 1) {
        end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        if (text.compare(pos, prefix.size(), prefix) == 0)
            found.push_back(text.substr(pos, end - pos));
    }
    return found;
}

/* Error and warning lines: findings of any kind. */
static inline size_t findings(const std::string &diag)
{
    return lines_starting(diag, "error\t").size() + lines_starting(diag, "warning\t").size();
}

/* The value of "stat\t<key>\t<value>" (the last one), or -1. */
static inline long long stat_value(const std::string &diag, const std::string &key)
{
    std::vector<std::string> lines = lines_starting(diag, "stat\t" + key + "\t");
    return lines.empty() ? -1 : std::atoll(lines.back().c_str() + 6 + key.size());
}

static inline bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

/* "check_tiled_kernel.h:21" */
static inline std::string at(const char *file, int line) { return std::string(file) + ":" + std::to_string(line); }

#endif
