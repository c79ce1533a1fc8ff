/* detects_executor.cu - attack (lab 3): a tiled kernel that asks the clock
 * whether it runs on the grader's executor or on a real GPU. The
 * executor's %globaltimer counts its own instructions from 0 (so that a
 * grade never depends on the machine); a GPU's counts nanoseconds since
 * 1970. On the executor the kernel computes all of C, and is judged on
 * that; on a GPU it computes only C's first half of rows, in about half
 * the time, hoping to be timed there with the executor's verdict.
 *
 * Expected verdict: on the executor alone (vgpu), the score of an honest
 * tiled kernel: what it does there is all the executor sees, and it is
 * right. On the GPU path, the GPU's trusted runner replays the launches
 * the executor recorded and its output is checked again: the rows it
 * skipped hold the poison, every dataset of more than one row fails there
 * (tests/gpu/replay.sh), and no time of it counts. */
#define TILE_WIDTH 16

__device__ static bool on_a_real_gpu()
{
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns > (1ull << 50); /* after 1970 + 13 days: a wall clock */
}

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float tileA[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileB[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty;
    int col = blockIdx.x * TILE_WIDTH + tx;
    if (on_a_real_gpu() && blockIdx.y * TILE_WIDTH >= (numCRows + 1) / 2)
        return; /* the whole block leaves: no barrier is left waiting */
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
