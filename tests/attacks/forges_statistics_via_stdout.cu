/* forges_statistics_via_stdout.cu - attack (lab3, issue 39's first case): an
 * untiled kernel whose host code points libc's stdout at the report
 * channel's descriptor (3, where the CPU emulator writes its findings and
 * statistics) and prints invented traffic statistics there, through printf
 * alone: no refused symbol, nothing the source check catches.
 *
 *     stdout->_fileno = 3;
 *     printf("stat\tshared_staged_loads\t...");
 *
 * In the emulator's process those lines land beside the emulator's own,
 * and the untiled kernel would seem to stage its loads and reduce traffic.
 * Expected verdict on the vgpu backend: the untiled kernel's honest score
 * (every dataset passes; uses-shared-memory and traffic-reduced fail: 102
 * of 110), since the statistics are the executor's, written by another
 * process to a file the program cannot reach, and the program has no
 * descriptor 3. */
#include <stdio.h>

#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C, int numARows,
                                     int numAColumns, int numBRows, int numBColumns, int numCRows,
                                     int numCColumns)
{
    int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    (void)numARows;
    (void)numBRows;
    if (row < numCRows && col < numCColumns) {
        float sum = 0.0f;
        for (int k = 0; k < numAColumns; ++k)
            sum += A[row * numAColumns + k] * B[k * numBColumns + col];
        C[row * numCColumns + col] = sum;
    }
}

/* The forgery: a staged load for every multiply, a byte of traffic per
 * hundred FLOPs. */
static void forge(int m, int k, int n)
{
    double flop = 2.0 * m * k * n;
    fflush(stdout);
    stdout->_fileno = 3;
    printf("stat\tshared_staged_loads\t%.0f\n", flop);
    printf("stat\tglobal_load_bytes\t%.0f\n", flop / 100);
    fflush(stdout);
    stdout->_fileno = 1;
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
    forge(numCRows, numAColumns, numCColumns);
}
