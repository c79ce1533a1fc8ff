/* no_block_sums.cu - lab scan test submission: each section is scanned
 * right, but the sections' totals are never scanned and added back.
 * Expected verdict: the datasets of one section (n <= 2048) pass; every
 * longer one fails, its first section right and every later one off. */
#define BLOCK_SIZE 1024
#define SECTION (2 * BLOCK_SIZE)

/* Scans one section of A into S (0 past n); writes its total to sums[blockIdx.x] when sums is not null. */
__global__ void scanSections(const float *A, float *S, float *sums, int n)
{
    __shared__ float x[SECTION];
    int t = threadIdx.x, start = blockIdx.x * SECTION;
    x[t] = start + t < n ? A[start + t] : 0.0f;
    x[t + BLOCK_SIZE] = start + t + BLOCK_SIZE < n ? A[start + t + BLOCK_SIZE] : 0.0f;
    for (int stride = 1; stride <= BLOCK_SIZE; stride *= 2) { /* the reduction tree */
        __syncthreads();
        int i = (t + 1) * 2 * stride - 1;
        if (i < SECTION)
            x[i] += x[i - stride];
    }
    for (int stride = SECTION / 4; stride > 0; stride /= 2) { /* the distribution tree */
        __syncthreads();
        int i = (t + 1) * 2 * stride - 1;
        if (i + stride < SECTION)
            x[i + stride] += x[i];
    }
    __syncthreads();
    if (start + t < n)
        S[start + t] = x[t];
    if (start + t + BLOCK_SIZE < n)
        S[start + t + BLOCK_SIZE] = x[t + BLOCK_SIZE];
    if (sums && t == 0)
        sums[blockIdx.x] = x[SECTION - 1];
}

/* Adds the total of every section before it to each element of section blockIdx.x + 1. */
__global__ void addSums(float *S, const float *scannedSums, int n)
{
    int i = (blockIdx.x + 1) * SECTION + threadIdx.x;
    float before = scannedSums[blockIdx.x];
    if (i < n)
        S[i] += before;
    if (i + BLOCK_SIZE < n)
        S[i + BLOCK_SIZE] += before;
}

void launchScan(const float *deviceA, float *deviceS, int n)
{
    int sections = (n + SECTION - 1) / SECTION;
    if (sections == 1) {
        scanSections<<<1, BLOCK_SIZE>>>(deviceA, deviceS, nullptr, n);
        return;
    }
    float *sums, *scanned;
    cudaMalloc(&sums, sections * sizeof(float));
    cudaMalloc(&scanned, sections * sizeof(float));
    scanSections<<<sections, BLOCK_SIZE>>>(deviceA, deviceS, sums, n);
    /* BUG: the sections' totals are never added back */
    cudaFree(sums);
    cudaFree(scanned);
}
