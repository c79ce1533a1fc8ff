/* grid_xy_swapped.cu - handout kernel, the grid sized with ceil(1.0*n/BLOCK_WIDTH) but rows given to x and columns to y
 * bug: dim3 dimGrid(ceil(1.0*numCRows/BLOCK_WIDTH), ceil(1.0*numCColumns/BLOCK_WIDTH)) puts the block-row count on x, which the kernel uses for the columns, so a wide C gets too few block columns (and a tall one too few block rows); fix: x from numCColumns, y from numCRows.
 * expect: blocks-swapped grid-too-small grid-xy-swapped
 */
#include <math.h>

#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < numCRows && Col < numCColumns) {
        float Cvalue = 0.0;
        for (int k = 0; k < numAColumns; ++k)
            Cvalue += A[Row * numAColumns + k] * B[k * numBColumns + Col];
        C[Row * numCColumns + Col] = Cvalue;
    }
}

void launchMatrixMultiply(const float *deviceA, const float *deviceB, float *deviceC,
                          int numARows, int numAColumns, int numBRows, int numBColumns,
                          int numCRows, int numCColumns)
{
    dim3 dimGrid(ceil(1.0 * numCRows / BLOCK_WIDTH), ceil(1.0 * numCColumns / BLOCK_WIDTH), 1);
    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 1);
    matrixMultiply<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
