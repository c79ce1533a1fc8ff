/* emu_test_helpers.h - small helpers shared by the emulator's Criterion
 * tests: a scratch diagnostics file, the schedule switch, and device
 * matrices with a CPU reference product. Kernels and
 * launches stay in the test files, launches written in the rewritten form
 * ::cugrade::kernel_launch(k, "k", __FILE__, __LINE__).config(grid, block)(args). */
#ifndef CUGRADE_EMU_TEST_HELPERS_H
#define CUGRADE_EMU_TEST_HELPERS_H

#include <cmath>
#include <vector>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

/* Points CUGRADE_EMU_DIAG at a fresh empty file; returns its path. The
 * file goes away when read_file reads it. */
static inline std::string use_scratch_diag_file()
{
    char path[] = "/tmp/cugrade-emu-diag-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0)
        close(fd);
    setenv("CUGRADE_EMU_DIAG", path, 1);
    return path;
}

/* The whole file; a scratch diagnostics file is removed once read. */
static inline std::string read_file(const std::string &path)
{
    std::string text;
    FILE *f = fopen(path.c_str(), "r");
    if (!f)
        return text;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        text.append(buf, n);
    fclose(f);
    if (path.compare(0, 22, "/tmp/cugrade-emu-diag-") == 0)
        unlink(path.c_str());
    return text;
}

static inline size_t count_lines(const std::string &text, const std::string &prefix)
{
    size_t count = 0, pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        if (text.compare(pos, prefix.size(), prefix) == 0)
            count++;
        pos = end + 1;
    }
    return count;
}

static inline void use_schedule(const char *order) { setenv("CUGRADE_EMU_SCHEDULE", order, 1); }

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


#endif
