/* kogge_stone_no_sums.cu - a Kogge-Stone scan of 512-element sections, one element a thread, double-buffered in shared memory
 * bug: each section is scanned on its own and the totals of the sections before it are never added: every section past the first restarts at its own first element; fix: scan the sections' totals and add each one's preceding total to its elements.
 * expect: no-block-sums
 */
#define SECTION 512

__global__ void koggeStone(const float *A, float *S, int n)
{
    __shared__ float buf[2][SECTION];
    int t = threadIdx.x, i = blockIdx.x * SECTION + t, in = 0;
    buf[0][t] = i < n ? A[i] : 0.0f;
    for (int stride = 1; stride < SECTION; stride *= 2) {
        __syncthreads();
        buf[1 - in][t] = t >= stride ? buf[in][t] + buf[in][t - stride] : buf[in][t];
        in = 1 - in;
    }
    if (i < n)
        S[i] = buf[in][t];
}

void launchScan(const float *deviceA, float *deviceS, int n)
{
    koggeStone<<<(n + SECTION - 1) / SECTION, SECTION>>>(deviceA, deviceS, n);
}
