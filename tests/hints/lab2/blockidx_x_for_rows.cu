/* blockidx_x_for_rows.cu - threadIdx right, but blockIdx.x picks the block row and blockIdx.y the block column; grid x along the columns as the handout says
 * bug: row = blockIdx.x*blockDim.y + threadIdx.y and col = blockIdx.y*blockDim.x + threadIdx.x swap the blocks against a grid whose x runs along the columns: square C comes out right, but when M and N need different block counts part of C gets no thread. Fix: row from blockIdx.y, col from blockIdx.x.
 * expect: blocks-swapped grid-xy-swapped
 */
#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = bx * blockDim.y + ty;
    int col = by * blockDim.x + tx;
    if (row >= numCRows || col >= numCColumns)
        return;
    float acc = 0;
    for (int i = 0; i < numAColumns; i++)
        acc += A[row * numAColumns + i] * B[i * numBColumns + col];
    C[row * numCColumns + col] = acc;
}

void launchMatrixMultiply(const float *deviceA, const float *deviceB, float *deviceC,
                          int numARows, int numAColumns, int numBRows, int numBColumns,
                          int numCRows, int numCColumns)
{
    dim3 threads(BLOCK_WIDTH, BLOCK_WIDTH);
    dim3 blocks((numCColumns + BLOCK_WIDTH - 1) / BLOCK_WIDTH,
                (numCRows + BLOCK_WIDTH - 1) / BLOCK_WIDTH);
    matrixMultiply<<<blocks, threads>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                        numBRows, numBColumns, numCRows, numCColumns);
}
