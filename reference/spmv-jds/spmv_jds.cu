/* spmv_jds.cu - lab spmv-jds reference solution: y = A x for a sparse matrix
 * in JDS (PMPP 14.6), one thread a sorted row. Sorted row i (matrix row
 * perm[i], rowLen[i] nonzeros) has its j-th nonzero at colPtr[j] + i: the
 * threads of a warp read consecutive elements of each JDS column (coalesced),
 * and rows of similar length sit side by side (little divergence). */

#define BLOCK_SIZE 256

__global__ void spmvJDS(const int *colPtr, const int *colIdx, const float *val, const int *perm, const int *rowLen,
                        const float *x, float *y, int rows)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows) {
        float sum = 0.0f;
        for (int j = 0; j < rowLen[i]; j++) {
            int k = colPtr[j] + i;
            sum += val[k] * x[colIdx[k]];
        }
        y[perm[i]] = sum;
    }
}

void launchSpMVJDS(const int *colPtr, const int *colIdx, const float *val, const int *perm, const int *rowLen,
                   const float *x, float *y, int rows)
{
    spmvJDS<<<(rows + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(colPtr, colIdx, val, perm, rowLen, x, y, rows);
}
