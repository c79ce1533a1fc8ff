/* oversized_grid.cu - lab 3 test submission: a correct tiled kernel launched
 * on a grid ten times too large in each dimension (a hundred times the
 * blocks C needs). The blocks outside C still load their (zero) tiles and
 * run every phase, and skip only the store, so the output is right and the
 * work is a hundred times the reference's:
 *
 *     dim3 grid(10 * ((n + TILE_WIDTH - 1) / TILE_WIDTH), 10 * ...);   // BUG
 *
 * Expected verdict on the vgpu backend: whatever the instruction budget
 * allows, and the same on an idle and on a loaded machine (the budget
 * counts executed instructions, not seconds): tests/e2e/test_vgpu_backend.c
 * grades it alone and beside busy processes and compares. */
#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C, int numARows,
                                     int numAColumns, int numBRows, int numBColumns, int numCRows,
                                     int numCColumns)
{
    __shared__ float tileA[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileB[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    float sum = 0.0f;
    for (int phase = 0; phase < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++phase) {
        int aCol = phase * TILE_WIDTH + tx, bRow = phase * TILE_WIDTH + ty;
        tileA[ty][tx] = row < numARows && aCol < numAColumns ? A[row * numAColumns + aCol] : 0.0f;
        tileB[ty][tx] = bRow < numBRows && col < numBColumns ? B[bRow * numBColumns + col] : 0.0f;
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
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid(10 * ((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH),
              10 * ((numCRows + TILE_WIDTH - 1) / TILE_WIDTH)); /* BUG: 100 times the blocks */
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
