/* phase_body_in_if.cu - ds_A/ds_B tiles; the student wraps each phase's loads, barriers and products in one bounds test
 * bug: the loads and both __syncthreads() sit inside if (row < numARows && ph*TILE_WIDTH + tx < numAColumns), so in the last, partial phase (and in bottom-edge blocks) part of the block skips the barriers the others wait at; fix: load 0 outside the matrices and keep the barriers outside any if.
 * expect: barrier-divergence uninit-shared
 */
#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float ds_A[TILE_WIDTH][TILE_WIDTH];
    __shared__ float ds_B[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty;
    int col = blockIdx.x * TILE_WIDTH + tx;
    float cValue = 0;

    for (int ph = 0; ph < (numAColumns - 1) / TILE_WIDTH + 1; ph++) {
        if (row < numARows && ph * TILE_WIDTH + tx < numAColumns) {
            ds_A[ty][tx] = A[row * numAColumns + ph * TILE_WIDTH + tx];
            if (ph * TILE_WIDTH + ty < numBRows && col < numBColumns)
                ds_B[ty][tx] = B[(ph * TILE_WIDTH + ty) * numBColumns + col];
            else
                ds_B[ty][tx] = 0;
            __syncthreads();
            for (int k = 0; k < TILE_WIDTH; k++)
                cValue += ds_A[ty][k] * ds_B[k][tx];
            __syncthreads();
        }
    }
    if (row < numCRows && col < numCColumns)
        C[row * numCColumns + col] = cValue;
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    dim3 dimGrid((numCColumns - 1) / TILE_WIDTH + 1, (numCRows - 1) / TILE_WIDTH + 1);
    matrixMultiplyShared<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                                numBRows, numBColumns, numCRows, numCColumns);
}
