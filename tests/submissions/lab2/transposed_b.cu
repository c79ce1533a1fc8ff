/* transposed_b.cu - lab 2 test submission: B read as if it were stored
 * transposed (column-major):
 *
 *     sum += A[row * numAColumns + k] * B[col * numBRows + k];   // BUG
 *
 * Every index stays inside B (col*K + k < N*K): the kernel computes A·Bᵀ,
 * B's K*N floats taken as an N x K matrix. B[col*K + k] is the same as
 * B[k*N + col] only when B is a vector, K = 1 or N = 1 (datasets 8:
 * 1x200x1, 9: 64x1x48, 17: 1x1x1).
 * Expected verdict: passes those 3 datasets; every other one fails with
 * "hypothesis:b-transposed" and the hint "every element equals A·Bᵀ: B is
 * read as B[col*numBRows + k] ... row-major B is B[k*numBColumns + col]".
 * The checks pass. */

#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < numCRows && col < numCColumns) {
        float sum = 0.0f;
        for (int k = 0; k < numAColumns; ++k)
            sum += A[row * numAColumns + k] * B[col * numBRows + k]; /* BUG: B transposed */
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
