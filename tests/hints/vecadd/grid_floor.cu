/* grid_floor.cu - one thread an element, the grid sized n / BLOCK_SIZE
 * bug: integer division rounds the block count down, so the last n % 256 elements get no thread (and n < 256 gets no block at all); fix: (n + BLOCK_SIZE - 1) / BLOCK_SIZE blocks.
 * expect: grid-too-small
 */
#define BLOCK_SIZE 256

__global__ void vectorAdd(const float *A, const float *B, float *C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        C[i] = A[i] + B[i];
}

void launchVectorAdd(const float *deviceA, const float *deviceB, float *deviceC, int n)
{
    int blocks = n / BLOCK_SIZE;
    if (blocks > 0)
        vectorAdd<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, deviceC, n);
}
