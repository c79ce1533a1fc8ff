/* early_return.cu - lab 2 test submission, correct: threads outside C
 * return at the top of the kernel,
 *
 *     if (row >= numCRows || col >= numCColumns)
 *         return;
 *
 * which is a bug in lab 3 (the tiled kernel's threads must all reach every
 * __syncthreads()) but fine here: this kernel has no barrier.
 * Expected verdict: compiles and passes all 20 datasets and both checks
 * (race-free, memory-safe): 90/90 on the emulator. */

#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= numCRows || col >= numCColumns)
        return; /* fine: no __syncthreads() in this kernel */
    float sum = 0.0f;
    for (int k = 0; k < numAColumns; ++k)
        sum += A[row * numAColumns + k] * B[k * numBColumns + col];
    C[row * numCColumns + col] = sum;
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
