/* sgemm.cu - the challenge lab: single-precision matrix multiplication as
 * fast as you can make it on the CUDA cores, C = A * B.
 *
 * Your task: write launchSgemm and the kernel(s) it launches. The harness
 * (labs/kinds/matmul/driver.cu, and on a GPU the timing program perf.cu)
 * allocates and copies the matrices, calls launchSgemm with device pointers,
 * checks for CUDA errors and times it: do not allocate A, B or C, copy them
 * or synchronize here. Read labs/challenge/README.md first: it walks the
 * ladder from lab 3's tiles to a kernel within 10% of cuBLAS.
 *
 * A is M x K, B is K x N and C is M x N, all row-major device pointers.
 * Any shape: 1 x 1 x 1, K = 1, a single row or column, sides that are not
 * multiples of anything (3001 x 2999 x 3003), tall and skinny. C holds NaN
 * on entry: write every element.
 *
 * The rule (fp32-simt, checked on your source, your object's symbols and
 * its SASS): FP32 arithmetic on the CUDA cores only. No tensor cores (no
 * <mma.h>/wmma, mma.sync, wgmma, TF32), no half, bfloat16 or FP8 math, no
 * library GEMM (cuBLAS, cuBLASLt, cuDNN, CUTLASS, Thrust). Breaking it
 * scores 0 on performance; correctness is still graded.
 *
 * You may launch any kernels you like, use any block size, dynamic shared
 * memory (above 48 KiB with cudaFuncSetAttribute), float4 loads,
 * __ldg, and cp.async through <cuda_pipeline.h>. Keep launchSgemm's name
 * and parameters: the grader calls it. Grade it with `make grade
 * LAB=challenge`; speed is graded on a GPU only. */

//@@ Choose your tiling: the block tile (BM x BN, stepping BK along K), the
//@@ warp tile and the thread tile (TM x TN outputs per thread in registers).
//@@ Start with the handout's first rung: BM = BN = 64, BK = 8, 4 x 4 per
//@@ thread, 256 threads.

__global__ void sgemmKernel(const float *A, const float *B, float *C, int M, int N, int K)
{
    //@@ Declare the shared-memory tiles: the A tile stored transposed
    //@@ (As[k][m], so that a thread's column of A is contiguous) and the
    //@@ B tile (Bs[k][n]).

    //@@ Zero the thread's TM x TN accumulators (registers: a local array
    //@@ indexed only by constants after unrolling).

    //@@ Loop over K in steps of BK (ceiling: the last step may be partial):
    //@@   1. the block copies the A and B tiles of this step into shared
    //@@      memory, writing 0 for elements outside A or B;
    //@@   2. __syncthreads();
    //@@   3. for each k of the step: load TM values of A and TN values of B
    //@@      from shared memory into registers, then TM * TN FMAs;
    //@@   4. __syncthreads() before the next step overwrites the tiles.
    //@@ Every thread reaches every barrier: never return early.

    //@@ Store the accumulators, only the elements inside C.

    //@@ Delete these lines once you use the parameters.
    (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
}

void launchSgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    //@@ One block per BM x BN tile of C: a grid of ceil(N / BN) x ceil(M / BM)
    //@@ blocks (x along the columns, y along the rows). Use ceiling
    //@@ division: plain division leaves the last, partial tiles unwritten,
    //@@ or launches a grid of 0 blocks when a side is below the tile.

    //@@ Launch sgemmKernel (or your own kernels). Do not check errors or
    //@@ synchronize here: the harness does both.

    //@@ Delete these lines once you use the parameters.
    (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
}
