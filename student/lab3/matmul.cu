/* matmul.cu - lab 3: tiled matrix multiplication with shared memory.
 *
 * Your task: complete matrixMultiplyShared (C = A * B using TILE_WIDTH x
 * TILE_WIDTH tiles of A and B in shared memory) and
 * launchMatrixMultiplyShared (its grid, block and launch). The harness
 * (labs/kinds/matmul/driver.cu) allocates and copies the matrices, calls your launch
 * function with device pointers, checks for CUDA errors and times it: do not
 * allocate, copy or synchronize here. Read labs/lab3/README.md first.
 *
 * A is numARows x numAColumns, B is numBRows x numBColumns and C is numCRows x
 * numCColumns, all row-major. The shapes can be anything (1 x 200 x 1, 97 x
 * 89 x 101, ...), not only multiples of TILE_WIDTH.
 *
 * Keep the names and parameters below as they are: the grader calls them.
 * Grade it with `make grade` from the repository root. */

#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    //@@ Declare two TILE_WIDTH x TILE_WIDTH __shared__ float arrays, one for
    //@@ a tile of A and one for a tile of B.

    //@@ Compute the row and the column of C this thread is responsible for
    //@@ (from blockIdx, TILE_WIDTH and threadIdx), and a running sum.

    //@@ Loop over the phases: ceil(numAColumns / TILE_WIDTH) of them, so that
    //@@ the last, partial tile of the inner dimension is included. In each:
    //@@   1. Each thread loads one element of A and one element of B into the
    //@@      tiles. Guard both loads: an element outside A or B is stored as
    //@@      0 instead (it adds nothing to the sum).
    //@@   2. __syncthreads(): no thread may read the tiles before every
    //@@      thread has finished loading them.
    //@@   3. Accumulate the TILE_WIDTH products of a row of the A tile and a
    //@@      column of the B tile.
    //@@   4. __syncthreads(): no thread may load the next phase's tiles while
    //@@      another thread still reads this phase's.
    //@@ Every thread of the block must reach every __syncthreads(), including
    //@@ threads whose element lies outside C: never return early.

    //@@ After the loop, store the sum, only if the element lies inside C.

    //@@ Delete these lines once you use the parameters.
    (void)A, (void)B, (void)C, (void)numARows, (void)numAColumns, (void)numBRows;
    (void)numBColumns, (void)numCRows, (void)numCColumns;
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    //@@ Choose the block: TILE_WIDTH x TILE_WIDTH threads (a dim3).

    //@@ Choose the grid: one block per tile of C, x along the columns and y
    //@@ along the rows. Use ceiling division, e.g. (numCColumns + TILE_WIDTH
    //@@ - 1) / TILE_WIDTH blocks along x: plain division leaves the last,
    //@@ partial tiles of C unwritten when a side is not a multiple of
    //@@ TILE_WIDTH.

    //@@ Launch matrixMultiplyShared with the grid and the block, passing
    //@@ every argument through. Do not check errors or synchronize here: the
    //@@ harness does both.

    //@@ Delete these lines once you use the parameters.
    (void)deviceA, (void)deviceB, (void)deviceC, (void)numARows, (void)numAColumns;
    (void)numBRows, (void)numBColumns, (void)numCRows, (void)numCColumns;
}
