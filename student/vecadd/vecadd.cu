/* vecadd.cu - lab vecadd: your first kernel. Write vectorAdd so that each
 * thread adds one pair, C[i] = A[i] + B[i], and launch enough blocks for
 * all n elements. The handout is labs/vecadd/README.md; `make grade
 * LAB=vecadd` grades this file. */

#define BLOCK_SIZE 256

__global__ void vectorAdd(const float *A, const float *B, float *C, int n)
{
    //@@ the element this thread adds, and C[i] = A[i] + B[i] if it is inside the vectors
}

void launchVectorAdd(const float *deviceA, const float *deviceB, float *deviceC, int n)
{
    //@@ a grid of enough blocks of BLOCK_SIZE threads for n elements, and the launch
}
