/* grid_round_half.cu - correct tiled kernel; the grid rounded with float math, (int)(n / (float)TILE_WIDTH + 0.5f)
 * bug: adding 0.5 and truncating rounds to the nearest block count, not up, so a side with n % 16 between 1 and 7 loses its last partial block (1 x 200 x 1 gets 0 blocks); fix: (n + TILE_WIDTH - 1) / TILE_WIDTH, or ceil(n / (float)TILE_WIDTH).
 * expect: float-ceil-grid grid-too-small
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
        int aCol = ph * TILE_WIDTH + tx, bRow = ph * TILE_WIDTH + ty;
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
    int gx = (int)(numCColumns / (float)TILE_WIDTH + 0.5f);
    int gy = (int)(numCRows / (float)TILE_WIDTH + 0.5f);
    dim3 grid(gx, gy);
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
