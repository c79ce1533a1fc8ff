/* block_too_big.cu - lab 2 test submission: a correct kernel launched in
 * blocks of 64 x 64 = 4096 threads; a block may have at most 1024:
 *
 *     #define BLOCK_WIDTH 64                          // BUG
 *     dim3 block(BLOCK_WIDTH, BLOCK_WIDTH);
 *
 * The launch fails before any thread runs, with cudaErrorInvalidValue
 * ("invalid argument") on an H100 with CUDA 13 and on the emulator (older
 * CUDA versions reported cudaErrorInvalidConfiguration); the harness reports the
 * error after the launch function and exits with status 3.
 * Expected verdict: every dataset fails with
 * "cuda-error:invalid-configuration" and the hint "a launch with an invalid
 * configuration: ... or more than 1024 threads per block"; the emulator's
 * line says "block (64,64,1) has 4096 threads, the limit is 1024". The
 * checks are not run ("no kernel was launched"). 0/90. */

#define BLOCK_WIDTH 64 /* BUG: 64 x 64 threads per block */

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
    matrixMultiply<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns, numBRows,
                                    numBColumns, numCRows, numCColumns);
}
