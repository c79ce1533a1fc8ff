/* endless_kernel.cu - a lab3-wb program whose kernel never finishes: every
 * thread spins on a volatile flag that no thread sets (good.cu otherwise).
 * A libwb program runs each dataset in its own process; on a GPU they run
 * one at a time, and after datasets.timeouts_max of them ran past their
 * limit (2 on a GPU) the rest are not run. Expected verdict: compiles,
 * every dataset fails on its time limit or is not run: 0. */
#include "wb.h"

#define TILE_WIDTH 8

__device__ volatile int initialized = 0;

#define wbCheck(stmt)                                                          \
  do {                                                                         \
    cudaError_t err = stmt;                                                    \
    if (err != cudaSuccess) {                                                  \
      wbLog(ERROR, "Failed to run stmt ", #stmt, ": ", cudaGetErrorString(err)); \
      return -1;                                                               \
    }                                                                          \
  } while (0)

__global__ void matrixMultiplyShared(float *A, float *B, float *C, int numARows, int numAColumns,
                                     int numBRows, int numBColumns, int numCRows, int numCColumns)
{
  __shared__ float subA[TILE_WIDTH][TILE_WIDTH];
  __shared__ float subB[TILE_WIDTH][TILE_WIDTH];
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  while (!initialized) {
    /* BUG: waits for a flag nobody sets */
  }
  for (int base = 0; base < numAColumns; base += TILE_WIDTH) {
    int ac = base + threadIdx.x, br = base + threadIdx.y;
    subA[threadIdx.y][threadIdx.x] = r < numARows && ac < numAColumns ? A[r * numAColumns + ac] : 0;
    subB[threadIdx.y][threadIdx.x] = br < numBRows && c < numBColumns ? B[br * numBColumns + c] : 0;
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; k++)
      acc += subA[threadIdx.y][k] * subB[k][threadIdx.x];
    __syncthreads();
  }
  if (r < numCRows && c < numCColumns)
    C[r * numCColumns + c] = acc;
}

int main(int argc, char **argv)
{
  wbArg_t args = wbArg_read(argc, argv);
  int numARows, numAColumns, numBRows, numBColumns;

  wbTime_start(IO, "Importing ", wbArg_getInputCount(args), " inputs");
  float *hostA = wbImport(wbArg_getInputFile(args, 0), &numARows, &numAColumns);
  float *hostB = wbImport(wbArg_getInputFile(args, 1), &numBRows, &numBColumns);
  wbTime_stop(IO, "Importing ", wbArg_getInputCount(args), " inputs");
  int numCRows = numARows, numCColumns = numBColumns;
  float *hostC = (float *)calloc((size_t)numCRows * numCColumns, sizeof(float));
  wbLog(TRACE, "C is ", numCRows, " x ", numCColumns, " (", numCRows * numCColumns, " floats, ",
        numCRows * numCColumns * sizeof(float) / 1024.0, " KiB)");

  float *deviceA, *deviceB, *deviceC;
  wbTime_start(GPU, "Allocating GPU memory.");
  wbCheck(cudaMalloc(&deviceA, numARows * numAColumns * sizeof(float)));
  wbCheck(cudaMalloc(&deviceB, numBRows * numBColumns * sizeof(float)));
  wbCheck(cudaMalloc(&deviceC, numCRows * numCColumns * sizeof(float)));
  wbTime_stop(GPU, "Allocating GPU memory.");

  wbTime_start(Copy, "Copying input memory to the GPU.");
  wbCheck(cudaMemcpy(deviceA, hostA, numARows * numAColumns * sizeof(float), cudaMemcpyHostToDevice));
  wbCheck(cudaMemcpy(deviceB, hostB, numBRows * numBColumns * sizeof(float), cudaMemcpyHostToDevice));
  wbTime_stop(Copy, "Copying input memory to the GPU.");

  dim3 dimGrid(ceil(numCColumns / (double)TILE_WIDTH), ceil(numCRows / (double)TILE_WIDTH), 1);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  wbLog(DEBUG, "grid ", dimGrid.x, " x ", dimGrid.y, ", block ", dimBlock.x, " x ", dimBlock.y);

  wbTime_start(Compute, "Performing CUDA computation");
  matrixMultiplyShared<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                              numBRows, numBColumns, numCRows, numCColumns);
  cudaThreadSynchronize();
  wbTime_stop(Compute, "Performing CUDA computation");
  wbCheck(cudaGetLastError());

  wbTime_start(Copy, "Copying output memory to the CPU");
  wbCheck(cudaMemcpy(hostC, deviceC, numCRows * numCColumns * sizeof(float), cudaMemcpyDeviceToHost));
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
  wbArg_delete(args);
  return 0;
}
