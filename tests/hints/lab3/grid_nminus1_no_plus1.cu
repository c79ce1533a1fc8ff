/* grid_nminus1_no_plus1.cu - correct tiled kernel; the grid written with the (n-1)/TILE_WIDTH + 1 idiom, the + 1 forgotten
 * bug: dim3 dimGrid((numCColumns - 1) / TILE_WIDTH, (numCRows - 1) / TILE_WIDTH) is one block short in each direction, always (and 0 when a side is at most 16); fix: (numCColumns - 1) / TILE_WIDTH + 1.
 * expect: grid-too-small
 */
#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
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
        __syncthreads();
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
    dim3 dimGrid((numCColumns - 1) / TILE_WIDTH, (numCRows - 1) / TILE_WIDTH, 1);
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    matrixMultiplyShared<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                                numBRows, numBColumns, numCRows, numCColumns);
}
