/* crash_on_one_shape.cu - lab 3 test submission: a correct tiled kernel
 * whose launch function crashes on the host for one shape only: when A has
 * 33 rows it records the shape through a null host pointer (SIGSEGV) before
 * launching. Every other shape is computed right.
 *
 * Demonstrates crash isolation in grouped dataset runs (every dataset in one
 * driver process, runs.h): the dataset with 33 rows fails with "killed by
 * signal 11 (Segmentation fault)" exactly as in a separate run, and the
 * datasets after it are still run (in the same process: the driver goes
 * past a crash of the student's own code, labs/common/harness_crash.h) and
 * pass.
 * Expected verdict: compiles, every dataset passes but those with M = 33. */

/* Meant to be malloc'd for the odd shapes; never is. Not static, so the
 * compiler cannot prove it null and the store below really happens. */
int *oddShape = 0;

#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float tileA[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileB[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float sum = 0.0f;
    const int numPhases = (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int phase = 0; phase < numPhases; ++phase) {
        const int aCol = phase * TILE_WIDTH + tx;
        const int bRow = phase * TILE_WIDTH + ty;
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
    if (numARows == 33) { /* BUG: oddShape is a null host pointer */
        oddShape[0] = numCRows;
        oddShape[1] = numCColumns;
    }
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
