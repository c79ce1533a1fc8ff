/* skips_rows_when_repeated.cu - attack (lab 3): a tiled kernel whose launch
 * function, called again with the same matrices (the same pointers and
 * shape), as a timing calls it, computes only the first half of C's rows:
 * half the work, so about twice the speed, with the rest of C left as it
 * was. It remembers every set of inputs it has seen, so that a timing that
 * interleaves several shapes' rounds is served half rows too. A re-check of
 * a few fixed elements, or of the first round alone, would pass it.
 *
 * Expected verdict: the timing re-checks the first round's whole output and,
 * in every later round, rows drawn at random once the round's launches have
 * ended (labs/kinds/matmul/perf.cu), which the kernel cannot know: the rows
 * it skipped hold the poison, the re-check finds them in (nearly) every
 * round, and the performance test gets no points. */
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

/* The inputs (pointers and shape) of earlier calls, the oldest given up for
 * a new one: a timing of several shapes interleaves their rounds, so the
 * last call alone would seldom be the same matrices, and the datasets before
 * it (in the same process on a GPU) are many first calls. */
#define SEEN_MAX 16
typedef struct {
    const float *A, *B;
    int rows, cols;
} seen_t;
static seen_t seen[SEEN_MAX];
static int seenCount, seenNext;

/* 1 when these inputs were seen before; else they are remembered and 0. */
static int seenBefore(const float *A, const float *B, int rows, int cols)
{
    for (int i = 0; i < seenCount; ++i)
        if (seen[i].A == A && seen[i].B == B && seen[i].rows == rows && seen[i].cols == cols)
            return 1;
    seen[seenNext] = (seen_t){A, B, rows, cols};
    seenNext = (seenNext + 1) % SEEN_MAX;
    if (seenCount < SEEN_MAX)
        ++seenCount;
    return 0;
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    int repeated = seenBefore(deviceA, deviceB, numCRows, numCColumns);
    int rows = repeated ? (numCRows + 1) / 2 : numCRows; /* the first half only */
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, rows, numAColumns, numBRows,
                                          numBColumns, rows, numCColumns);
}
