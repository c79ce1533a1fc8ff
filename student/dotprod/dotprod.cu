/* dotprod.cu - lab dotprod: the dot product of two vectors, with a tree
 * reduction in shared memory.
 *
 * Your task: complete dotProductShared (each block multiplies its BLOCK_SIZE
 * pairs of elements, reduces the products to one sum with a tree in shared
 * memory and stores it in partial[blockIdx.x]) and launchDotProduct (its
 * grid, block and launch, and the number of partial sums it wrote). The
 * harness (labs/kinds/reduction/driver.cu) allocates and copies the vectors,
 * calls your launch function with device pointers, checks for CUDA errors,
 * times it and adds up your partial sums on the host: do not allocate, copy,
 * synchronize or add up the partial sums here. Read labs/dotprod/README.md
 * first.
 *
 * A and B hold n floats each; n can be anything from 1 up (1, 255, 257,
 * 2^24 + 1, ...), not only a multiple of BLOCK_SIZE. devicePartial has room
 * for n floats.
 *
 * Keep the names and parameters below as they are: the grader calls them.
 * Grade it with `make grade LAB=dotprod` from the repository root. */

#define BLOCK_SIZE 256 /* threads per block; a power of two, for the tree */

__global__ void dotProductShared(const float *A, const float *B, float *partial, int n)
{
    //@@ Declare a __shared__ float array of BLOCK_SIZE elements for the
    //@@ products of this block.

    //@@ Compute this thread's element, i = blockIdx.x * BLOCK_SIZE +
    //@@ threadIdx.x, and store A[i] * B[i] in the shared array at
    //@@ threadIdx.x. Guard the loads: past the end (i >= n) store 0 instead
    //@@ (it adds nothing to the sum, and the tree can always reduce
    //@@ BLOCK_SIZE values).

    //@@ __syncthreads(): no thread may add up products before every thread
    //@@ has stored its own.

    //@@ The tree: for (stride = blockDim.x / 2; stride > 0; stride /= 2),
    //@@ the threads with threadIdx.x < stride add the element stride places
    //@@ further into their own; then __syncthreads(), OUTSIDE the if, so
    //@@ that every thread of the block reaches it and nobody starts the next
    //@@ step before every sum of this one is stored.

    //@@ Thread 0 stores the block's sum (element 0) in partial[blockIdx.x].

    //@@ Delete this line once you use the parameters.
    (void)A, (void)B, (void)partial, (void)n;
}

int launchDotProduct(const float *deviceA, const float *deviceB, float *devicePartial, int n)
{
    //@@ Choose the grid: one block of BLOCK_SIZE threads per BLOCK_SIZE
    //@@ elements, rounded up: (n + BLOCK_SIZE - 1) / BLOCK_SIZE blocks. Plain
    //@@ division drops the last, partial block (and gives 0 blocks, which
    //@@ fails to launch, when n < BLOCK_SIZE).

    //@@ Launch dotProductShared with the grid and BLOCK_SIZE threads per
    //@@ block. Do not check errors or synchronize here: the harness does
    //@@ both.

    //@@ Return the number of partial sums the kernel writes: one per block.
    //@@ (Until then this stub writes none and returns 1, so the grader
    //@@ reports the one partial sum it reads as never written.)

    //@@ Delete this line once you use the parameters.
    (void)deviceA, (void)deviceB, (void)devicePartial, (void)n;
    return 1;
}
