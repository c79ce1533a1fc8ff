/* memoizes_product.cu - attack (lab 3): a correct tiled kernel whose launch
 * function keeps the product it computed and, called again with the same
 * matrices (the same pointers and shape), copies the kept product into C
 * instead of computing it: a device-to-device copy of M x N floats, hundreds
 * of times faster than the product. It keeps one product for each set of
 * inputs it has seen, so that a timing that interleaves several shapes'
 * rounds is served from the copies too. Each dataset is a first call on the
 * emulator, so every dataset passes there; only repeated calls, as a timing
 * makes, are served from a copy. On a GPU, a list's dataset of a shape seen
 * before is given the same arrays (the driver keeps them from one dataset to
 * the next: labs/common/harness_device.h) and is served the earlier product.
 *
 * Expected verdict: the timing program makes the inputs anew for every round
 * (labs/common/timing.h, fresh inputs), so a copy served for a later round is
 * the product of the round before: its re-check finds wrong elements, and
 * the performance test gets no points ("wrong elements in the timed
 * outputs"), never more than computing it would get. On the emulator the
 * datasets still pass; on an H200 the second 1x1x1 dataset of lab 3 (hidden
 * dataset 1, after dataset 17) fails, and the timing is not scored. */
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

/* What earlier calls computed, one entry for each set of inputs (pointers and
 * shape), the oldest given up for a new one: a timing of several shapes
 * interleaves their rounds, so the last call alone would seldom be the same
 * matrices, and the datasets before it (in the same process on a GPU) are
 * many first calls. */
#define KEPT_MAX 16
typedef struct {
    const float *A, *B;
    int rows, inner, cols;
    float *product;
} kept_t;
static kept_t kept[KEPT_MAX];
static int keptCount, keptNext;

static kept_t *keptFor(const float *A, const float *B, int rows, int inner, int cols)
{
    for (int i = 0; i < keptCount; ++i)
        if (kept[i].A == A && kept[i].B == B && kept[i].rows == rows && kept[i].inner == inner &&
            kept[i].cols == cols)
            return &kept[i];
    return NULL;
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    size_t bytes = (size_t)numCRows * numCColumns * sizeof(float);
    kept_t *k = keptFor(deviceA, deviceB, numARows, numAColumns, numBColumns);
    if (k) {
        cudaMemcpyAsync(deviceC, k->product, bytes, cudaMemcpyDeviceToDevice, 0);
        return;
    }
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
    k = &kept[keptNext];
    keptNext = (keptNext + 1) % KEPT_MAX;
    if (keptCount < KEPT_MAX)
        ++keptCount;
    cudaFree(k->product);
    k->A = NULL;
    if (cudaMalloc((void **)&k->product, bytes) != cudaSuccess)
        return;
    cudaMemcpyAsync(k->product, deviceC, bytes, cudaMemcpyDeviceToDevice, 0);
    k->A = deviceA;
    k->B = deviceB;
    k->rows = numARows;
    k->inner = numAColumns;
    k->cols = numBColumns;
}
