/* k_off_by_one.cu - lab 2 test submission: the dot product loop runs one
 * step too far:
 *
 *     for (int k = 0; k <= numAColumns; ++k)   // BUG: k < numAColumns
 *
 * The extra step reads A[row*K + K] (the next row's first element, past
 * the end of A on the last row) and B[K*N + col], always past the end of B.
 * On the emulator such a read lands in the red zone around B, which holds a
 * NaN, so every element of C is NaN; on a GPU it adds whatever lies there.
 * Expected verdict: no dataset passes; each fails with "all-wrong", the hint
 * "every element is wrong; none of the classic mistakes reproduces it" and
 * the likely cause "an access outside a matrix (below)", followed by the
 * emulator's "Out-of-bounds read of B" at the loop's line. memory-safe
 * fails with that finding; race-free scores 0 (no dataset passed). */

#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < numCRows && col < numCColumns) {
        float sum = 0.0f;
        for (int k = 0; k <= numAColumns; ++k) /* BUG: one step too many */
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
