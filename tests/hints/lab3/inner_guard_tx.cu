/* inner_guard_tx.cu - guarded loads (0 outside), plus an extra "safety" test around the inner k loop that tests tx instead of k
 * bug: if (ph*TILE_WIDTH + tx < numAColumns) around the k loop makes the threads with a large tx skip the whole last, partial phase, although the zero-padded tile was safe to sum; fix: drop the test, or test ph*TILE_WIDTH + k < numAColumns inside the loop.
 * expect: inner-guard-tx inner-guard-ty
 */
#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float tileA[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileB[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty;
    int col = blockIdx.x * TILE_WIDTH + tx;
    float sum = 0.0f;

    for (int ph = 0; ph < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        tileA[ty][tx] = (row < numARows && ph * TILE_WIDTH + tx < numAColumns)
                            ? A[row * numAColumns + ph * TILE_WIDTH + tx] : 0.0f;
        tileB[ty][tx] = (ph * TILE_WIDTH + ty < numBRows && col < numBColumns)
                            ? B[(ph * TILE_WIDTH + ty) * numBColumns + col] : 0.0f;
        __syncthreads();
        if (ph * TILE_WIDTH + tx < numAColumns) {
            for (int k = 0; k < TILE_WIDTH; ++k)
                sum += tileA[ty][k] * tileB[k][tx];
        }
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
