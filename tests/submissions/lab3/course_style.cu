/* course_style.cu - lab 3 test submission written the way many ECE408
 * students write it: <cuda_runtime.h> and <stdio.h> included, a wbCheck-like
 * macro, TILE_WIDTH taken from blockDim, the grid sized with ceil() on
 * doubles, a __device__ helper, and an extra cudaDeviceSynchronize() and a
 * host printf in the launch function. Everything here is legal CUDA that
 * nvcc accepts; the emulator must compile and run it unchanged.
 * Expected verdict: every dataset passes. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>

#define TILE_WIDTH 16
#define wbCheck(stmt)                                                                  \
    do {                                                                               \
        cudaError_t err = stmt;                                                        \
        if (err != cudaSuccess) {                                                      \
            printf("Failed to run stmt %s: %s\n", #stmt, cudaGetErrorString(err));    \
            return;                                                                    \
        }                                                                              \
    } while (0)

__device__ float loadOrZero(const float *M, int r, int c, int rows, int cols)
{
    return (r < rows && c < cols) ? M[r * cols + c] : 0.0f;
}

// Compute C = A * B
__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,
                                     int numARows, int numAColumns, int numBRows, int numBColumns,
                                     int numCRows, int numCColumns)
{
    //@@ Insert code to implement matrix multiplication here
    //@@ You have to use shared memory for this MP
    __shared__ float subTileM[TILE_WIDTH][TILE_WIDTH];
    __shared__ float subTileN[TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int Row = by * blockDim.y + ty;
    int Col = bx * blockDim.x + tx;
    float Pvalue = 0;
    for (int m = 0; m < ceil(numAColumns / (float)TILE_WIDTH); ++m) {
        subTileM[ty][tx] = loadOrZero(A, Row, m * TILE_WIDTH + tx, numARows, numAColumns);
        subTileN[ty][tx] = loadOrZero(B, m * TILE_WIDTH + ty, Col, numBRows, numBColumns);
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += subTileM[ty][k] * subTileN[k][tx];
        __syncthreads();
    }
    if (Row < numCRows && Col < numCColumns)
        C[Row * numCColumns + Col] = Pvalue;
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    //@@ Initialize the grid and block dimensions here
    dim3 DimGrid(ceil(numCColumns / (double)TILE_WIDTH), ceil(numCRows / (double)TILE_WIDTH), 1);
    dim3 DimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    printf("The dimensions of C are %d x %d\n", numCRows, numCColumns);
    //@@ Launch the GPU Kernel here
    matrixMultiplyShared<<<DimGrid, DimBlock>>>(deviceA, deviceB, deviceC, numARows,
                                                numAColumns, numBRows, numBColumns,
                                                numCRows, numCColumns);
    wbCheck(cudaGetLastError());
    wbCheck(cudaDeviceSynchronize());
}
