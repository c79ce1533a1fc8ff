/* missing_first_barrier.cu - lab 3 test submission: the tiled kernel without
 * its first barrier, the one between the tile loads and the inner product:
 *
 *     tileA[ty][tx] = ...;  tileB[ty][tx] = ...;
 *     // BUG: no __syncthreads() here
 *     for (int k = 0; k < TILE_WIDTH; ++k) sum += tileA[ty][k] * tileB[k][tx];
 *
 * A thread reads tile elements that other threads of its block load in the
 * same phase, maybe before they have loaded them: a read-after-write race on
 * tileA and tileB in every phase of every block.
 * Expected diagnostics (emucc --checks): `race` on tileA / tileB, on every
 * shape, even or not (race-free fails). Seen on 100x128x56 and 64x64x64,
 * either schedule: one race per tile, e.g. "thread (1,0,0) of block (0,0,0)
 * writes it at missing_first_barrier.cu:40 while thread (0,0,0) reads it at
 * missing_first_barrier.cu:45 in the same barrier interval".
 * Expected verdict: compiles. On an H200 it passes only datasets 8 and 17
 * (C a single element; 2 of 20, the same in two runs). On the emulator it
 * fails all 20: a thread runs its inner product before the threads after it
 * in the block have loaded anything, so it reads the previous phase's
 * elements or, in the first phase, the shared-memory poison (NaN); under
 * CUGRADE_EMU_SCHEDULE=reverse 8 and 17 pass, as on the H200. */

#define TILE_WIDTH 16

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
        /* BUG: no __syncthreads() here: the loop below reads tile elements
         * that other threads may not have loaded yet. */
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
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
