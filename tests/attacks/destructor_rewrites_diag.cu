/* destructor_rewrites_diag.cu - attack (lab3, emulator): an untiled kernel
 * plus a destructor that runs after the kernels and empties what the
 * emulator reported (its report file, or the descriptor it writes to), so
 * that 'uses shared memory' and 'traffic reduced' would seem to pass:
 *
 *     __attribute__((destructor)) static void forge(void) { ftruncate(3, 0); ... }
 *
 * Expected verdict: refused before linking (the object check names the
 * destructor and the calls): 'compiles' fails, score 0. Behind that check,
 * the findings go to a descriptor the grader opened, not to a path in the
 * environment (docs/security.md). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__global__ void matrixMultiplyNaive(const float *A, const float *B, float *C, int m, int k, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float sum = 0;
        for (int i = 0; i < k; i++)
            sum += A[row * k + i] * B[i * n + col];
        C[row * n + col] = sum;
    }
}

__attribute__((destructor)) static void forge(void)
{
    if (ftruncate(3, 0) != 0) {
        const char *path = getenv("CUGRADE_EMU_DIAG");
        FILE *f = path ? fopen(path, "w") : NULL;
        if (f)
            fclose(f);
    }
}

void launchMatrixMultiplyShared(const float *A, const float *B, float *C, int numARows,
                                int numAColumns, int numBRows, int numBColumns, int numCRows,
                                int numCColumns)
{
    (void)numBRows, (void)numCRows;
    dim3 block(16, 16), grid((numCColumns + 15) / 16, (numARows + 15) / 16);
    matrixMultiplyNaive<<<grid, block>>>(A, B, C, numARows, numAColumns, numBColumns);
}
