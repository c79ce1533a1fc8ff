/* barrier_in_if.cu - lab 3 test submission: the whole body of the tiled
 * kernel, loads, barriers and inner product, inside the bounds check of the
 * store:
 *
 *     if (row < numCRows && col < numCColumns) {   // BUG
 *         for (phase ...) { load; __syncthreads(); multiply; __syncthreads(); }
 *         C[row * numCColumns + col] = sum;
 *     }
 *
 * Threads outside C skip their share of the tile loads and never reach the
 * barriers the other threads of their block wait at: the same damage as an
 * early return (early_return.cu), written the other way round.
 * Expected diagnostics (emucc --checks): `barrier-divergence` in the blocks on
 * the right or bottom edge of C when M or N is not a multiple of 16 (and
 * `uninit-shared` for the tile elements nobody loaded); nothing on even
 * shapes. Seen on 100x128x56: 10 barrier-divergence errors (the limit), e.g.
 * "block (3,0,0): 128 of 256 threads ... wait at the __syncthreads() at
 * barrier_in_if.cu:46, but 128 ... have already returned", and 2
 * uninit-shared (tileA, tileB); nothing on 64x64x64.
 * Expected verdict: compiles, passes the datasets whose M and N are both
 * multiples of 16 (0, 1, 2, 3, 5, 9, 15, 16: 8 of 20) and fails the other
 * twelve, on the emulator (the partial tiles of C come out NaN: shared-memory
 * poison where the skipped loads should have put 0) and on an H200 (wrong
 * values in the same elements as early_return.cu). */

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

    if (row < numCRows && col < numCColumns) { /* BUG: the barriers below are inside */
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
