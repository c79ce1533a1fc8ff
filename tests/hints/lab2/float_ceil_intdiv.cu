/* float_ceil_intdiv.cu - Kirk & Hwu style Row/Col and Pvalue, the grid sized with ceil() around an integer division
 * bug: ceil(numCColumns / BLOCK_WIDTH) divides two ints first, so the ceil sees an already truncated quotient and the grid is one block short (0 blocks when a side is below 16); fix: ceil(numCColumns / (float)BLOCK_WIDTH) or (n + BLOCK_WIDTH - 1) / BLOCK_WIDTH.
 * expect: float-ceil-grid grid-too-small
 */
#include <math.h>

#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if ((Row < numCRows) && (Col < numCColumns)) {
        float Pvalue = 0;
        for (int k = 0; k < numAColumns; ++k)
            Pvalue += A[Row * numAColumns + k] * B[k * numBColumns + Col];
        C[Row * numCColumns + Col] = Pvalue;
    }
}

void launchMatrixMultiply(const float *deviceA, const float *deviceB, float *deviceC,
                          int numARows, int numAColumns, int numBRows, int numBColumns,
                          int numCRows, int numCColumns)
{
    dim3 dimGrid(ceil(numCColumns / BLOCK_WIDTH), ceil(numCRows / BLOCK_WIDTH), 1);
    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 1);
    matrixMultiply<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
