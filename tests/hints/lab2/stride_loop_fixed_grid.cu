/* stride_loop_fixed_grid.cu - a fixed 8 x 4 grid with a grid-stride loop over the columns, and none over the rows
 * bug: the columns loop with stride blockDim.x * gridDim.x but each thread handles only one row, so rows past 4 * 16 = 64 are never computed; fix: loop over the rows the same way (row += blockDim.y * gridDim.y) or size the grid by ceiling division.
 * expect: grid-too-small
 */
#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= numCRows)
        return;
    for (int col = blockIdx.x * blockDim.x + threadIdx.x; col < numCColumns;
         col += blockDim.x * gridDim.x) {
        float sum = 0.0f;
        for (int k = 0; k < numAColumns; ++k)
            sum += A[row * numAColumns + k] * B[k * numBColumns + col];
        C[row * numCColumns + col] = sum;
    }
}

void launchMatrixMultiply(const float *deviceA, const float *deviceB, float *deviceC,
                          int numARows, int numAColumns, int numBRows, int numBColumns,
                          int numCRows, int numCColumns)
{
    dim3 block(BLOCK_WIDTH, BLOCK_WIDTH);
    dim3 grid(8, 4); /* enough threads, the loop takes care of the rest */
    matrixMultiply<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns, numBRows,
                                    numBColumns, numCRows, numCColumns);
}
