/* reads_row_col_swapped.cu - one thread per element, but the dot product reads row `col` of A and column `row` of B
 * bug: the student swapped row and col in the reads, sum += A[col*numAColumns + k] * B[k*numBColumns + row], so each thread computes C[col][row] and stores it at (row, col); on non-square C the swapped indices run past A and B. Fix: A[row*numAColumns + k] * B[k*numBColumns + col].
 * expect: c-transposed global-oob
 */
#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;

    if (row < numCRows && col < numCColumns) {
        float sum = 0.0f;
        for (int k = 0; k < numAColumns; k++) {
            sum += A[col * numAColumns + k] * B[k * numBColumns + row];
        }
        C[row * numCColumns + col] = sum;
    }
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
