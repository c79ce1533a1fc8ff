/* no_launch.cu - lab 2 test submission: the kernel is right, but the launch
 * function never launches it (the student wrote the kernel and left the
 * launch function's last step out):
 *
 *     dim3 grid(...), block(...);
 *     // BUG: no matrixMultiply<<<grid, block>>>(...);
 *
 * Expected verdict: compiles; every dataset fails with "never-written",
 * "none of the N elements was written" and the hint "output never written:
 * every element still holds the NaN poison the harness put there; does the
 * launch function launch the kernel, ...?". The checks are not run ("no
 * kernel was launched"). 0/90. */

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
    dim3 grid((numCColumns + BLOCK_WIDTH - 1) / BLOCK_WIDTH,
              (numCRows + BLOCK_WIDTH - 1) / BLOCK_WIDTH);
    /* BUG: matrixMultiply is never launched */
    (void)grid, (void)block, (void)deviceA, (void)deviceB, (void)deviceC, (void)numARows;
    (void)numAColumns, (void)numBRows, (void)numBColumns;
}
