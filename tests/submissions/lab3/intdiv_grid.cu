/* intdiv_grid.cu - lab 3 test submission: a correct tiled kernel launched on
 * a grid computed with integer division instead of ceiling division:
 *
 *     dim3 grid(numCColumns / TILE_WIDTH, numCRows / TILE_WIDTH);   // BUG
 *
 * The last partial block column and block row of C get no block, so those
 * elements keep the harness's poison.
 * Expected verdict: compiles (10), passes exactly the datasets whose M and N
 * are both multiples of 16 (0, 1, 2, 3, 5, 9: 6 x 6 = 36 points, 46 in all)
 * and fails the other nine (4, 6, 7, 8, 10, 11, 12, 13, 14). Where M, N >= 16
 * the failure is the grid-too-small hint (only the right and/or bottom
 * partial tiles of C are unwritten). Dataset 8 (1 x 200 x 1) gives a 0 x 0
 * grid, which the CUDA runtime rejects: on a GPU (CUDA 13, H200) the launch
 * fails with cudaErrorInvalidValue, the driver exits with status 3 and writes
 * no output. Dataset 10 (40 x 7 x 33) gets 2 x 2 blocks: the bottom 8 rows
 * and the right column stay unwritten. Verified on an H200: 6/15 datasets. */

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
