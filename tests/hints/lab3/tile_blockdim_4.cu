/* tile_blockdim_4.cu - tile size taken from blockDim.x at run time, shared arrays sized for 16, launched with 4 x 4 blocks "to have more blocks"
 * bug: BLOCK 4 makes each tile 4 x 4 (16 threads a block): the result is right but each element is loaded from global memory numCColumns/4 times, about 1 byte per FLOP, far from the 1/4 byte of 16 x 16 tiles; fix: 16 x 16 (or 32 x 32) blocks.
 * expect: tile-too-small
 */
#define MAX_TILE 16
#define BLOCK 4

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float As[MAX_TILE][MAX_TILE];
    __shared__ float Bs[MAX_TILE][MAX_TILE];
    const int T = blockDim.x;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty;
    int col = blockIdx.x * T + tx;
    float sum = 0.0f;
    for (int p = 0; p < (numAColumns + T - 1) / T; ++p) {
        As[ty][tx] = (row < numARows && p * T + tx < numAColumns) ? A[row * numAColumns + p * T + tx] : 0.0f;
        Bs[ty][tx] = (p * T + ty < numBRows && col < numBColumns) ? B[(p * T + ty) * numBColumns + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < T; ++k)
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
    dim3 block(BLOCK, BLOCK);
    dim3 grid((numCColumns + BLOCK - 1) / BLOCK, (numCRows + BLOCK - 1) / BLOCK);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
