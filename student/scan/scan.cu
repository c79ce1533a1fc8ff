/* scan.cu - lab scan: the inclusive prefix sums S[i] = A[0] + ... + A[i] of n
 * floats, work-efficiently. The handout is labs/scan/README.md; `make grade
 * LAB=scan` grades this file. */

#define BLOCK_SIZE 1024
#define SECTION (2 * BLOCK_SIZE)

__global__ void scanSections(const float *A, float *S, float *sums, int n)
{
    //@@ load a section of 2 * BLOCK_SIZE elements into shared memory (0 past n), scan it with the
    //@@ reduction tree and the distribution tree, write it to S and its total to sums[blockIdx.x]
}

__global__ void addSums(float *S, const float *scannedSums, int n)
{
    //@@ add the total of the sections before section blockIdx.x + 1 to each of its elements
}

void launchScan(const float *deviceA, float *deviceS, int n)
{
    //@@ scan the sections; with more than one, scan their totals (the same function) and add them back
}
