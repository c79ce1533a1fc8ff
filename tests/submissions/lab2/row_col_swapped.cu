/* row_col_swapped.cu - lab 2 test submission: x and y swapped in the kernel's
 * index arithmetic, the grid left as the handout has it:
 *
 *     int row = blockIdx.x * blockDim.x + threadIdx.x;   // BUG: x for the row
 *     int col = blockIdx.y * blockDim.y + threadIdx.y;   // BUG: y for the column
 *
 * The grid has ceil(N/16) blocks along x and ceil(M/16) along y, so the
 * threads cover rows 0..16*ceil(N/16)-1 and columns 0..16*ceil(M/16)-1: the
 * whole of C only when M and N need the same number of blocks. Whatever a
 * thread computes is right (it reads row `row` of A and column `col` of B),
 * and the boundary check keeps every access inside the matrices.
 * Expected verdict: passes the 11 datasets where ceil(M/16) == ceil(N/16)
 * (0, 1, 2, 5, 8, 10, 11, 15, 16, 17, 18), and both checks. The grader has
 * no hypothesis for this mistake: the other datasets fail with
 * "partly-unwritten", "N of T elements were never written (they still hold
 * the NaN poison): check that the grid covers the whole output and the
 * condition on the store" (dataset 4, 100x128x64: 2304 of 6400), except
 * dataset 6 (256x256x257), where only column 256 is left and the grader says
 * "grid-too-small ... use ceiling division", which this grid already does
 * (reported as misleading). On a GPU it is also slow: the threads of a warp
 * walk down a column of A and C. */

#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x; /* BUG: x for the row */
    int col = blockIdx.y * blockDim.y + threadIdx.y; /* BUG: y for the column */
    if (row < numCRows && col < numCColumns) {
        float sum = 0.0f;
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
