/* wrong_stride.cu - lab 2 test submission: A indexed with the wrong row
 * width, the number of columns of B (or C) instead of A's:
 *
 *     sum += A[row * numBColumns + k] * B[k * numBColumns + col];   // BUG
 *
 * Right when N == K (the square datasets 0, 1, 2, 15, 16, 17) or M == 1
 * (dataset 8, 1x200x1): 7 of 20 pass. Where N < K every read stays inside A
 * and the grader names the mistake, "hypothesis:a-stride-n": "every element
 * equals the product with A read as A[row*numBColumns + k] (a row stride of
 * N): row-major A is A[row*numAColumns + k]" (datasets 4, 5, 7, 14, 18, 19).
 * Where N > K the last rows read past the end of A: datasets 3, 6, 9, 10,
 * 11, 12, 13 fail without a hypothesis (the grader only computes this one
 * while every read stays inside A), and memory-safe fails (out-of-bounds
 * reads of A). On 6, 9, 10 and 11 the reads stay in the emulator's red zone
 * after A, which holds NaN: "some-wrong", with the likely cause "an access
 * outside a matrix". On 3, 12 and 13 they go past the red zone (the
 * emulator's "invalid-address", "not device memory"): what they read, and
 * so the verdict, varies from run to run. Seen: "some-wrong", and
 * "partly-unwritten" ("N of T elements were never written", on 13 and on
 * 12) although every element is written: the words read there hold the
 * poison's bit pattern, a NaN that the emulator's arithmetic carries
 * unchanged into the stored sums (reported as misleading). */

#define BLOCK_WIDTH 16

__global__ void matrixMultiply(const float *A, const float *B, float *C, int numARows,
                               int numAColumns, int numBRows, int numBColumns, int numCRows,
                               int numCColumns)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < numCRows && col < numCColumns) {
        float sum = 0.0f;
        for (int k = 0; k < numAColumns; ++k)
            sum += A[row * numBColumns + k] * B[k * numBColumns + col]; /* BUG */
        C[row * numCColumns + col] = sum;
    }
    (void)numARows, (void)numBRows;
}

void launchMatrixMultiply(const float *deviceA, const float *deviceB, float *deviceC,
                          int numARows, int numAColumns, int numBRows, int numBColumns,
                          int numCRows, int numCColumns)
{
    dim3 block(BLOCK_WIDTH, BLOCK_WIDTH);
    dim3 grid((numCColumns + BLOCK_WIDTH - 1) / BLOCK_WIDTH,
              (numCRows + BLOCK_WIDTH - 1) / BLOCK_WIDTH);
    matrixMultiply<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns, numBRows,
                                    numBColumns, numCRows, numCColumns);
}
