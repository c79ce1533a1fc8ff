/* emu_overhead.cpp - what the CPU emulator costs: a tiled 16x16 matrix
 * multiply kernel (two barriers per phase, boundary checks) run through the
 * emulator against a plain C triple loop of the same shape, both -O2 and
 * single-threaded. Also times a kernel that only hits barriers, to give the
 * cost of one barrier arrival (one fiber switch). Target: ratio <= 10.
 *
 * The launch is written in the form the launch rewriter produces, so this
 * builds without emucc:
 *   make build/libcugrade_emu.a
 *   g++ -std=c++17 -O2 -Iemu/include -include cugrade_emu.h bench/emu_overhead.cpp \
 *       build/libcugrade_emu.a -o build/emu_overhead
 *   build/emu_overhead [M K N]        (default 512 512 512) */
#include <chrono>
#include <vector>

#define TILE 16

__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int K, int N)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int phase = 0; phase < (K + TILE - 1) / TILE; ++phase) {
        int a_col = phase * TILE + threadIdx.x;
        int b_row = phase * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (b_row < K && col < N) ? B[b_row * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = sum;
}

__global__ void barriers_only(int *out, int rounds)
{
    int x = 0;
    for (int i = 0; i < rounds; ++i) {
        x += threadIdx.x;
        __syncthreads();
    }
    if (x == -1)
        out[0] = x;
}

__attribute__((noinline)) static void matmul_naive(const float *A, const float *B, float *C, int M, int K, int N)
{
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            float sum = 0.0f;
            for (int k = 0; k < K; ++k)
                sum += A[i * K + k] * B[k * N + j];
            C[i * N + j] = sum;
        }
}

template <class F> static double best_seconds(int repeats, F &&work)
{
    double best = 1e30;
    for (int r = 0; r < repeats; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        work();
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = s < best ? s : best;
    }
    return best;
}

int main(int argc, char **argv)
{
    int M = argc > 3 ? atoi(argv[1]) : 512, K = argc > 3 ? atoi(argv[2]) : 512, N = argc > 3 ? atoi(argv[3]) : 512;
    std::vector<float> A(size_t(M) * K), B(size_t(K) * N), C_ref(size_t(M) * N), C_emu(size_t(M) * N);
    for (size_t i = 0; i < A.size(); ++i)
        A[i] = float(int(i * 7 % 13) - 6) / 8.0f;
    for (size_t i = 0; i < B.size(); ++i)
        B[i] = float(int(i * 5 % 11) - 5) / 4.0f;

    float *dA, *dB, *dC;
    int *dOut;
    cudaMalloc(&dA, A.size() * sizeof(float));
    cudaMalloc(&dB, B.size() * sizeof(float));
    cudaMalloc(&dC, C_emu.size() * sizeof(float));
    cudaMalloc(&dOut, sizeof(int));
    cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice);
    dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);

    double naive = best_seconds(3, [&] { matmul_naive(A.data(), B.data(), C_ref.data(), M, K, N); });
    double emu = best_seconds(3, [&] {
        ::cugrade::kernel_launch(matmul_tiled, "matmul_tiled", __FILE__, __LINE__).config(grid, block)(dA, dB, dC, M, K, N);
    });
    if (cudaGetLastError() != cudaSuccess)
        return fprintf(stderr, "emu_overhead: launch failed\n"), 1;
    cudaMemcpy(C_emu.data(), dC, C_emu.size() * sizeof(float), cudaMemcpyDeviceToHost);
    double max_err = 0;
    for (size_t i = 0; i < C_ref.size(); ++i)
        max_err = fmax(max_err, fabs(double(C_ref[i]) - C_emu[i]));

    int phases = (K + TILE - 1) / TILE;
    unsigned long long arrivals = 1ull * grid.x * grid.y * TILE * TILE * (2 * phases);
    double bar = best_seconds(3, [&] {
        ::cugrade::kernel_launch(barriers_only, "barriers_only", __FILE__, __LINE__).config(grid, block)(dOut, 2 * phases);
    });

    printf("matmul %dx%dx%d, tile %d: naive C loop %.3f s, emulated tiled kernel %.3f s, ratio %.2f (target <= 10)\n",
           M, K, N, TILE, naive, emu, emu / naive);
    printf("max |difference| %.3g; barriers-only kernel: %llu barrier arrivals in %.3f s = %.1f ns each\n", max_err,
           arrivals, bar, bar / double(arrivals) * 1e9);
    return max_err < 1e-2 ? 0 : 1;
}
