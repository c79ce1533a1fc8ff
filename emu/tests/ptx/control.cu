// control.cu - the executor's tests (test_ptx_checks.cpp): divergence
// that meets again, a barrier that some threads return before, a loop
// that never ends, and integer edge cases.
__global__ void diverge(int *out, int n)
{
    int i = threadIdx.x;
    int v;
    if (i % 3 == 0)
        v = i * 10;
    else if (i % 3 == 1)
        v = -i;
    else
        for (v = 0; v < i; v++)
            ;
    out[i] = v + n; // every lane stores after the paths join
}

__global__ void earlyReturn(float *out, int n)
{
    __shared__ float s[64];
    int i = threadIdx.x;
    if (i >= n)
        return;       // line 23: these threads never reach the barrier
    s[i] = (float)i;
    __syncthreads();  // line 25
    out[i] = s[n - 1 - i];
}

__global__ void spin(volatile int *flag)
{
    while (*flag == 0) // never changes
        ;
}

__global__ void intEdges(int *out, unsigned *uout, int a, int b)
{
    out[0] = a / b;     // INT_MIN / -1 and division by zero must not stop the executor
    out[1] = a % b;
    out[2] = a >> 3;
    uout[0] = (unsigned)a / (unsigned)b;
    out[3] = __mul24(a, 3);
    out[4] = (int)(float)a;
    out[5] = __float2int_rz(-2.75f * (float)(b + 1));
}

__global__ void halfThenTail(float *out)
{
    int i = threadIdx.x;
    float v = (float)i;
    if (i & 1) // half the lanes loop (a branch nvcc cannot predicate), then all go on
        for (int k = 0; k < i; k++)
            v = v * 0.75f + 1.0f;
#pragma unroll
    for (int k = 0; k < 64; k++)
        v = v * 0.5f + 1.0f;
    out[i] = v;
}

__global__ void accumulate(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += 1.0f; // line 63: out was never written
}
