// clocks.cu - the executor's tests (test_ptx_features.cpp): the special
// registers a kernel reads of the machine (clock(), clock64(), the global
// timer, the SM and the warp it runs on), which the executor answers with
// values of its own, the same on every run.
__global__ void readClocks(unsigned long long *out)
{
    unsigned long long start = clock64();
    unsigned smid, nsmid, warpid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
    unsigned long long timer;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(timer));
    unsigned c32 = (unsigned)clock();
    unsigned long long end = clock64();
    if (threadIdx.x == 32 * (blockDim.x / 64)) { /* a thread of the second warp of a 64-thread block */
        unsigned long long *o = out + 6 * blockIdx.x;
        o[0] = end - start, o[1] = smid, o[2] = nsmid, o[3] = warpid, o[4] = timer, o[5] = c32;
    }
}
