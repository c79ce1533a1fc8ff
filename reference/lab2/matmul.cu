/* matmul.cu - lab 2 reference solution: basic (untiled) matrix
 * multiplication, C = A * B for any shape (PMPP 3.4).
 *
 * A is numARows x numAColumns, B is numBRows x numBColumns, C is numCRows x
 * numCColumns, all row-major in device memory (the harness checks that
 * numAColumns == numBRows, numCRows == numARows, numCColumns == numBColumns,
 * and checks every CUDA error, so this file checks nothing itself).
 *
 * One thread per element of C, in BLOCK_WIDTH x BLOCK_WIDTH blocks: thread
 * (row, col) reads row `row` of A and column `col` of B straight from global
 * memory and stores their dot product. Each element of A is thus read
 * numCColumns times and each element of B numCRows times (lab 3 tiles the
 * loads through shared memory to cut that traffic). */

#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    /* x goes along the columns of C, y along its rows: the 32 threads of a
     * warp (consecutive threadIdx.x) read consecutive elements of a row of B
     * and write consecutive elements of a row of C. */
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;

    /* The grid rounds up, so the blocks on the right and bottom edges of C
     * hold threads outside it: they must not read or write anything. */
    if (row < numCRows && col < numCColumns) {
        float sum = 0.0f;
        for (int k = 0; k < numAColumns; ++k)
            sum += A[row * numAColumns + k] * B[k * numBColumns + col];
        C[row * numCColumns + col] = sum;
    }
    (void)numARows, (void)numBRows; /* equal to numCRows and numAColumns */
}

/* One thread per element of C: BLOCK_WIDTH x BLOCK_WIDTH blocks, and enough
 * of them (ceiling division) to cover the partial blocks at the right and
 * bottom edges of C. */
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
