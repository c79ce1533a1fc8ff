/* prints_shape.cu - lab 3 test submission: a correct tiled kernel whose
 * launch function prints the shape it was called with, one line on stdout
 * ("stdout: launch MxKxN") and one on stderr ("stderr: launch MxKxN").
 *
 * Demonstrates that in grouped dataset runs (every dataset in one driver
 * process, runs.h) each dataset's test shows its own program output, and
 * only its own: the grader splits the process's output at the driver's
 * markers, which never show.
 * Expected verdict: compiles, every dataset passes; dataset i's output holds
 * its own shape line from each stream. */
#include <cstdio>

#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float tileA[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileB[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float sum = 0.0f;
    const int numPhases = (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int phase = 0; phase < numPhases; ++phase) {
        const int aCol = phase * TILE_WIDTH + tx;
        const int bRow = phase * TILE_WIDTH + ty;
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
    std::printf("stdout: launch %dx%dx%d\n", numARows, numAColumns, numBColumns);
    std::fprintf(stderr, "stderr: launch %dx%dx%d\n", numARows, numAColumns, numBColumns);
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
