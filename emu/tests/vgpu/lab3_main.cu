// lab3_main.cu - a program for the executor's tests (test_vgpu.cpp): lab
// 3's reference kernel and launch function, and a main that does what the
// lab's driver does on a GPU, through the CUDA runtime alone: allocate,
// copy A and B in, launch, copy C back; then checks C against a product on
// the host and prints "C ok" or the first wrong element (exit 1). Linked
// with emu/vcudart/ instead of libcudart, its every CUDA call goes to the
// executor. Argument: M K N.
#include "../../../reference/lab3/matmul.cu"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            printf("%s: %s\n", #call, cudaGetErrorName(e_));                               \
            return 3;                                                                      \
        }                                                                                  \
    } while (0)

int main(int argc, char **argv)
{
    int m = argc > 3 ? atoi(argv[1]) : 37, k = argc > 3 ? atoi(argv[2]) : 29, n = argc > 3 ? atoi(argv[3]) : 41;
    std::vector<float> a((size_t)m * k), b((size_t)k * n), c((size_t)m * n);
    for (size_t i = 0; i < a.size(); i++)
        a[i] = (float)(i % 7) - 3.0f;
    for (size_t i = 0; i < b.size(); i++)
        b[i] = (float)(i % 5) * 0.5f;
    float *da, *db, *dc;
    CHECK(cudaMalloc((void **)&da, a.size() * sizeof(float)));
    CHECK(cudaMalloc((void **)&db, b.size() * sizeof(float)));
    CHECK(cudaMalloc((void **)&dc, c.size() * sizeof(float)));
    CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
    launchMatrixMultiplyShared(da, db, dc, m, k, k, n, m, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double want = 0;
            for (int p = 0; p < k; p++)
                want += (double)a[(size_t)i * k + p] * b[(size_t)p * n + j];
            if (!(std::fabs(c[(size_t)i * n + j] - want) <= 1e-3 * (1 + std::fabs(want)))) {
                printf("C[%d][%d] = %g, want %g\n", i, j, c[(size_t)i * n + j], want);
                return 1;
            }
        }
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    printf("C ok\n");
    return 0;
}
