/* spmv.cu - lab spmv: y = A x for a sparse matrix A in CSR, one thread a
 * row. The handout is labs/spmv/README.md; `make grade LAB=spmv` grades it. */

#define BLOCK_SIZE 256

__global__ void spmvCSR(const int *rowPtr, const int *colIdx, const float *val, const float *x, float *y, int rows)
{
    //@@ the row of this thread: the sum of val[k] * x[colIdx[k]] over k from rowPtr[row] to rowPtr[row + 1] - 1
}

void launchSpMV(const int *deviceRowPtr, const int *deviceColIdx, const float *deviceVal, const float *deviceX,
                float *deviceY, int rows)
{
    //@@ enough blocks of BLOCK_SIZE threads for every row
}
