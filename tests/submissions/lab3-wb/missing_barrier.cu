/* missing_barrier.cu - a lab3-wb program whose kernel lacks the second
 * __syncthreads() of each phase: a thread may overwrite the tiles with the
 * next phase's elements while others still read the current ones. Right
 * when K fits in one tile (a single phase), wrong otherwise on the emulator;
 * the checking mode reports the race. Everything else is right. */
#include <wb.h>

#define TILE_WIDTH 16

#define wbCheck(stmt)                                                     \
  do {                                                                    \
    cudaError_t err = stmt;                                               \
    if (err != cudaSuccess) {                                             \
      wbLog(ERROR, "Failed to run stmt ", #stmt);                         \
      return -1;                                                          \
    }                                                                     \
  } while (0)

__global__ void matrixMultiplyShared(float *A, float *B, float *C,
                                     int numARows, int numAColumns,
                                     int numBRows, int numBColumns,
                                     int numCRows, int numCColumns) {
  __shared__ float tA[TILE_WIDTH][TILE_WIDTH];
  __shared__ float tB[TILE_WIDTH][TILE_WIDTH];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
  float sum = 0;
  for (int p = 0; p < (numAColumns - 1) / TILE_WIDTH + 1; ++p) {
    int ac = p * TILE_WIDTH + tx, br = p * TILE_WIDTH + ty;
    tA[ty][tx] = (row < numARows && ac < numAColumns) ? A[row * numAColumns + ac] : 0;
    tB[ty][tx] = (br < numBRows && col < numBColumns) ? B[br * numBColumns + col] : 0;
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      sum += tA[ty][k] * tB[k][tx];
    /* the bug: no __syncthreads() here, so a fast thread loads the next
     * phase's tiles while slower ones still read this phase's */
  }
  if (row < numCRows && col < numCColumns)
    C[row * numCColumns + col] = sum;
}

int main(int argc, char **argv) {
  wbArg_t args;
  float *hostA, *hostB, *hostC;
  float *deviceA, *deviceB, *deviceC;
  int numARows, numAColumns, numBRows, numBColumns, numCRows, numCColumns;

  args = wbArg_read(argc, argv);

  wbTime_start(Generic, "Importing data and creating memory on host");
  hostA = (float *)wbImport(wbArg_getInputFile(args, 0), &numARows, &numAColumns);
  hostB = (float *)wbImport(wbArg_getInputFile(args, 1), &numBRows, &numBColumns);
  numCRows = numARows;
  numCColumns = numBColumns;
  hostC = (float *)malloc(sizeof(float) * numCRows * numCColumns);
  wbTime_stop(Generic, "Importing data and creating memory on host");

  wbTime_start(GPU, "Allocating GPU memory.");
  wbCheck(cudaMalloc((void **)&deviceA, sizeof(float) * numARows * numAColumns));
  wbCheck(cudaMalloc((void **)&deviceB, sizeof(float) * numBRows * numBColumns));
  wbCheck(cudaMalloc((void **)&deviceC, sizeof(float) * numCRows * numCColumns));
  wbTime_stop(GPU, "Allocating GPU memory.");

  wbTime_start(GPU, "Copying input memory to the GPU.");
  wbCheck(cudaMemcpy(deviceA, hostA, sizeof(float) * numARows * numAColumns, cudaMemcpyHostToDevice));
  wbCheck(cudaMemcpy(deviceB, hostB, sizeof(float) * numBRows * numBColumns, cudaMemcpyHostToDevice));
  wbTime_stop(GPU, "Copying input memory to the GPU.");

  dim3 dimGrid((numCColumns - 1) / TILE_WIDTH + 1, (numCRows - 1) / TILE_WIDTH + 1, 1);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);

  wbTime_start(Compute, "Performing CUDA computation");
  matrixMultiplyShared<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                              numBRows, numBColumns, numCRows, numCColumns);
  cudaDeviceSynchronize();
  wbTime_stop(Compute, "Performing CUDA computation");

  wbTime_start(Copy, "Copying output memory to the CPU");
  wbCheck(cudaMemcpy(hostC, deviceC, sizeof(float) * numCRows * numCColumns, cudaMemcpyDeviceToHost));
  wbTime_stop(Copy, "Copying output memory to the CPU");

  wbTime_start(GPU, "Freeing GPU Memory");
  cudaFree(deviceA);
  cudaFree(deviceB);
  cudaFree(deviceC);
  wbTime_stop(GPU, "Freeing GPU Memory");

  wbSolution(args, hostC, numCRows, numCColumns);

  free(hostA);
  free(hostB);
  free(hostC);
  return 0;
}
