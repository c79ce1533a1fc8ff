/* sequential_sum.cu - lab dotprod test submission: no reduction at all; a
 * single thread adds every product into one float, sequentially:
 *
 *     dotProductShared<<<1, 1>>>(...);        // one thread
 *     float sum = 0; for (i = 0; i < n; i++) sum += A[i] * B[i];
 *     partial[0] = sum;   return 1;
 *
 * The answer is right up to rounding, but a float running sum of n terms
 * has an error bound of about n * 2^-24 * sum|a_i b_i| instead of the tree's
 * log2(n) * 2^-24 * sum|a_i b_i|: once the sum is large, each product added
 * loses its low bits. With values of one sign the sum grows to about 4 n, and
 * past 2^24 (n of a few million) a product of 0.01..16 is added to a float
 * whose ulp is 2 or more.
 * Expected verdict: compiles; fails uses-shared-memory (no shared memory);
 * the datasets depend on the values. Seen on the emulator with values k/10,
 * k in 1..40 (one sign): 1, 255, 256, 257 and 1000 pass; 10000 (error 0.042,
 * tolerance 0.040), 65537 (0.53 against 0.31), 2^20 + 3 (566 against 6.0)
 * and 2^24 + 1 (1.8e6 against 113: the float sum stalls) fail. With values
 * k/10 - 2 (both signs) the running sum stays small and every dataset,
 * 2^24 + 1 included, passes. The same on an H100 (2^24 + 1, one sign: off by
 * 1.7e6). Also the slowest possible kernel: one thread on the whole GPU, 484
 * ms at 2^24 + 1 on an H100 against the reference's 0.09 ms. */

#define BLOCK_SIZE 256

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    float sum = 0.0f;
    for (int i = 0; i < n; i++)
        sum += A[i] * B[i];
    partial[0] = sum;
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    dotProductShared<<<1, 1>>>(deviceA, deviceB, devicePartial, n);
    return 1;
}
