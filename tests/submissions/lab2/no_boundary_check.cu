/* no_boundary_check.cu - lab 2 test submission: the kernel has no boundary
 * check,
 *
 *     int row = ..., col = ...;
 *     float sum = 0.0f;                       // BUG: no if (row < numCRows
 *     for (int k = 0; ...)                    //      && col < numCColumns)
 *
 * The grid rounds up, so the blocks on the right and bottom edges of C have
 * threads outside it. A thread with row >= M reads past the end of A and
 * writes past the end of C. A thread with col >= N reads B[k*N + col], which
 * is B[k+1][col-N] (and past the end of B on the last k), and writes
 * C[row*N + col], which is C[row+1][col-N]: it overwrites an element of the
 * next row with garbage (NaN where it read past B, on the emulator).
 * Expected verdict: memory-safe fails (out-of-bounds reads of A and B and
 * out-of-bounds writes of C, at the sum and the store). The datasets whose
 * N is a multiple of 16 (0-5, 9, 13, 15, 16) and those whose C is one row or
 * one block wide (8: 1x200x1, 17: 1x1x1, 18: 2x1000x3) pass on the emulator:
 * their stray writes land past the end of C, or before the right thread's
 * write (threads of one block run in order there). The other seven (6, 7,
 * 10, 11, 12, 14, 19) fail with "some-wrong" (NaN in C[row+1][0..]) and the
 * likely cause "an access outside a matrix". On a GPU which write wins is
 * down to timing. */

#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f; /* BUG: no check that (row, col) lies inside C */
    for (int k = 0; k < numAColumns; ++k)
        sum += A[row * numAColumns + k] * B[k * numBColumns + col];
    C[row * numCColumns + col] = sum;
    (void)numARows, (void)numBRows, (void)numCRows;
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
