/* defines_write.cu - attack (lab3, issue 39's second case): the tiled kernel
 * without its second barrier (a race: tests/submissions/lab3/
 * missing_second_barrier.cu) in a file that also defines libc's write(),
 * which drops whatever is written. The object check lists only what a
 * submission calls, so a definition passes it; in the emulator's process
 * the emulator's own writes of its findings go through this write() and are
 * lost, and race-free would pass.
 *
 * Expected verdict on the vgpu backend: the racy kernel's honest score
 * (race-free fails): the findings are the executor's, in another process,
 * and the program's CUDA runtime talks to the executor through the system
 * call itself, never through a symbol the program can replace
 * (emu/ptx/vgpu_protocol.h). */
#include <stddef.h>
#include <sys/types.h>

extern "C" ssize_t write(int fd, const void *buf, size_t n)
{
    (void)fd, (void)buf;
    return (ssize_t)n; /* "written" */
}

#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    __shared__ float tileA[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileB[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x, ty = threadIdx.y;
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
        /* BUG: no __syncthreads() here: a thread that finishes the loop above
         * goes on to overwrite its tile elements with the next phase's while
         * other threads are still reading this phase's. */
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
