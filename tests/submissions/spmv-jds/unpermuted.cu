/* unpermuted.cu - lab spmv-jds test submission: each sorted row's sum goes
 * to y[i], its place in the sorted order, not y[perm[i]]. Expected verdict:
 * wrong wherever the sort moved a row; on a 1 x 1 matrix the value is right
 * but the kernels never read perm, which fails it too (input-not-read). */
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
        y[i] = sum; /* BUG: the sorted row's place, not the matrix row's */
    }
}

void launchSpMVJDS(const int *colPtr, const int *colIdx, const float *val, const int *perm, const int *rowLen,
                   const float *x, float *y, int rows)
{
    spmvJDS<<<(rows + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(colPtr, colIdx, val, perm, rowLen, x, y, rows);
}
