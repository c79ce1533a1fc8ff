/* vecadd.cu - lab vecadd reference solution: C = A + B for vectors of n
 * floats, one thread an element.
 *
 * A, B and C are n floats each in device memory (any n >= 1). The grid has
 * ceil(n / BLOCK_SIZE) blocks in integer arithmetic; the last block's
 * threads past n do nothing. */

#define BLOCK_SIZE 256

__global__ void vectorAdd(const float *A, const float *B, float *C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) /* the last block reaches past n */
        C[i] = A[i] + B[i];
}

void launchVectorAdd(const float *deviceA, const float *deviceB, float *deviceC, int n)
{
    int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    vectorAdd<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, deviceC, n);
}
