/* tile_b_stored_transposed8.cu - 8 x 8 tiles, the B tile written as Ns[tx][ty] ("so the column is contiguous") and read as Ns[k][tx]
 * bug: the B tile is stored transposed (Ns[tx][ty] = B[...][col]) but read as if it were not (Ns[k][tx]), so each thread multiplies by the wrong B elements; fix: store Ns[ty][tx], or read Ns[tx][k].
 * expect: tile-b-transposed
 */
#define TILE_WIDTH 8

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float Ms[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Ns[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0.0f;

    for (int ph = 0; ph < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        int aCol = ph * TILE_WIDTH + tx;
        int bRow = ph * TILE_WIDTH + ty;
        Ms[ty][tx] = (Row < numARows && aCol < numAColumns) ? A[Row * numAColumns + aCol] : 0.0f;
        Ns[tx][ty] = (bRow < numBRows && Col < numBColumns) ? B[bRow * numBColumns + Col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Ms[ty][k] * Ns[k][tx];
        __syncthreads();
    }
    if (Row < numCRows && Col < numCColumns)
        C[Row * numCColumns + Col] = Pvalue;
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    dim3 dimGrid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                                numBRows, numBColumns, numCRows, numCColumns);
}
