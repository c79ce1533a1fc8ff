/* matmul.cu - lab 3 reference solution: tiled matrix multiplication with
 * shared memory (PMPP 4.4), C = A * B for any shape.
 *
 * A is numARows x numAColumns, B is numBRows x numBColumns, C is numCRows x
 * numCColumns, all row-major in device memory (the harness checks that
 * numAColumns == numBRows, numCRows == numARows, numCColumns == numBColumns,
 * and checks every CUDA error, so this file checks nothing itself).
 *
 * Each block computes one TILE_WIDTH x TILE_WIDTH tile of C, one element per
 * thread. The inner dimension is walked in phases: in each phase the block
 * loads one tile of A and one tile of B into shared memory, every thread
 * loading one element of each, and then every thread accumulates the
 * TILE_WIDTH products it needs from shared memory. Each element of A and B is
 * thus read from global memory once per block that needs it instead of once
 * per thread, TILE_WIDTH times fewer global reads. */

#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float tileA[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileB[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty; /* this thread's element of C */
    const int col = blockIdx.x * TILE_WIDTH + tx;

    /* Threads outside C still take part in every phase: they load their share
     * of the tiles (other threads need those values) and reach every
     * barrier. They only skip the final store. */
    float sum = 0.0f;
    const int numPhases = (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int phase = 0; phase < numPhases; ++phase) {
        /* Thread (ty, tx) loads A[row][phase*TILE_WIDTH + tx] and
         * B[phase*TILE_WIDTH + ty][col]. Outside a matrix it stores 0, which
         * adds nothing to the dot products below. */
        const int aCol = phase * TILE_WIDTH + tx;
        const int bRow = phase * TILE_WIDTH + ty;
        tileA[ty][tx] = (row < numARows && aCol < numAColumns) ? A[row * numAColumns + aCol] : 0.0f;
        tileB[ty][tx] = (bRow < numBRows && col < numBColumns) ? B[bRow * numBColumns + col] : 0.0f;

        /* Barrier 1: the loop below reads elements other threads loaded; no
         * thread may start it before every thread has finished loading. */
        __syncthreads();

        for (int k = 0; k < TILE_WIDTH; ++k)
            sum += tileA[ty][k] * tileB[k][tx];

        /* Barrier 2: the next phase overwrites the tiles; no thread may start
         * loading before every thread has finished reading this phase's. */
        __syncthreads();
    }

    if (row < numCRows && col < numCColumns)
        C[row * numCColumns + col] = sum;
}

/* Launches one thread per element of C, in TILE_WIDTH x TILE_WIDTH blocks;
 * the grid rounds up (ceiling division) so partial tiles at the right and
 * bottom edges of C get a block too. */
void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
