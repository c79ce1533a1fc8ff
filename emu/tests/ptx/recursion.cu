// recursion.cu - the executor's tests (test_ptx_features.cpp): a device
// function that calls itself twice, which nvcc cannot turn into a loop and
// the executor cannot inline: refused by name.
__device__ __noinline__ int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }

__global__ void recursive(int *out) { *out = fib((int)threadIdx.x + 5); }
