/* dp_no_zero_tail.cu - guarded load written as an if with no else: threads past n leave their shared slot alone
 * bug: if (i < n) s[tid] = A[i] * B[i]; leaves s[tid] unwritten for the idle threads of the last block, and the tree adds that garbage; fix: store 0 when i >= n (s[tid] = i < n ? A[i]*B[i] : 0).
 * expect: uninit-shared
 */
#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float s[BLOCK_SIZE];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;

    if (i < n)
        s[tid] = A[i] * B[i];
    __syncthreads();

    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = s[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    int blocks = (n - 1) / BLOCK_SIZE + 1;
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return blocks;
}
