/* missing_second_sync_32.cu - 32 x 32 tiles named sA/sB, ternary-guarded loads, one barrier per phase
 * bug: the __syncthreads() after the inner product is missing, so a fast thread loads the next phase's elements into sA/sB while slower threads of the block still read this phase's; fix: a second __syncthreads() at the end of the phase loop.
 * expect: race
 */
#define TILE 32

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float sA[TILE][TILE];
    __shared__ float sB[TILE][TILE];

    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;

    for (int t = 0; t < (numAColumns + TILE - 1) / TILE; t++) {
        int aCol = t * TILE + threadIdx.x;
        int bRow = t * TILE + threadIdx.y;
        sA[threadIdx.y][threadIdx.x] = (row < numARows && aCol < numAColumns) ? A[row * numAColumns + aCol] : 0.0f;
        sB[threadIdx.y][threadIdx.x] = (bRow < numBRows && col < numBColumns) ? B[bRow * numBColumns + col] : 0.0f;
        __syncthreads();

        for (int k = 0; k < TILE; k++)
            acc += sA[threadIdx.y][k] * sB[k][threadIdx.x];
    }

    if (row < numCRows && col < numCColumns)
        C[row * numCColumns + col] = acc;
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    dim3 threads(TILE, TILE);
    dim3 blocks((numCColumns + TILE - 1) / TILE, (numCRows + TILE - 1) / TILE);
    matrixMultiplyShared<<<blocks, threads>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                              numBRows, numBColumns, numCRows, numCColumns);
}
