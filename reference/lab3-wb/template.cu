/* template.cu - lab 3 (program style) reference solution: the libwb course
 * template of the tiled matrix multiplication MP, filled in.
 *
 * The program owns the host side: it reads A and B with wbImport, allocates
 * and copies device memory, launches matrixMultiplyShared, copies C back and
 * hands it to wbSolution. The kernel is the tiled one of PMPP 4.4
 * (TILE_WIDTH 16) with boundary checks, so any shape works. Run it as
 *
 *     ./template -e output.raw -i input0.raw,input1.raw -o out.raw -t matrix
 */
#include <wb.h>

#define TILE_WIDTH 16

#define wbCheck(stmt)                                                     \
  do {                                                                    \
    cudaError_t err = stmt;                                               \
    if (err != cudaSuccess) {                                             \
      wbLog(ERROR, "Failed to run stmt ", #stmt);                         \
      wbLog(ERROR, "Got CUDA error ...  ", cudaGetErrorString(err));      \
      return -1;                                                          \
    }                                                                     \
  } while (0)

// Compute C = A * B
__global__ void matrixMultiplyShared(float *A, float *B, float *C,
                                     int numARows, int numAColumns,
                                     int numBRows, int numBColumns,
                                     int numCRows, int numCColumns) {
  __shared__ float tileA[TILE_WIDTH][TILE_WIDTH];
  __shared__ float tileB[TILE_WIDTH][TILE_WIDTH];

  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE_WIDTH + ty;
  int col = blockIdx.x * TILE_WIDTH + tx;

  // Every thread takes part in every phase (its loads are needed by the
  // others, and every thread must reach both barriers); only threads inside
  // C store their sum.
  float sum = 0.0f;
  int numPhases = (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH;
  for (int phase = 0; phase < numPhases; ++phase) {
    int aCol = phase * TILE_WIDTH + tx;
    int bRow = phase * TILE_WIDTH + ty;
    tileA[ty][tx] = (row < numARows && aCol < numAColumns)
                        ? A[row * numAColumns + aCol] : 0.0f;
    tileB[ty][tx] = (bRow < numBRows && col < numBColumns)
                        ? B[bRow * numBColumns + col] : 0.0f;
    __syncthreads(); // the tiles are loaded before anyone reads them

    for (int k = 0; k < TILE_WIDTH; ++k)
      sum += tileA[ty][k] * tileB[k][tx];
    __syncthreads(); // everyone is done reading before the next load
  }

  if (row < numCRows && col < numCColumns)
    C[row * numCColumns + col] = sum;
}

int main(int argc, char **argv) {
  wbArg_t args;
  float *hostA; // The A matrix
  float *hostB; // The B matrix
  float *hostC; // The output C matrix
  float *deviceA;
  float *deviceB;
  float *deviceC;
  int numARows;    // number of rows in the matrix A
  int numAColumns; // number of columns in the matrix A
  int numBRows;    // number of rows in the matrix B
  int numBColumns; // number of columns in the matrix B
  int numCRows;    // number of rows in the matrix C (you have to set this)
  int numCColumns; // number of columns in the matrix C (you have to set this)

  args = wbArg_read(argc, argv);

  wbTime_start(Generic, "Importing data and creating memory on host");
  hostA = (float *)wbImport(wbArg_getInputFile(args, 0), &numARows,
                            &numAColumns);
  hostB = (float *)wbImport(wbArg_getInputFile(args, 1), &numBRows,
                            &numBColumns);
  //@@ Set numCRows and numCColumns
  numCRows    = numARows;
  numCColumns = numBColumns;
  //@@ Allocate the hostC matrix
  hostC = (float *)malloc(sizeof(float) * numCRows * numCColumns);
  wbTime_stop(Generic, "Importing data and creating memory on host");

  wbLog(TRACE, "The dimensions of A are ", numARows, " x ", numAColumns);
  wbLog(TRACE, "The dimensions of B are ", numBRows, " x ", numBColumns);

  size_t sizeA = sizeof(float) * numARows * numAColumns;
  size_t sizeB = sizeof(float) * numBRows * numBColumns;
  size_t sizeC = sizeof(float) * numCRows * numCColumns;

  wbTime_start(GPU, "Allocating GPU memory.");
  //@@ Allocate GPU memory here
  wbCheck(cudaMalloc((void **)&deviceA, sizeA));
  wbCheck(cudaMalloc((void **)&deviceB, sizeB));
  wbCheck(cudaMalloc((void **)&deviceC, sizeC));
  wbTime_stop(GPU, "Allocating GPU memory.");

  wbTime_start(GPU, "Copying input memory to the GPU.");
  //@@ Copy memory to the GPU here
  wbCheck(cudaMemcpy(deviceA, hostA, sizeA, cudaMemcpyHostToDevice));
  wbCheck(cudaMemcpy(deviceB, hostB, sizeB, cudaMemcpyHostToDevice));
  wbTime_stop(GPU, "Copying input memory to the GPU.");

  //@@ Initialize the grid and block dimensions here
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  dim3 dimGrid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH,
               (numCRows + TILE_WIDTH - 1) / TILE_WIDTH, 1);

  wbTime_start(Compute, "Performing CUDA computation");
  //@@ Launch the GPU Kernel here
  matrixMultiplyShared<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC,
                                              numARows, numAColumns,
                                              numBRows, numBColumns,
                                              numCRows, numCColumns);
  wbCheck(cudaGetLastError());
  wbCheck(cudaDeviceSynchronize());
  wbTime_stop(Compute, "Performing CUDA computation");

  wbTime_start(Copy, "Copying output memory to the CPU");
  //@@ Copy the GPU memory back to the CPU here
  wbCheck(cudaMemcpy(hostC, deviceC, sizeC, cudaMemcpyDeviceToHost));
  wbTime_stop(Copy, "Copying output memory to the CPU");

  wbTime_start(GPU, "Freeing GPU Memory");
  //@@ Free the GPU memory here
  wbCheck(cudaFree(deviceA));
  wbCheck(cudaFree(deviceB));
  wbCheck(cudaFree(deviceC));
  wbTime_stop(GPU, "Freeing GPU Memory");

  wbSolution(args, hostC, numCRows, numCColumns);

  free(hostA);
  free(hostB);
  free(hostC);

  return 0;
}
