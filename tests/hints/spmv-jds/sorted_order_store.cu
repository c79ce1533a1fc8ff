/* sorted_order_store.cu - one thread a sorted row, walking its JDS columns with a running index
 * bug: the sum is stored at y[i], the row's place in the sorted order, not at y[perm[i]], the matrix row it is: every row the sort moved gets another row's sum; fix: y[perm[i]] = sum.
 * expect: unpermuted input-not-read
 */
#define BLOCK_SIZE 128

__global__ void jdsRows(const int *colPtr, const int *colIdx, const float *val, const int *rowLen, const float *x,
                        float *y, int rows)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows)
        return;
    float sum = 0.0f;
    for (int j = 0, k = colPtr[0] + i; j < rowLen[i]; k = colPtr[++j] + i)
        sum += val[k] * x[colIdx[k]];
    y[i] = sum;
}

void launchSpMVJDS(const int *colPtr, const int *colIdx, const float *val, const int *perm, const int *rowLen,
                   const float *x, float *y, int rows)
{
    jdsRows<<<(rows + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(colPtr, colIdx, val, rowLen, x, y, rows);
}
