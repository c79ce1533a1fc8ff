/* blockidx_x_rows_tiled.cu - tiled kernel written with bx for the block row and by for the block column throughout, launched on the handout's grid
 * bug: Row = bx*TILE_WIDTH + ty and Col = by*TILE_WIDTH + tx swap the block indices against a grid whose x runs along the columns: square C is right, but a non-square C gets tiles nobody computes; fix: Row from blockIdx.y, Col from blockIdx.x.
 * expect: blocks-swapped grid-xy-swapped
 */
#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int Row = bx * TILE_WIDTH + ty;
    int Col = by * TILE_WIDTH + tx;
    float Pvalue = 0;

    for (int ph = 0; ph < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
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
    dim3 dimGrid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    matrixMultiplyShared<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                                numBRows, numBColumns, numCRows, numCColumns);
}
