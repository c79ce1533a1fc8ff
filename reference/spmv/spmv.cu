/* spmv.cu - lab spmv reference solution: y = A x for a rows x cols sparse
 * matrix A in CSR (row pointers, column indices, values; PMPP 14.3), one
 * thread a row. Row r's nonzeros are val[rowPtr[r] .. rowPtr[r + 1] - 1],
 * in columns colIdx[...] of x; an empty row's y is 0. */

#define BLOCK_SIZE 256

__global__ void spmvCSR(const int *rowPtr, const int *colIdx, const float *val, const float *x, float *y, int rows)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float sum = 0.0f;
        for (int k = rowPtr[row]; k < rowPtr[row + 1]; k++)
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
