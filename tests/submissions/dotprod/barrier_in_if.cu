/* barrier_in_if.cu - lab dotprod test submission: the tree's barrier inside
 * the if that selects the active threads:
 *
 *     if (tid < stride) {
 *         products[tid] += products[tid + stride];
 *         __syncthreads();   // BUG: only the threads tid < stride get here
 *     }
 *
 * Threads 128..255 never reach a barrier of the tree and leave the kernel
 * while threads 0..127 wait at it; at the next step threads 64..127 stop
 * coming, and so on: a barrier the whole block does not reach, undefined
 * behaviour on a GPU.
 * Expected diagnostics (emucc --checks, and the plain emulator too):
 * `barrier-divergence` in every block (10 per launch and a "more were not
 * shown" line), e.g. "block (0,0,0): 128 of 256 threads (threads (0,0,0) to
 * (127,0,0)) wait at the __syncthreads() at barrier_in_if.cu:38, but 128
 * (threads (128,0,0) to (255,0,0)) have already returned without reaching
 * it"; barriers-uniform fails.
 * Expected verdict: compiles, and every dataset passes on the emulator, which
 * releases the waiting threads as a current GPU does (the threads that left
 * have nothing more to add, so the sums come out right): only the
 * barriers-uniform check tells. On a GPU it is undefined behaviour (a hang or
 * garbage on some architectures); on an H100 every length gave the right sum,
 * about 1.35 times slower than the reference. */

#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    __shared__ float products[BLOCK_SIZE];
    const unsigned int tid = threadIdx.x;
    const int i = blockIdx.x * BLOCK_SIZE + tid;

    products[tid] = i < n ? A[i] * B[i] : 0.0f;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) {
            products[tid] += products[tid + stride];
            __syncthreads(); /* BUG: inside the if, not reached by the whole block */
        }
    }
    if (tid == 0)
        partial[blockIdx.x] = products[0];
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    const int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    dotProductShared<<<blocks, BLOCK_SIZE>>>(deviceA, deviceB, devicePartial, n);
    return blocks;
}
