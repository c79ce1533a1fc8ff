/* store_transposed.cu - lab 2 test submission: every element of C is computed
 * right and stored transposed:
 *
 *     C[col * numCRows + row] = sum;   // BUG
 *
 * Every index stays inside C (col*M + row < N*M), so nothing is out of
 * bounds. Only a C of one element comes out right (1x200x1 and 1x1x1);
 * 64x1x48 has K = 1 but a 64x48 C, which is stored transposed like any.
 * Expected verdict: passes datasets 8 and 17; every other one fails with
 * "hypothesis:c-transposed" and the hint "every element is computed right
 * but stored in the wrong place: C is written as C[col*numCRows + row]
 * (transposed); row-major C is C[row*numCColumns + col]". The checks pass. */

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
        C[col * numCRows + row] = sum; /* BUG: C stored transposed */
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
