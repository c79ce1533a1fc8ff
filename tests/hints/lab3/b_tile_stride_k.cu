/* b_tile_stride_k.cu - tiled kernel with the width of every matrix taken as numAColumns ("K is the shared dimension")
 * bug: the B tile is loaded as B[(ph*TILE_WIDTH + ty)*numAColumns + col], a row stride of K instead of N; fix: B[(ph*TILE_WIDTH + ty)*numBColumns + col].
 * expect: b-stride-k global-oob
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
    int K = numAColumns;
    float sum = 0.0f;
    for (int ph = 0; ph < (K + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        As[ty][tx] = (row < numARows && ph * TILE_WIDTH + tx < K) ? A[row * K + ph * TILE_WIDTH + tx] : 0.0f;
        Bs[ty][tx] = (ph * TILE_WIDTH + ty < K && col < numBColumns) ? B[(ph * TILE_WIDTH + ty) * K + col] : 0.0f;
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
