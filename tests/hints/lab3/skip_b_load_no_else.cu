/* skip_b_load_no_else.cu - tileM/tileN kernel whose B load is guarded by an if with no else
 * bug: if (ph*TILE_WIDTH + ty < numBRows && Col < numBColumns) tileN[ty][tx] = ...; with no else leaves the out-of-range tile entries unwritten (garbage in the first phase, the previous phase's values later), and they get summed; fix: else tileN[ty][tx] = 0.
 * expect: uninit-shared
 */
#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float tileM[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileN[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0.0f;

    for (int ph = 0; ph < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        if (Row < numARows && ph * TILE_WIDTH + tx < numAColumns)
            tileM[ty][tx] = A[Row * numAColumns + ph * TILE_WIDTH + tx];
        else
            tileM[ty][tx] = 0.0f;
        if (ph * TILE_WIDTH + ty < numBRows && Col < numBColumns)
            tileN[ty][tx] = B[(ph * TILE_WIDTH + ty) * numBColumns + Col];
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += tileM[ty][k] * tileN[k][tx];
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
