// a seed for fuzz_srccheck: a small kernel with the usual includes
#include <cstdio>
#include "inc.h"
#define TILE 16
__global__ void scale(const float *in, float *out, int n)
{
    __shared__ float t[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        t[threadIdx.x] = in[i] * 2.0f;
    __syncthreads();
    if (i < n)
        out[i] = t[threadIdx.x];
}
static const char *msg = "raw " R"x(string)x" "\x41";
