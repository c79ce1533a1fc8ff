/* store_inside_phase_loop.cu - the running sum declared inside the phase loop and C written at the end of every phase
 * bug: float value = 0; sits inside the for over phases (and the store with it), so every phase starts from 0 and the last store leaves only the last phase's TILE_WIDTH products; fix: declare the sum before the loop and store once after it.
 * expect: sum-reset-each-phase
 */
#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float a_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float b_tile[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty;
    int col = blockIdx.x * TILE_WIDTH + tx;

    for (int phase = 0; phase < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; phase++) {
        float value = 0.0f;
        int a_col = phase * TILE_WIDTH + tx;
        int b_row = phase * TILE_WIDTH + ty;
        a_tile[ty][tx] = (row < numARows && a_col < numAColumns) ? A[row * numAColumns + a_col] : 0.0f;
        b_tile[ty][tx] = (b_row < numBRows && col < numBColumns) ? B[b_row * numBColumns + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; k++)
            value += a_tile[ty][k] * b_tile[k][tx];
        __syncthreads();
        if (row < numCRows && col < numCColumns)
            C[row * numCColumns + col] = value;
    }
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
