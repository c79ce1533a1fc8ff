/* early_return_col.cu - tiled kernel that returns early for threads past the last column, then guards only rows in the loads
 * bug: if (col >= numCColumns) return; at the top makes the right-edge threads skip their tile loads and the __syncthreads() the rest of the block waits at; fix: keep every thread in the phase loop (load 0 outside B) and test col only at the store.
 * expect: barrier-divergence uninit-shared
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

    if (col >= numCColumns)
        return; /* nothing to compute for this thread */

    float sum = 0.0f;
    int phases = (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int p = 0; p < phases; ++p) {
        int k0 = p * TILE_WIDTH;
        tileA[ty][tx] = (row < numARows && k0 + tx < numAColumns) ? A[row * numAColumns + k0 + tx] : 0.0f;
        tileB[ty][tx] = (k0 + ty < numBRows) ? B[(k0 + ty) * numBColumns + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            sum += tileA[ty][k] * tileB[k][tx];
        __syncthreads();
    }
    if (row < numCRows)
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
