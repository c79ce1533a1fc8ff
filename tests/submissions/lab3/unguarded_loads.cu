/* unguarded_loads.cu - lab 3 test submission: the tile loads have no bounds
 * checks and no 0 outside the matrices:
 *
 *     tileA[ty][tx] = A[row * numAColumns + aCol];   // BUG: unguarded
 *     tileB[ty][tx] = B[bRow * numBColumns + col];   // BUG: unguarded
 *
 * In the last, partial phase (K not a multiple of 16) and in the edge blocks
 * (M or N not a multiple of 16) threads read past the end of a row, which is
 * the next row's element, or past the end of A or B altogether.
 * Expected diagnostics (emucc --checks): `global-oob` reads of A and/or B on
 * every shape with M, K or N not a multiple of 16; nothing on even shapes.
 * Seen on 100x128x56: "Out-of-bounds read of A ... at unguarded_loads.cu:43,
 * 4 bytes past the end of A (51200 bytes)" and the same for B at line 44;
 * nothing on 64x64x64.
 * Expected verdict: compiles; correct where K is a multiple of 16 (the
 * out-of-range elements then only reach threads outside C) and wrong where
 * it is not: on a GPU what lies past the ends is the driver's guard
 * (labs/common/harness_device.h), whose 3.39e38 makes those elements huge or
 * infinite in every run. On an H200: passes 0-4, 6, 7, 15, 16 (9 of 20, K a
 * multiple of 16), fails the others, in a list as in separate runs (before
 * the guards: 12 of 20 in a list, the memory past 1x1x1's and 1x200x1's
 * arrays holding zeros, and other sets on other hosts).
 * On the emulator without --checks: passes 0-8, 15, 16, 17 (12 of 20) and
 * fails 9-14, 18, 19; past the end of B lies C, still holding the harness's
 * poison, so wrong elements can even carry the never-written bit pattern
 * (all of dataset 11). */

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

    (void)numARows; /* BUG: the loads below check neither bound */
    (void)numBRows;
    float sum = 0.0f;
    for (int phase = 0; phase < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++phase) {
        int aCol = phase * TILE_WIDTH + tx;
        int bRow = phase * TILE_WIDTH + ty;
        tileA[ty][tx] = A[row * numAColumns + aCol]; /* BUG: unguarded */
        tileB[ty][tx] = B[bRow * numBColumns + col]; /* BUG: unguarded */
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
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
