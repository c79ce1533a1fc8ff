/* sum_int.cu - lab 2 test submission: the dot product is accumulated
 * in an int:
 *
 *     int sum = 0;   // BUG: float sum = 0.0f;
 *
 * sum += a * b converts every partial sum back to int, dropping its
 * fraction (the datasets hold values with one decimal).
 * Expected verdict: no dataset passes; each fails with "all-wrong" (or
 * "some-wrong" on 64x1x48 and 200x100x256, where a few sums happen to be
 * whole) and the hint "... none of the classic mistakes reproduces it
 * (tried: ...)": the grader has no hypothesis for a truncated sum, so it
 * says what it ruled out. The checks find nothing but score 0: no dataset
 * passed. */

#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < numCRows && col < numCColumns) {
        int sum = 0; /* BUG: an int accumulator drops every fraction */
        for (int k = 0; k < numAColumns; ++k)
            sum += A[row * numAColumns + k] * B[k * numBColumns + col];
        C[row * numCColumns + col] = sum;
    }
    (void)numARows, (void)numBRows;
}

void launchMatrixMultiply(const float *deviceA, const float *deviceB, float *deviceC,
                          int numARows, int numAColumns, int numBRows, int numBColumns,
                          int numCRows, int numCColumns)
{
    dim3 block(BLOCK_WIDTH, BLOCK_WIDTH);
    dim3 grid((numCColumns + BLOCK_WIDTH - 1) / BLOCK_WIDTH,
              (numCRows + BLOCK_WIDTH - 1) / BLOCK_WIDTH);
    matrixMultiply<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns, numBRows,
                                    numBColumns, numCRows, numCColumns);
}
