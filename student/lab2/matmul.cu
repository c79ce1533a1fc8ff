/* matmul.cu - lab 2: basic matrix multiplication, one thread per element of
 * C.
 *
 * Your task: complete matrixMultiply (C = A * B, each thread computing one
 * element of C from a row of A and a column of B read straight from global
 * memory) and launchMatrixMultiply (its grid, block and launch). The harness
 * (labs/kinds/matmul/driver.cu) allocates and copies the matrices, calls your
 * launch function with device pointers, checks for CUDA errors and times it:
 * do not allocate, copy or synchronize here. Read labs/lab2/README.md first.
 *
 * A is numARows x numAColumns, B is numBRows x numBColumns and C is numCRows x
 * numCColumns, all row-major. The shapes can be anything (1 x 200 x 1, 97 x
 * 89 x 101, ...), not only multiples of the block width.
 *
 * Keep the names and parameters below as they are: the grader calls them.
 * Grade it with `make grade LAB=lab2` from the repository root. */

#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    //@@ Compute the row and the column of C this thread is responsible for:
    //@@ the row from blockIdx.y, blockDim.y and threadIdx.y, the column from
    //@@ blockIdx.x, blockDim.x and threadIdx.x (x goes along the columns).

    //@@ Boundary check: the grid is rounded up, so some threads of the blocks
    //@@ on the right and bottom edges lie outside C. Only a thread with
    //@@ row < numCRows and col < numCColumns may read A and B or write C.

    //@@ Inside the check: sum the numAColumns products of row `row` of A and
    //@@ column `col` of B. Element (r, c) of a row-major matrix with w
    //@@ columns is at r * w + c: A[row * numAColumns + k] and
    //@@ B[k * numBColumns + col]. Then store the sum in
    //@@ C[row * numCColumns + col].

    //@@ Delete these lines once you use the parameters.
    (void)A, (void)B, (void)C, (void)numARows, (void)numAColumns, (void)numBRows;
    (void)numBColumns, (void)numCRows, (void)numCColumns;
}

void launchMatrixMultiply(const float *deviceA, const float *deviceB, float *deviceC,
                          int numARows, int numAColumns, int numBRows, int numBColumns,
                          int numCRows, int numCColumns)
{
    //@@ Choose the block: BLOCK_WIDTH x BLOCK_WIDTH threads (a dim3).

    //@@ Choose the grid: enough blocks for one thread per element of C, x
    //@@ along the columns and y along the rows. Use ceiling division, e.g.
    //@@ (numCColumns + BLOCK_WIDTH - 1) / BLOCK_WIDTH blocks along x: plain
    //@@ division leaves the last, partial blocks of C unwritten when a side
    //@@ is not a multiple of BLOCK_WIDTH, and gives 0 blocks (a launch error)
    //@@ when a side is smaller than BLOCK_WIDTH.

    //@@ Launch matrixMultiply with the grid and the block, passing every
    //@@ argument through. Do not check errors or synchronize here: the
    //@@ harness does both.

    //@@ Delete these lines once you use the parameters.
    (void)deviceA, (void)deviceB, (void)deviceC, (void)numARows, (void)numAColumns;
    (void)numBRows, (void)numBColumns, (void)numCRows, (void)numCColumns;
}
