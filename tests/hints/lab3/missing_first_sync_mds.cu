/* missing_first_sync_mds.cu - PMPP-style Mds/Nds tiled kernel (bx, by, tx, ty, Pvalue) with the barrier after the loads left out
 * bug: there is no __syncthreads() between loading Mds/Nds and the inner product, so threads read tile elements their neighbours have not loaded yet (or the previous phase's); fix: __syncthreads() after the two loads.
 * expect: race
 */
#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;

    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;

    float Pvalue = 0;
    for (int ph = 0; ph < (numAColumns - 1) / TILE_WIDTH + 1; ++ph) {
        if (Row < numARows && ph * TILE_WIDTH + tx < numAColumns)
            Mds[ty][tx] = A[Row * numAColumns + ph * TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if (ph * TILE_WIDTH + ty < numBRows && Col < numBColumns)
            Nds[ty][tx] = B[(ph * TILE_WIDTH + ty) * numBColumns + Col];
        else
            Nds[ty][tx] = 0;

        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    if (Row < numCRows && Col < numCColumns)
        C[Row * numCColumns + Col] = Pvalue;
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    dim3 dimGrid((numCColumns - 1) / TILE_WIDTH + 1, (numCRows - 1) / TILE_WIDTH + 1, 1);
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    matrixMultiplyShared<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                                numBRows, numBColumns, numCRows, numCColumns);
}
