/* recheck.h - the matmul timing program's re-check of a timed output
 * (perf.cu), on the device, with the lab's tolerance |got - e| <= atol +
 * rtol |e| in its negated form, so that a NaN (the poison of an element
 * never written) counts as wrong:
 *
 *   count_wrong   every element against an expected output (cuBLAS's)
 *   check_rows    chosen rows against their dot products in double, from
 *                 the inputs themselves: no expected output needed
 *
 * Both add the elements found wrong to a counter. */
#ifndef CUGRADE_MATMUL_RECHECK_H
#define CUGRADE_MATMUL_RECHECK_H

#include <cuda_runtime.h>

/* Whether got is outside the lab's tolerance of e. */
__device__ static inline int outside(float got, double e, float rtol, float atol)
{
    return !(fabs((double)got - e) <= atol + rtol * fabs(e));
}

/* Adds to *wrong the elements of got (n) outside the tolerance of expected's. */
__global__ static void count_wrong(const float *got, const float *expected, size_t n,
                                   float rtol, float atol, unsigned long long *wrong)
{
    unsigned int local = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        local += outside(got[i], expected[i], rtol, atol);
    if (local)
        atomicAdd(wrong, (unsigned long long)local);
}

/* Adds to *wrong the elements of C (m x n) outside the lab's tolerance in
 * row rows[blockIdx.y], each against its dot product of A (m x k) and B
 * (k x n) in double. */
__global__ static void check_rows(const float *A, const float *B, const float *C, int k, int n,
                                  const int *rows, float rtol, float atol,
                                  unsigned long long *wrong)
{
    int i = rows[blockIdx.y];
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    double e = 0;
    for (int p = 0; p < k; p++)
        e += (double)A[(size_t)i * k + p] * (double)B[(size_t)p * n + j];
    if (outside(C[(size_t)i * n + j], e, rtol, atol))
        atomicAdd(wrong, 1ull);
}

#endif
