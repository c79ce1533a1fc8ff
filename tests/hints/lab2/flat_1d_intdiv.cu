/* flat_1d_intdiv.cu - 1-D launch of 256-thread blocks, one flat index per element of C split into row and column
 * bug: the grid is numCRows * numCColumns / 256 blocks, integer division, so the last (M*N) % 256 elements get no thread (and C with fewer than 256 elements gets a grid of 0); fix: (numCRows * numCColumns + 255) / 256.
 * expect: grid-too-small
 */
#define BLOCK_WIDTH 16
#define THREADS (BLOCK_WIDTH * BLOCK_WIDTH)

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < numCRows * numCColumns) {
        int row = idx / numCColumns;
        int col = idx % numCColumns;
        float sum = 0.0f;
        for (int k = 0; k < numAColumns; ++k)
            sum += A[row * numAColumns + k] * B[k * numBColumns + col];
        C[idx] = sum;
    }
}

void launchMatrixMultiply(const float *deviceA, const float *deviceB, float *deviceC,
                          int numARows, int numAColumns, int numBRows, int numBColumns,
                          int numCRows, int numCColumns)
{
    int total = numCRows * numCColumns;
    int blocks = total / THREADS;
    matrixMultiply<<<blocks, THREADS>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                        numBRows, numBColumns, numCRows, numCColumns);
}
