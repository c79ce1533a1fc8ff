/* overwrites_inputs.cu - attack (lab 3): a tiled kernel whose launch
 * function, from the fourth call with the same matrices on (a timing's
 * rounds after its first; the warm-up makes two), computes nothing: a kernel
 * writes zeros over A, which it is given, and over C. A re-check that reads
 * the inputs as the kernel left them finds C = 0 = A.B for the zeroed A, and
 * a write of M x N floats is timed as a product. It counts the calls for each
 * set of inputs, so that a timing that interleaves several shapes' rounds is
 * served zeros too.
 *
 * Expected verdict: every dataset passes (each is a first call); the timing
 * makes each round's inputs again before it re-checks them
 * (labs/kinds/matmul/perf.cu check_round), so every zeroed round is wrong
 * (3 of 4 here) and the performance test gets no points. */
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
        __syncthreads();
    }
    if (row < numCRows && col < numCColumns)
        C[row * numCColumns + col] = sum;
}

/* Zeros over n floats of a matrix it was given as an input, and over C. */
__global__ void zeroInputAndOutput(float *A, int nA, float *C, int nC)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nA)
        A[i] = 0.0f;
    if (i < nC)
        C[i] = 0.0f;
}

/* How often each set of inputs (A and the shape) was given, the oldest given
 * up for a new one: a timing of several shapes interleaves their rounds, so
 * the last call alone would seldom be the same matrices, and the datasets
 * before it (in the same process on a GPU) are many first calls. */
#define COUNTED_MAX 16
typedef struct {
    const float *A;
    int rows, inner, cols, calls;
} counted_t;
static counted_t counted[COUNTED_MAX];
static int countedCount, countedNext;

/* This call's number among the calls with these inputs (1: the first). */
static int callNumber(const float *A, int rows, int inner, int cols)
{
    for (int i = 0; i < countedCount; ++i)
        if (counted[i].A == A && counted[i].rows == rows && counted[i].inner == inner &&
            counted[i].cols == cols)
            return ++counted[i].calls;
    counted[countedNext] = (counted_t){A, rows, inner, cols, 1};
    countedNext = (countedNext + 1) % COUNTED_MAX;
    if (countedCount < COUNTED_MAX)
        ++countedCount;
    return 1;
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    int calls = callNumber(deviceA, numARows, numAColumns, numBColumns);
    if (calls > 3) {
        int nA = numARows * numAColumns, nC = numCRows * numCColumns;
        int n = nA > nC ? nA : nC;
        zeroInputAndOutput<<<(n + 255) / 256, 256>>>((float *)deviceA, nA, deviceC, nC);
        return;
    }
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
}
