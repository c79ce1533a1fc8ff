/* both_tiles_read_transposed.cu - tiles loaded right, but the student indexes both tiles [k][...] / [...][k] the wrong way round in the product
 * bug: sum += sA[k][ty] * sB[tx][k] reads both tiles transposed inside the tile; fix: sum += sA[ty][k] * sB[k][tx].
 * expect: tiles-transposed
 */
#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float sA[TILE_WIDTH][TILE_WIDTH];
    __shared__ float sB[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * blockDim.y + ty;
    const int col = blockIdx.x * blockDim.x + tx;
    float sum = 0.f;

    for (int t = 0; t * TILE_WIDTH < numAColumns; ++t) {
        sA[ty][tx] = (row < numARows && t * TILE_WIDTH + tx < numAColumns)
                         ? A[row * numAColumns + t * TILE_WIDTH + tx] : 0.f;
        sB[ty][tx] = (t * TILE_WIDTH + ty < numBRows && col < numBColumns)
                         ? B[(t * TILE_WIDTH + ty) * numBColumns + col] : 0.f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            sum += sA[k][ty] * sB[tx][k];
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
