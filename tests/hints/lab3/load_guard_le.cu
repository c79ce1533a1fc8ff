/* load_guard_le.cu - tiled kernel whose load guards compare with <= ("up to and including the last column")
 * bug: aCol <= numAColumns and bRow <= numBRows let index K through, so in the last, partial phase every thread adds A[row][K] (the next row's first element, past A on the last row) times B[K][col] (past the end of B); fix: aCol < numAColumns and bRow < numBRows.
 * expect: k-off-by-one global-oob
 */
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
    for (int ph = 0; ph < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        int aCol = ph * TILE_WIDTH + tx;
        int bRow = ph * TILE_WIDTH + ty;
        if (row < numARows && aCol <= numAColumns)
            tileA[ty][tx] = A[row * numAColumns + aCol];
        else
            tileA[ty][tx] = 0.0f;
        if (bRow <= numBRows && col < numBColumns)
            tileB[ty][tx] = B[bRow * numBColumns + col];
        else
            tileB[ty][tx] = 0.0f;
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
