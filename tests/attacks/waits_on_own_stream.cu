/* waits_on_own_stream.cu - attack (lab 3): a correct tiled kernel whose
 * launch function runs it on a stream of its own that does not wait for the
 * default stream (cudaStreamNonBlocking) and waits for that stream before it
 * returns. The timing program's launch gate holds the default stream (and so
 * both of a timed rep's events) until the launch function has returned, so
 * that a host delay in the call is not timed; a kernel kept off that stream,
 * and done by the time the call returns, would then be timed as taking no
 * time at all: a speed-up of thousands, with a right output.
 *
 * Expected verdict: refused by the object check (cudaStreamCreateWithFlags
 * may make a stream that does not wait for the default stream; the message
 * says so and that cudaStreamCreate's streams do), score 0. Behind it
 * (CUGRADE_OBJCHECK=off, on a GPU: tests/gpu/attacks.sh), every dataset
 * passes and a gated rep is never timed shorter than its launch call took
 * on the host (labs/common/timing_stats.h timing_gated_ms; its reps are
 * counted in the timing's host_bound), so the kernel is timed at about its
 * real speed: a ratio to the reference like the same kernel's launched the
 * usual way, never the thousands. */
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

static cudaStream_t own;

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    if (!own && cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking) != cudaSuccess)
        own = 0;
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block, 0, own>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                                  numBRows, numBColumns, numCRows, numCColumns);
    cudaStreamSynchronize(own);
}
