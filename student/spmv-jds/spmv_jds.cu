/* spmv_jds.cu - lab spmv-jds: y = A x for a sparse matrix in JDS, one thread
 * a sorted row. The handout is labs/spmv-jds/README.md; `make grade
 * LAB=spmv-jds` grades it. */

#define BLOCK_SIZE 256

__global__ void spmvJDS(const int *colPtr, const int *colIdx, const float *val, const int *perm, const int *rowLen,
                        const float *x, float *y, int rows)
{
    //@@ sorted row i: the sum over j < rowLen[i] of val[colPtr[j] + i] * x[colIdx[colPtr[j] + i]],
    //@@ stored at y[perm[i]]
}

void launchSpMVJDS(const int *colPtr, const int *colIdx, const float *val, const int *perm, const int *rowLen,
                   const float *x, float *y, int rows)
{
    //@@ enough blocks of BLOCK_SIZE threads for every row
}
