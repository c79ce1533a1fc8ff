/* row_loop_le.cu - one thread a row, the row's range read once into start and end
 * bug: the loop runs k <= end, one nonzero past the row: each row adds the next row's first product (and the last row reads past val and colIdx); fix: k < end.
 * expect: row-end-inclusive global-oob
 */
#define BLOCK_SIZE 128

__global__ void spmvRows(const int *rowPtr, const int *colIdx, const float *val, const float *x, float *y, int rows)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows)
        return;
    int start = rowPtr[row], end = rowPtr[row + 1];
    float dot = 0.0f;
    for (int k = start; k <= end; ++k)
        dot += val[k] * x[colIdx[k]];
    y[row] = dot;
}

void launchSpMV(const int *deviceRowPtr, const int *deviceColIdx, const float *deviceVal, const float *deviceX,
                float *deviceY, int rows)
{
    spmvRows<<<(rows + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(deviceRowPtr, deviceColIdx, deviceVal, deviceX,
                                                                   deviceY, rows);
}
