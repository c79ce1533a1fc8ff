/* endless_kernel.cu - lab 3 test submission whose kernel never finishes:
 * every thread spins on a volatile flag that no thread ever sets (the
 * student meant thread (0, 0) of block (0, 0) to set it once some
 * initialization was done, and forgot). There is no barrier in the loop; the
 * flag is volatile so the compiler must re-read it and cannot remove the
 * loop.
 *
 * Demonstrates the per-dataset time limit: the driver is killed, the grader
 * reports the time limit, and it goes on with the next dataset until the
 * submission's time budget is used up (rubric.json, lab 3: 30 s a dataset
 * and 90 s in all on the emulator; on a GPU 3 s a dataset, and after 2
 * time-outs the rest are not run; tests should lower them with --rubric). The checks are not run on datasets that did not
 * end, and say so. Expected verdict: compiles, every dataset fails on the
 * time limit or the budget: 0. */

#define TILE_WIDTH 16

__device__ volatile int initialized = 0;

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float tileA[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileB[TILE_WIDTH][TILE_WIDTH];

    while (!initialized) {
        /* BUG: waits for a flag nobody sets */
    }

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty;
    int col = blockIdx.x * TILE_WIDTH + tx;

    float sum = 0.0f;
    for (int phase = 0; phase < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++phase) {
        int aCol = phase * TILE_WIDTH + tx;
        int bRow = phase * TILE_WIDTH + ty;
        tileA[ty][tx] = (row < numARows && aCol < numAColumns) ? A[row * numAColumns + aCol] : 0.0f;
        tileB[ty][tx] = (bRow < numBRows && col < numBColumns) ? B[bRow * numBColumns + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            sum += tileA[ty][k] * tileB[k][tx];
        __syncthreads();
    }
    if (row < numCRows && col < numCColumns)
        C[row * numCColumns + col] = sum;
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
