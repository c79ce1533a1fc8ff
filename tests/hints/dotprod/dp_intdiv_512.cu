/* dp_intdiv_512.cu - 512-thread blocks, the grid computed as n / 512 with a fix-up so that short vectors still get one block
 * bug: blocks = n / BLOCK_SIZE rounds down (the "if (blocks == 0) blocks = 1" only patches n < 512), so the elements past the last full block are never multiplied; fix: blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE.
 * expect: tail-dropped grid-too-small
 */
#define BLOCK_SIZE 512

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float sdata[BLOCK_SIZE];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * BLOCK_SIZE + t;

    sdata[t] = (i < n) ? A[i] * B[i] : 0.0f;
    __syncthreads();
    for (unsigned int stride = BLOCK_SIZE / 2; stride >= 1; stride /= 2) {
        if (t < stride)
            sdata[t] += sdata[t + stride];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = sdata[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int blocks = n / BLOCK_SIZE;
    if (blocks == 0)
        blocks = 1;
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return blocks;
}
