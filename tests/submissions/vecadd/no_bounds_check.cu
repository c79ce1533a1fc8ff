/* no_bounds_check.cu - lab vecadd test submission: every thread of the
 * last block stores, past the end of C when n is not a multiple of 256.
 * Expected verdict: the outputs are right (the stores past C land in its
 * red zone), memory-safe fails naming the line (one finding a line: the
 * first out-of-bounds access on it, a read of A where n = 1). */
#define BLOCK_SIZE 256

__global__ void vectorAdd(const float *A, const float *B, float *C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    C[i] = A[i] + B[i]; /* BUG: no bounds check */
}

void launchVectorAdd(const float *deviceA, const float *deviceB, float *deviceC, int n)
{
    int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    vectorAdd<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, deviceC, n);
}
