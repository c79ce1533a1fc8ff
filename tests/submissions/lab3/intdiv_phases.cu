/* intdiv_phases.cu - lab 3 test submission: the reference tiled kernel with one
 * classic mistake, the phase count computed with integer division:
 *
 *     const int numPhases = numAColumns / TILE_WIDTH;   // BUG
 *
 * The last, partial phase never runs when K is not a multiple of 16; the
 * loads of every phase are guarded, so nothing else goes wrong.
 * Expected hint: "every element equals the sum over k = 0..X-1 only ...
 * the phase count K / TILE_WIDTH rounds down" (with K < 16: every element
 * is 0). Datasets with K a multiple of 16 pass.
 * (The hint is checked by tests/e2e/test_hints.c and tests/unit/test_hypotheses_phases.c.) */

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
