/* hangs_on_large_shapes.cu - lab 3 test submission: a correct tiled kernel
 * that never ends when C has more than 40 rows (a loop whose bound is wrong
 * only for large inputs, as an int overflow makes it): it passes every small
 * dataset, and its first launch at a timing's shape spins forever.
 *
 * Demonstrates the timing's watchdog (labs/common/timing.h): no launch may
 * outlast the shape's time cap, so the timing ends there, with the launch
 * named, instead of holding the GPU alone until the grader's limit for the
 * whole timing; the reference then times fine, so it is the submission's.
 * Expected verdict: the datasets with up to 40 rows pass; the performance
 * test fails, naming the warm-up launch that ran past the time cap. */
#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    /* never true for these inputs (k/10, k in 0..40): a read the compiler
     * must keep, so the loop is not assumed to end */
    while (numCRows > 40 && ((volatile const float *)A)[0] != -1.0f) {
    }
    __shared__ float tileA[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileB[TILE_WIDTH][TILE_WIDTH];
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
