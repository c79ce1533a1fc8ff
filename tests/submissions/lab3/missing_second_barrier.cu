/* missing_second_barrier.cu - lab 3 test submission: the tiled kernel without
 * its second barrier, the one after the inner product:
 *
 *     for (int k = 0; k < TILE_WIDTH; ++k) sum += tileA[ty][k] * tileB[k][tx];
 *     // BUG: no __syncthreads() here
 *     }   // next phase: tileA[ty][tx] = ...
 *
 * A thread that finishes its inner product goes on to load the next phase's
 * elements into the tiles while other threads of the block are still reading
 * this phase's: a write-after-read race between phases, on tileA and tileB,
 * in every block with more than one phase (K > 16).
 * Expected diagnostics (emucc --checks): `race` on tileA / tileB wherever K >
 * 16, even shapes included (race-free fails); none with a single phase.
 * Seen on 100x128x56 and 64x64x64, either schedule: one race per tile, e.g.
 * "thread (0,0,0) of block (0,0,0) writes it at missing_second_barrier.cu:43
 * while thread (1,0,0) reads it at missing_second_barrier.cu:47".
 * Expected verdict: compiles. On an H200 this kernel passes 19 of 20 (in
 * three runs only dataset 12, 417 x 210 x 519, failed, with 4290 to 5883
 * wrong elements): warps seldom get a whole phase ahead. The emulator runs
 * each thread up to its next barrier, so thread 0 overwrites its elements
 * before the others read them: it fails every dataset with K > 16 except 8
 * (1 x 200 x 1: the one useful thread runs first) and passes 8, 9, 10, 15
 * and 17 (5 of 20; under CUGRADE_EMU_SCHEDULE=reverse 9, 10, 15, 17). Either
 * way the race must be reported: it is what tells the student. */

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
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            sum += tileA[ty][k] * tileB[k][tx];
        /* BUG: no __syncthreads() here: a thread that finishes the loop above
         * goes on to overwrite its tile elements with the next phase's while
         * other threads are still reading this phase's. */
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
