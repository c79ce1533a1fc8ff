/* gpu_starts.cu - one process of a batch's kind, as the GPU sees it outside
 * the timing queue: it makes its CUDA context (cudaFree(0)), allocates and
 * frees 64 MiB, and ends (its context torn down by the exit). Every lab
 * program and timing program of a batch starts and ends so, beside the
 * timed part of another submission (bench/timing_load.sh runs it in loops).
 * Exit 1 with the CUDA error when a call fails. */
#include <cuda_runtime.h>
#include <stdio.h>

int main(void)
{
    void *p = NULL;
    cudaError_t e = cudaFree(0);
    if (e == cudaSuccess)
        e = cudaMalloc(&p, (size_t)64 << 20);
    if (e == cudaSuccess)
        e = cudaFree(p);
    if (e != cudaSuccess) {
        fprintf(stderr, "gpu_starts: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
