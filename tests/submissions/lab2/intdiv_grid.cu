/* intdiv_grid.cu - lab 2 test submission: the correct kernel launched on
 * a grid computed with integer division instead of ceiling division:
 *
 *     dim3 grid(numCColumns / BLOCK_WIDTH, numCRows / BLOCK_WIDTH);   // BUG
 *
 * The last, partial block column and block row of C get no block, so those
 * elements keep the harness's poison.
 * Expected verdict: passes exactly the datasets whose M and N are both
 * multiples of 16 (0, 1, 2, 3, 5, 9, 15, 16: 8 of 20) and fails the other
 * twelve. Where M and N are at least 16 the failure is "grid-too-small": only
 * the right and/or bottom partial blocks of C were never written, "use
 * ceiling division" (dataset 4, 100x128x64: rows 96..99). Datasets 8
 * (1x200x1), 17 (1x1x1) and 18 (2x1000x3) give a grid with a 0 dimension,
 * which the runtime rejects: "cuda-error:invalid-configuration" (the driver
 * exits with status 3, no output). The checks pass (nothing out of bounds). */

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
    dim3 grid(numCColumns / BLOCK_WIDTH, numCRows / BLOCK_WIDTH); /* BUG: rounds down */
    matrixMultiply<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns, numBRows,
                                    numBColumns, numCRows, numCColumns);
}
