/* row_end_inclusive.cu - lab spmv test submission: each row's loop runs
 * to rowPtr[row + 1] inclusive, adding the next row's first nonzero (and
 * reading past val and colIdx on the last row). Expected verdict: wrong
 * rows, and memory-safe fails on the read past the arrays. */
#define BLOCK_SIZE 256

__global__ void spmvCSR(const int *rowPtr, const int *colIdx, const float *val, const float *x, float *y, int rows)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float sum = 0.0f;
        for (int k = rowPtr[row]; k <= rowPtr[row + 1]; k++) /* BUG: one past the row */
            sum += val[k] * x[colIdx[k]];
        y[row] = sum;
    }
}

void launchSpMV(const int *deviceRowPtr, const int *deviceColIdx, const float *deviceVal, const float *deviceX,
                float *deviceY, int rows)
{
    spmvCSR<<<(rows + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(deviceRowPtr, deviceColIdx, deviceVal, deviceX,
                                                                   deviceY, rows);
}
