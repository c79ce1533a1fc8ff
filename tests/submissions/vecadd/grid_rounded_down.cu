/* grid_rounded_down.cu - lab vecadd test submission: the grid is n / 256
 * blocks, rounded down. Expected verdict: n < 256 launches no block at all
 * (a grid of 0 blocks: the likely cause named); other n not a multiple of
 * 256 leave the last n % 256 elements never written, the grid named with
 * the integer ceiling division that fixes it; multiples of 256 pass. */
#define BLOCK_SIZE 256

__global__ void vectorAdd(const float *A, const float *B, float *C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) /* the last block reaches past n */
        C[i] = A[i] + B[i];
}

void launchVectorAdd(const float *deviceA, const float *deviceB, float *deviceC, int n)
{
    int blocks = n / BLOCK_SIZE; /* BUG: rounded down */
    vectorAdd<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, deviceC, n);
}
