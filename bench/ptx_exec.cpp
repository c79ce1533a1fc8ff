/* bench/ptx_exec.cpp - `make bench`: the executor's speed (emu/ptx/, issue
 * 39). Runs lab 2's and lab 3's reference kernels from nvcc's PTX
 * (build/ptx/) at 256x256x257 and 512x512x512 on the executor, one thread,
 * and a plain C triple loop of the same product; prints for each the time,
 * the thread instructions a second and the ratio to the loop (the emulator's
 * own ratio is bench/run.sh's step 2). Every product is checked against the
 * loop before its numbers are shown: exit 1 if a launch fails or an element
 * is off, 2 if the PTX cannot be read. BENCH_REPS=N launches each (default
 * 3; the best is printed). */
#include "ptx.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static std::string read(const char *path)
{
    std::ifstream in(path);
    if (!in.good()) {
        fprintf(stderr, "ptx_exec: cannot read %s (make builds it with nvcc -ptx)\n", path);
        exit(2);
    }
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/* The loop's product and its time. */
static double loop(const std::vector<float> &a, const std::vector<float> &b, std::vector<float> &c,
                   int m, int k, int n)
{
    double t0 = now();
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float s = 0;
            for (int p = 0; p < k; p++)
                s += a[(size_t)i * k + p] * b[(size_t)p * n + j];
            c[(size_t)i * n + j] = s;
        }
    return now() - t0;
}

static int run(const char *label, const char *file, const char *kernel, int m, int k, int n, int reps)
{
    std::string text = read(file);
    ptx_device_t *d = ptx_device_new();
    char err[256];
    if (ptx_load(d, text.data(), text.size(), err, sizeof err) != PTX_OK) {
        fprintf(stderr, "ptx_exec: %s: %s\n", file, err);
        exit(2);
    }
    std::vector<float> a((size_t)m * k), b((size_t)k * n), c((size_t)m * n), want((size_t)m * n);
    for (size_t i = 0; i < a.size(); i++)
        a[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
    for (size_t i = 0; i < b.size(); i++)
        b[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
    uint64_t da = ptx_malloc(d, a.size() * 4), db = ptx_malloc(d, b.size() * 4), dc = ptx_malloc(d, c.size() * 4);
    ptx_copy_to_device(d, da, a.data(), a.size() * 4);
    ptx_copy_to_device(d, db, b.data(), b.size() * 4);
    void *args[] = {&da, &db, &dc, &m, &k, &k, &n, &m, &n};
    double best = 1e30, loop_s = 1e30;
    ptx_launch_result_t r;
    for (int i = 0; i < reps; i++) {
        double t0 = now();
        ptx_status_t s = ptx_launch(d, kernel, {(unsigned)(n + 15) / 16, (unsigned)(m + 15) / 16, 1},
                                    {16, 16, 1}, 0, args, 0, &r);
        double t = now() - t0;
        if (s != PTX_OK) {
            fprintf(stderr, "ptx_exec: %s %dx%dx%d: launch failed: %s\n", kernel, m, k, n, r.message);
            return 1;
        }
        best = t < best ? t : best;
        double l = loop(a, b, want, m, k, n);
        loop_s = l < loop_s ? l : loop_s;
    }
    ptx_copy_from_device(d, c.data(), dc, c.size() * 4);
    for (size_t i = 0; i < c.size(); i++)
        if (!(std::fabs(c[i] - want[i]) <= 1e-3f * (1 + std::fabs(want[i])))) {
            fprintf(stderr, "ptx_exec: %s %dx%dx%d: C[%zu] = %g, the loop gives %g\n", kernel, m, k, n,
                    i, c[i], want[i]);
            return 1;
        }
    printf("  %-22s %4dx%4dx%4d  %7.3f s  %6.0f M thread instr/s  %5.1f warp lanes busy  "
           "loop %6.3f s  ratio %5.1fx\n", label, m, k, n, best, r.instructions / best / 1e6,
           (double)r.instructions / r.warp_instructions, loop_s, best / loop_s);
    ptx_device_free(d);
    return 0;
}

int main()
{
    const char *env = getenv("BENCH_REPS");
    int reps = env ? atoi(env) : 3;
    if (reps < 1)
        reps = 1;
    printf("executor (emu/ptx/), one thread, best of %d:\n", reps);
    int bad = 0;
    bad |= run("lab 2 (basic)", "build/ptx/lab2.ptx", "_Z14matrixMultiplyPKfS0_Pfiiiiii", 256, 256, 257, reps);
    bad |= run("lab 3 (tiled)", "build/ptx/lab3.ptx", "_Z20matrixMultiplySharedPKfS0_Pfiiiiii", 256, 256, 257, reps);
    bad |= run("lab 2 (basic)", "build/ptx/lab2.ptx", "_Z14matrixMultiplyPKfS0_Pfiiiiii", 512, 512, 512, reps);
    bad |= run("lab 3 (tiled)", "build/ptx/lab3.ptx", "_Z20matrixMultiplySharedPKfS0_Pfiiiiii", 512, 512, 512, reps);
    return bad;
}
