// dyn_shared.cu - the executor's tests (test_vgpu.cpp): a kernel whose
// shared memory is all dynamic (extern __shared__), so that its launch
// asks for as much as the caller gives: each thread writes its index into
// the last word of that memory's block-sized window and reads it back.
__global__ void lastWords(int *out, int words)
{
    extern __shared__ int dyn[];
    dyn[words - blockDim.x + threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = dyn[words - 1 - threadIdx.x];
}
