/* baseline.cu - lab spmv-jds's library baseline (lab.json "baseline"; timed
 * beside the reference by bench/gpu_labs.sh). cuSPARSE has no JDS format:
 * the matrix is converted to CSR once, on the host, at the first call (the
 * bench's untimed warm-up), and each call is cuSPARSE's SpMV on that CSR
 * matrix, whose rows are the original rows (no permutation to undo). The
 * yardstick of the same product on the same matrix. Never graded. */
#include <cusparse.h>
#include <stdio.h>
#include <stdlib.h>

#include "library.h"

/* The CSR arrays of the JDS matrix, on the device. */
static void to_csr(const int *dColPtr, const int *dColIdx, const float *dVal, const int *dPerm, const int *dRowLen,
                   int rows, long width, long nnz, int **rowPtr, int **colIdx, float **val)
{
    int *colPtr = (int *)malloc((width + 1) * sizeof(int)), *jcol = (int *)malloc(nnz * sizeof(int));
    int *perm = (int *)malloc(rows * sizeof(int)), *len = (int *)malloc(rows * sizeof(int));
    float *jval = (float *)malloc(nnz * sizeof(float));
    int *ptr = (int *)calloc(rows + 1, sizeof(int)), *col = (int *)malloc(nnz * sizeof(int));
    float *v = (float *)malloc(nnz * sizeof(float));
    BENCH_CHECK(cudaMemcpy(colPtr, dColPtr, (width + 1) * sizeof(int), cudaMemcpyDeviceToHost));
    BENCH_CHECK(cudaMemcpy(jcol, dColIdx, nnz * sizeof(int), cudaMemcpyDeviceToHost));
    BENCH_CHECK(cudaMemcpy(jval, dVal, nnz * sizeof(float), cudaMemcpyDeviceToHost));
    BENCH_CHECK(cudaMemcpy(perm, dPerm, rows * sizeof(int), cudaMemcpyDeviceToHost));
    BENCH_CHECK(cudaMemcpy(len, dRowLen, rows * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < rows; i++)
        ptr[perm[i] + 1] = len[i];
    for (int r = 0; r < rows; r++)
        ptr[r + 1] += ptr[r];
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < len[i]; j++) {
            long k = colPtr[j] + i, at = ptr[perm[i]] + j;
            col[at] = jcol[k], v[at] = jval[k];
        }
    BENCH_CHECK(cudaMalloc(rowPtr, (rows + 1) * sizeof(int)));
    BENCH_CHECK(cudaMalloc(colIdx, nnz * sizeof(int)));
    BENCH_CHECK(cudaMalloc(val, nnz * sizeof(float)));
    BENCH_CHECK(cudaMemcpy(*rowPtr, ptr, (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    BENCH_CHECK(cudaMemcpy(*colIdx, col, nnz * sizeof(int), cudaMemcpyHostToDevice));
    BENCH_CHECK(cudaMemcpy(*val, v, nnz * sizeof(float), cudaMemcpyHostToDevice));
    free(colPtr), free(jcol), free(perm), free(len), free(jval), free(ptr), free(col), free(v);
}

void launchSpMVJDS(const int *colPtr, const int *colIdx, const float *val, const int *perm, const int *rowLen,
                   const float *x, float *y, int rows)
{
    static cusparseHandle_t handle;
    static cusparseSpMatDescr_t A;
    static cusparseDnVecDescr_t dx, dy;
    static void *buffer;
    static const float *made_for;
    const float one = 1.0f, zero = 0.0f;
    if (made_for != val) { /* the first call on these arrays (the bench's warm-up) */
        long width = bench_input_elements(0) - 1, nnz = bench_input_elements(1), cols = bench_input_elements(5);
        int *rowPtr, *col;
        float *v;
        size_t bytes = 0;
        to_csr(colPtr, colIdx, val, perm, rowLen, rows, width, nnz, &rowPtr, &col, &v);
        BENCH_CHECK(cusparseCreate(&handle));
        BENCH_CHECK(cusparseCreateCsr(&A, rows, cols, nnz, rowPtr, col, v, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                      CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
        BENCH_CHECK(cusparseCreateDnVec(&dx, cols, (void *)x, CUDA_R_32F));
        BENCH_CHECK(cusparseCreateDnVec(&dy, rows, y, CUDA_R_32F));
        BENCH_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, dx, &zero, dy,
                                            CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
        BENCH_CHECK(cudaMalloc(&buffer, bytes ? bytes : 4));
        made_for = val;
    }
    BENCH_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, dx, &zero, dy, CUDA_R_32F,
                             CUSPARSE_SPMV_ALG_DEFAULT, buffer));
}
