/* unguarded_store.cu - lab 3 test submission: the store to C has no bounds
 * check:
 *
 *     C[row * numCColumns + col] = sum;   // BUG: unguarded
 *
 * Threads right of C (col >= N) write their sum, 0, into the first elements
 * of the next row; threads below C (row >= M) write past the end of C.
 * Expected diagnostics (emucc --checks): `global-oob` writes of C on every
 * shape with M or N not a multiple of 16 (the rows below C and the stray
 * columns of its last row land past its end; the other stray columns land
 * inside C, where no checker can tell them from right values); nothing on
 * even shapes. Seen on 100x128x56: "Out-of-bounds write of C ... at
 * unguarded_store.cu:49, 4 bytes past the end of C (22400 bytes)"; nothing
 * on 64x64x64.
 * Expected verdict: compiles; wrong elements of C where N is not a multiple
 * of 16 and a stray 0 lands after the right value (that depends on the order
 * of the blocks), and whatever lies past C is overwritten where M is not.
 * On an H200: fails every dataset with N not a multiple of 16 except 8 and
 * 17 (C a single element): 6, 7, 10, 11, 12, 14, 18, 19; passes 12 of 20.
 * On the emulator without --checks the writes past C corrupt the heap: a
 * crash (SIGSEGV, or an abort in free()) on datasets 4, 7, 10-14 and 19,
 * wrong values on 6; passes 0, 1, 2, 3, 5, 8, 9, 15, 16, 17, 18 (11 of 20). */

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

    (void)numCRows; /* BUG: the store below checks no bound */
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
    C[row * numCColumns + col] = sum; /* BUG: unguarded */
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
