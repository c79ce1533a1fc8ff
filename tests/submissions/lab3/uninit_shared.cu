/* uninit_shared.cu - lab 3 test submission: the loads are guarded, but a
 * thread outside the matrices skips its load instead of storing 0,
 *
 *     if (row < numARows && aCol < numAColumns)   // BUG: no 0 stored outside A
 *         tileA[ty][tx] = A[row * numAColumns + aCol];
 *
 * while the inner product still reads the whole tile. In the first phase of
 * a block such elements were never written; in later phases they still hold
 * the previous phase's values.
 * Expected diagnostics (emucc --checks): `uninit-shared` reads of tileA /
 * tileB on every shape with M, K or N not a multiple of 16, even where the
 * results are right; nothing on even shapes. Seen on 100x128x56 (right
 * results): "thread (8,0,0) of block (3,0,0) reads tileB (element 8, byte
 * offset 32) at uninit_shared.cu:46, but no thread of this block has
 * written it", and the same for tileA; nothing on 64x64x64.
 * Expected verdict: compiles; correct where K is a multiple of 16 (only
 * threads outside C read the skipped elements). On the emulator it passes
 * 0, 1, 2, 3, 4, 6, 7, 15, 16 (9 of 20) and fails the eleven datasets with K
 * not a multiple of 16 (NaN from the shared-memory poison where the first
 * phase is also the last). On an H200 it also passes 9 and 10 (never-written
 * shared memory happened to hold zeros) and fails 5, 8, 11-14, 18, 19. */

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
        if (row < numARows && aCol < numAColumns) /* BUG: no 0 stored outside A */
            tileA[ty][tx] = A[row * numAColumns + aCol];
        if (bRow < numBRows && col < numBColumns) /* BUG: no 0 stored outside B */
            tileB[ty][tx] = B[bRow * numBColumns + col];
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
