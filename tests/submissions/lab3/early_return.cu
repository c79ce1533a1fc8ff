/* early_return.cu - lab 3 test submission with the classic early return:
 * threads whose element lies outside C return before the tile loads and the
 * barriers,
 *
 *     if (row >= numCRows || col >= numCColumns) return;   // BUG
 *
 * Those threads neither load their share of the tiles (which threads inside
 * C then read: stale shared memory) nor reach the __syncthreads() the others
 * wait at. Correct whenever every thread of every block lies inside C.
 *
 * Expected verdict: compiles, passes the datasets whose M and N are both
 * multiples of 16 (0, 1, 2, 3, 5, 9, 15, 16: 8 of 20, 40/100 with the
 * current rubric) and fails the other twelve. On the CPU emulator each of
 * those twelve reports a barrier divergence (some threads of a block exited
 * while the others wait at the __syncthreads() on line 42) and the stale
 * tile entries make the partial tiles of C NaN; on a GPU the barrier is
 * undefined behaviour and those tiles come out wrong (verified on an H200:
 * same 8 pass). */

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
    if (row >= numCRows || col >= numCColumns)
        return; /* BUG: skips the loads and the barriers below */

    (void)numARows; /* == numCRows */
    float sum = 0.0f;
    for (int phase = 0; phase < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++phase) {
        int aCol = phase * TILE_WIDTH + tx;
        int bRow = phase * TILE_WIDTH + ty;
        tileA[ty][tx] = aCol < numAColumns ? A[row * numAColumns + aCol] : 0.0f;
        tileB[ty][tx] = bRow < numBRows ? B[bRow * numBColumns + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            sum += tileA[ty][k] * tileB[k][tx];
        __syncthreads();
    }
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
