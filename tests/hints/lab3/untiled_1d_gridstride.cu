/* untiled_1d_gridstride.cu - lab 3 handed in as a 1-D grid-stride loop over the elements of C, reading A and B straight from global memory
 * bug: no shared-memory tiles at all (the lab's point): every element of A and B is read from global memory once per thread that needs it, 4 bytes per FLOP; fix: stage TILE_WIDTH x TILE_WIDTH tiles of A and B in __shared__ arrays.
 * expect: untiled
 */
#define THREADS 256

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    int total = numCRows * numCColumns;
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += blockDim.x * gridDim.x) {
        int r = idx / numCColumns, c = idx % numCColumns;
        float s = 0.0f;
        for (int k = 0; k < numAColumns; ++k)
            s += A[r * numAColumns + k] * B[k * numBColumns + c];
        C[idx] = s;
    }
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    int total = numCRows * numCColumns;
    int blocks = (total + THREADS - 1) / THREADS;
    if (blocks > 120)
        blocks = 120;
    matrixMultiplyShared<<<blocks, THREADS>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                              numBRows, numBColumns, numCRows, numCColumns);
}
