// oob_store.cu - the executor's tests (test_ptx_checks.cpp): a store with
// no bounds check, so the threads past n write outside the array.
__global__ void storeIndex(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    (void)n;
    out[i] = i; // line 7: the unguarded store
}
