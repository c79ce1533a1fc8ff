/* intdiv_phases_tile32.cu - lab 3 test submission: intdiv_phases.cu with
 * TILE_WIDTH 32 where the lab's is 16, the phase count computed with integer
 * division:
 *
 *     const int numPhases = numAColumns / TILE_WIDTH;   // BUG, TILE_WIDTH 32
 *
 * On 48x48x48 the output sums k = 0..31: with the lab's tile (16) that
 * would read as "the loop stops one phase early", with the student's (32)
 * it is the rounding down of K / TILE_WIDTH, the real bug.
 * Expected hint (issue 40, item 3c): the phases of the launch the grader
 * saw (32 x 32 blocks): "the last, partial phase (k = 32..47) never runs:
 * the phase count K / TILE_WIDTH rounds down", and for K < 32 "(K = 16 <
 * 32)"; never "stops one phase early". (tests/e2e/test_hints.c) */

#define TILE_WIDTH 32

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
    const int numPhases = numAColumns / TILE_WIDTH; /* BUG: rounds down */
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
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
