/* transposed_mapping.cu - lab 3 test submission: correct results, slow
 * memory access. The thread's row comes from threadIdx.x and its column from
 * threadIdx.y,
 *
 *     int tx = threadIdx.y, ty = threadIdx.x;   // BUG (speed only): swapped
 *
 * so the 16 consecutive threads of a half warp walk down a column of A, B
 * and C (a stride of a whole row between them: uncoalesced global loads and
 * stores) and down a column of each tile (a stride of 16 floats: 8-way
 * shared-memory bank conflicts on tileA).
 * Expected diagnostics (emucc --checks): no error or warning; the info lines
 * on coalescing and bank conflicts show the damage. Seen on 100x128x56:
 * "global loads at transposed_mapping.cu:37 touch 13.6 sectors per warp
 * access where 3.4 would do (4.0x)" and "shared loads of tileA at
 * transposed_mapping.cu:41 are 8-way bank conflicts" (the reference: 1.00x
 * and conflict-free).
 * Expected verdict: compiles and passes all 20 datasets (100/100, on the
 * emulator and on an H200); the memory checks pass. */

#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float tileA[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileB[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.y, ty = threadIdx.x; /* BUG (speed only): x and y swapped */
    int row = blockIdx.y * TILE_WIDTH + ty;
    int col = blockIdx.x * TILE_WIDTH + tx;

    float sum = 0.0f;
    for (int phase = 0; phase < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++phase) {
        int aCol = phase * TILE_WIDTH + tx;
        int bRow = phase * TILE_WIDTH + ty;
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
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
