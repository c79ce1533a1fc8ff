/* untiled.cu - lab 3 test submission: the naive kernel, correct for any
 * shape but with no shared memory at all: every thread reads its row of A
 * and its column of B straight from global memory,
 *
 *     for (int k = 0; k < numAColumns; ++k)   // BUG (design): no tiles
 *         sum += A[row * numAColumns + k] * B[k * numBColumns + col];
 *
 * two 4-byte loads per multiply-add, 4 bytes of global traffic per FLOP.
 * Expected diagnostics (emucc --checks): no error or warning; stat lines with
 * shared_staged_loads 0 and about 4 B/FLOP of global traffic (seen on
 * 64x64x64: 2097152 bytes loaded + 16384 stored for 524288 FLOP, 4.03 B/FLOP;
 * the reference kernel: 0.28).
 * Expected verdict: compiles and passes all 20 datasets for correctness (on
 * the emulator and on an H200), but fails the `uses-shared-memory` and
 * `traffic-reduced` checks. */

#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    int col = blockIdx.x * TILE_WIDTH + threadIdx.x;

    (void)numARows;
    (void)numBRows;
    if (row < numCRows && col < numCColumns) {
        float sum = 0.0f;
        for (int k = 0; k < numAColumns; ++k) /* BUG (speed only): straight from global memory */
            sum += A[row * numAColumns + k] * B[k * numBColumns + col];
        C[row * numCColumns + col] = sum;
    }
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
