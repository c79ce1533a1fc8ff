/* forges_markers.cu - attack (lab3, grouped runs: every dataset in one
 * process, split at marker lines): a correct tiled kernel whose launch
 * function prints the markers of the driver's list mode, counting its calls
 * to know which dataset runs:
 *
 *     printf("\ncugrade-dataset-timeout %d\n", k);
 *
 * Expected verdict: the grader reads which datasets began, ended or timed
 * out from the report channel, which the harness writes and printf cannot
 * reach; the forged lines are only text. Every dataset passes, exactly as in
 * separate runs, and no forged wall time is shown. */
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
    /* the k-th call runs dataset k of a grouped run: claim it timed out,
     * and that the next one ended in a microsecond */
    static int k = 0;
    printf("\ncugrade-dataset-timeout %d\n", k);
    printf("\ncugrade-dataset-end %d 0.000001\ncugrade-dataset-begin %d\n", k + 1, k + 2);
    k++;
    //@@ Launch the GPU Kernel here
    matrixMultiplyShared<<<DimGrid, DimBlock>>>(deviceA, deviceB, deviceC, numARows,
                                                numAColumns, numBRows, numBColumns,
                                                numCRows, numCColumns);
    wbCheck(cudaGetLastError());
    wbCheck(cudaDeviceSynchronize());
}
