/* b_row_width_k.cu - textbook kernel with named widths; B indexed with A's width
 * bug: B is read as B[k*numAColumns + col], a row stride of K instead of N (the student reused "the width" from A's index); fix: B[k*numBColumns + col].
 * expect: b-stride-k global-oob
 */
#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int r = blockIdx.y * BLOCK_WIDTH + threadIdx.y;
    int c = blockIdx.x * BLOCK_WIDTH + threadIdx.x;
    int width = numAColumns;

    if (r < numCRows && c < numCColumns) {
        float s = 0.0f;
        for (int k = 0; k < width; ++k)
            s += A[r * width + k] * B[k * width + c];
        C[r * numCColumns + c] = s;
    }
}

void launchMatrixMultiply(const float *deviceA, const float *deviceB, float *deviceC,
                          int numARows, int numAColumns, int numBRows, int numBColumns,
                          int numCRows, int numCColumns)
{
    dim3 block(BLOCK_WIDTH, BLOCK_WIDTH);
    dim3 grid((numCColumns - 1) / BLOCK_WIDTH + 1, (numCRows - 1) / BLOCK_WIDTH + 1);
    matrixMultiply<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns, numBRows,
                                    numBColumns, numCRows, numCColumns);
}
