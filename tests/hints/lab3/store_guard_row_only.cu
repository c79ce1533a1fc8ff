/* store_guard_row_only.cu - correct guarded tile loads; the final store checks the row but not the column
 * bug: if (Row < numCRows) C[Row*numCColumns + Col] = Cvalue; lets the threads with Col >= numCColumns write into the next row of C (and past the end of C on the last row); fix: if (Row < numCRows && Col < numCColumns).
 * expect: global-oob
 */
#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float subTileM[TILE_WIDTH][TILE_WIDTH];
    __shared__ float subTileN[TILE_WIDTH][TILE_WIDTH];

    int Row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    int Col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    float Cvalue = 0.0f;

    for (int m = 0; m < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++m) {
        if (Row < numARows && m * TILE_WIDTH + threadIdx.x < numAColumns)
            subTileM[threadIdx.y][threadIdx.x] = A[Row * numAColumns + m * TILE_WIDTH + threadIdx.x];
        else
            subTileM[threadIdx.y][threadIdx.x] = 0.0f;
        if (Col < numBColumns && m * TILE_WIDTH + threadIdx.y < numBRows)
            subTileN[threadIdx.y][threadIdx.x] = B[(m * TILE_WIDTH + threadIdx.y) * numBColumns + Col];
        else
            subTileN[threadIdx.y][threadIdx.x] = 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Cvalue += subTileM[threadIdx.y][k] * subTileN[k][threadIdx.x];
        __syncthreads();
    }
    if (Row < numCRows)
        C[Row * numCColumns + Col] = Cvalue;
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH, 1);
    matrixMultiplyShared<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                                numBRows, numBColumns, numCRows, numCColumns);
}
