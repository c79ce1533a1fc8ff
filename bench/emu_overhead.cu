// emu_overhead.cu - how much slower is a kernel on the CPU emulator than the
// same product as a plain C loop? Links a lab 3 submission (the reference by
// default, see bench/run.sh), runs its launchMatrixMultiplyShared on MxKxN
// inputs through the emulator, then a naive i-j-k triple loop compiled with
// the same flags, and prints both times (best of REPS) and the ratio. Also
// checks that both computed the same product. Exit status: 0 when the products
// agree, 1 when they differ or a CUDA call failed, 2 for bad arguments;
// bench/run.sh checks it and the printed lines.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns);

static double seconds_now()
{
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// Kept out of line so the compiler cannot fold it into the timing loop.
__attribute__((noinline)) static void triple_loop(const float *a, const float *b, float *c, int m,
                                                  int k, int n)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float sum = 0.0f;
            for (int p = 0; p < k; p++)
                sum += a[i * k + p] * b[p * n + j];
            c[i * n + j] = sum;
        }
}

static int check(cudaError_t err, const char *what)
{
    if (err == cudaSuccess)
        return 0;
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
    std::exit(1);
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? std::atoi(argv[1]) : 512, k = argc > 2 ? std::atoi(argv[2]) : 512;
    int n = argc > 3 ? std::atoi(argv[3]) : 512, reps = argc > 4 ? std::atoi(argv[4]) : 3;
    if (argc > 5 || m < 1 || k < 1 || n < 1 || reps < 1) {
        std::fprintf(stderr, "usage: %s [M K N REPS], each a whole number >= 1\n", argv[0]);
        return 2;
    }
    std::vector<float> a((size_t)m * k), b((size_t)k * n), c((size_t)m * n), ref((size_t)m * n);
    for (size_t i = 0; i < a.size(); i++) a[i] = (float)(i % 41) / 10.0f;
    for (size_t i = 0; i < b.size(); i++) b[i] = (float)((i * 7) % 41) / 10.0f;
    float *da, *db, *dc;
    check(cudaMalloc(&da, a.size() * 4), "cudaMalloc A");
    check(cudaMalloc(&db, b.size() * 4), "cudaMalloc B");
    check(cudaMalloc(&dc, c.size() * 4), "cudaMalloc C");
    check(cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice), "copy A");
    check(cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice), "copy B");

    double emu = 1e30, loop = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = seconds_now();
        launchMatrixMultiplyShared(da, db, dc, m, k, k, n, m, n);
        check(cudaGetLastError(), "launch");
        check(cudaDeviceSynchronize(), "synchronize");
        double t1 = seconds_now();
        triple_loop(a.data(), b.data(), ref.data(), m, k, n);
        double t2 = seconds_now();
        emu = std::fmin(emu, t1 - t0);
        loop = std::fmin(loop, t2 - t1);
    }
    check(cudaMemcpy(c.data(), dc, c.size() * 4, cudaMemcpyDeviceToHost), "copy C");
    size_t wrong = 0;
    for (size_t i = 0; i < c.size(); i++)
        if (!(std::fabs(c[i] - ref[i]) <= 1e-3f + 1e-4f * std::fabs(ref[i]))) wrong++;
    std::printf("   shape %dx%dx%d, best of %d\n", m, k, n, reps);
    std::printf("   emulator (tiled kernel): %8.3f s\n", emu);
    std::printf("   plain C triple loop:     %8.3f s\n", loop);
    std::printf("   ratio: %.2fx; products %s\n", emu / loop,
                wrong ? "DIFFER" : "agree");
    return wrong ? 1 : 0;
}
