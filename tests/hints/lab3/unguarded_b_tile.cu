/* unguarded_b_tile.cu - guards the A tile carefully but loads the B tile without any test
 * bug: Bs[ty][tx] = B[(p*TILE_WIDTH + ty)*numBColumns + col] has no guard, so in the last phase (K not a multiple of 16) and in the right-edge blocks it reads past the rows of B or wraps into the next row, and past the end of B; fix: load B only when p*TILE_WIDTH + ty < numBRows && col < numBColumns, else 0.
 * expect: global-oob
 */
#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float As[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Bs[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty;
    int col = blockIdx.x * TILE_WIDTH + tx;
    float sum = 0.0f;

    for (int p = 0; p < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++p) {
        if (row < numARows && p * TILE_WIDTH + tx < numAColumns)
            As[ty][tx] = A[row * numAColumns + p * TILE_WIDTH + tx];
        else
            As[ty][tx] = 0.0f;
        Bs[ty][tx] = B[(p * TILE_WIDTH + ty) * numBColumns + col];
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            sum += As[ty][k] * Bs[k][tx];
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
