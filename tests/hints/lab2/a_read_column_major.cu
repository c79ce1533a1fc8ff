/* a_read_column_major.cu - the student indexed A as if it were stored column-major (Fortran habit)
 * bug: A is read as A[k*numARows + row], i.e. the kernel multiplies by A-transposed read back row-major; fix: row-major A is A[row*numAColumns + k].
 * expect: a-transposed
 */
#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y; /* row of C */
    int j = blockIdx.x * blockDim.x + threadIdx.x; /* column of C */
    if (i < numCRows && j < numCColumns) {
        float cij = 0.0f;
        for (int k = 0; k < numAColumns; ++k)
            cij += A[k * numARows + i] * B[k * numBColumns + j];
        C[i * numCColumns + j] = cij;
    }
}

void launchMatrixMultiply(const float *deviceA, const float *deviceB, float *deviceC,
                          int numARows, int numAColumns, int numBRows, int numBColumns,
                          int numCRows, int numCColumns)
{
    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 1);
    dim3 dimGrid((numCColumns + BLOCK_WIDTH - 1) / BLOCK_WIDTH,
                 (numCRows + BLOCK_WIDTH - 1) / BLOCK_WIDTH, 1);
    matrixMultiply<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
