/* k_from_one.cu - one thread per element of C, the dot-product loop written 1-based out of habit
 * bug: for (int k = 1; k < numAColumns; k++) skips the k = 0 term of every dot product (the student mixed up a 1-based loop with a < bound); fix: start at k = 0.
 * expect: k-off-by-one
 */
#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < numCRows && col < numCColumns) {
        float value = 0.0f;
        for (int k = 1; k < numAColumns; k++)
            value += A[row * numAColumns + k] * B[k * numBColumns + col];
        C[row * numCColumns + col] = value;
    }
}

void launchMatrixMultiply(const float *deviceA, const float *deviceB, float *deviceC,
                          int numARows, int numAColumns, int numBRows, int numBColumns,
                          int numCRows, int numCColumns)
{
    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH);
    dim3 dimGrid((numCColumns + BLOCK_WIDTH - 1) / BLOCK_WIDTH,
                 (numCRows + BLOCK_WIDTH - 1) / BLOCK_WIDTH);
    matrixMultiply<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
