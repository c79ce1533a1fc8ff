/* host_crash_in_libc.cu - lab 3 test submission whose host code crashes
 * inside the C library: the launch function clears a host buffer it never
 * allocated with memset, a null pointer, and the fault is in libc's memset,
 * not in the student's own instructions. The kernel itself is correct.
 *
 * The list mode goes past a crash only at the program's own instructions
 * (labs/common/harness_crash.h): this one ends the process on every dataset,
 * as host_segfault.cu did before that, and after two such crashes the rest
 * run one a process, side by side ("lanes", runs_grouped.c).
 * Expected verdict: compiles, every dataset fails with "killed by signal 11
 * (Segmentation fault)": 0 with the current rubric. */

#include <string.h>

#define TILE_WIDTH 16

/* Meant to be malloc'd before use; never is. Not static, so the compiler
 * cannot prove it null, and the size is the shape's, so memset is called. */
float *debugRow = 0;

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float tileA[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileB[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty;
    int col = blockIdx.x * TILE_WIDTH + tx;

    float sum = 0.0f;
    for (int phase = 0; phase < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++phase) {
        int aCol = phase * TILE_WIDTH + tx;
        int bRow = phase * TILE_WIDTH + ty;
        tileA[ty][tx] = (row < numARows && aCol < numAColumns) ? A[row * numAColumns + aCol] : 0.0f;
        tileB[ty][tx] = (bRow < numBRows && col < numBColumns) ? B[bRow * numBColumns + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            sum += tileA[ty][k] * tileB[k][tx];
        __syncthreads();
    }
    if (row < numCRows && col < numCColumns)
        C[row * numCColumns + col] = sum;
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    memset(debugRow, 0, (size_t)numCColumns * sizeof *debugRow); /* BUG: a null host pointer */

    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
