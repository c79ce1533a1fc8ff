/* block_32x64.cu - a correct kernel launched with 32 x 64 blocks ("more threads per block is faster")
 * bug: dim3 block(32, 64) is 2048 threads, above the limit of 1024 per block, so the launch fails and nothing is computed; fix: at most 32 x 32 (or the handout's 16 x 16).
 * expect: block-too-big
 */
#define BLOCK_X 32
#define BLOCK_Y 64

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
}

void launchMatrixMultiply(const float *deviceA, const float *deviceB, float *deviceC,
                          int numARows, int numAColumns, int numBRows, int numBColumns,
                          int numCRows, int numCColumns)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((numCColumns + BLOCK_X - 1) / BLOCK_X, (numCRows + BLOCK_Y - 1) / BLOCK_Y);
    matrixMultiply<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns, numBRows,
                                    numBColumns, numCRows, numCColumns);
}
