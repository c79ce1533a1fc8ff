/* intdiv_grid.cu - lab 3 test submission: a correct tiled kernel launched on
 * a grid computed with integer division instead of ceiling division:
 *
 *     dim3 grid(numCColumns / TILE_WIDTH, numCRows / TILE_WIDTH);   // BUG
 *
 * The last partial block column and block row of C get no block, so those
 * elements keep the harness's poison.
 * Expected verdict: compiles, passes exactly the datasets whose M and N are
 * both multiples of 16 (0, 1, 2, 3, 5, 9, 15, 16: 8 of 20, 40/100 with the
 * current rubric) and fails the other twelve. Where M and N are at least 16
 * the failure carries the grid-too-small hint: only the right and/or bottom
 * partial tiles of C were never written (dataset 10, 40 x 7 x 33, gets 2 x 2
 * blocks: rows 32..39 and column 32 stay unwritten). Datasets 8 (1 x 200 x
 * 1), 17 (1 x 1 x 1) and 18 (2 x 1000 x 3) give a grid with a 0 dimension,
 * which the runtime rejects with cudaErrorInvalidValue (on an H200 with CUDA
 * 13 and on the emulator): the driver exits with status 3, no output.
 * Verified on an H200 and on the emulator. */

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
    dim3 grid(numCColumns / TILE_WIDTH, numCRows / TILE_WIDTH); /* BUG: rounds down */
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
