/* lab3_tiles.cu - challenge: lab 3's tiled kernel (16 x 16 tiles in shared
 * memory, one output per thread) behind the challenge's launch function.
 * Correct on every shape, but it moves 0.25 bytes of global memory per FLOP
 * (every element of A and B read once per 16-wide tile) where register
 * tiling moves a third of that.
 *
 * The grader should say: every dataset and hidden dataset passes; race-free,
 * barriers-uniform, memory-safe and uses-shared-memory pass; traffic-reduced
 * fails ("0.261 bytes of global memory traffic per FLOP over all datasets (at most 0.125
 * allowed"); 94 of 100 on the emulator. */

#define TILE_WIDTH 16

__global__ void sgemmLab3(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float tileA[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileB[TILE_WIDTH][TILE_WIDTH];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    float sum = 0.0f;
    for (int phase = 0; phase < (K + TILE_WIDTH - 1) / TILE_WIDTH; ++phase) {
        const int aCol = phase * TILE_WIDTH + tx, bRow = phase * TILE_WIDTH + ty;
        tileA[ty][tx] = row < M && aCol < K ? A[(size_t)row * K + aCol] : 0.0f;
        tileB[ty][tx] = bRow < K && col < N ? B[(size_t)bRow * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            sum += tileA[ty][k] * tileB[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = sum;
}

void launchSgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((N + TILE_WIDTH - 1) / TILE_WIDTH, (M + TILE_WIDTH - 1) / TILE_WIDTH);
    sgemmLab3<<<grid, block>>>(A, B, C, M, N, K);
}
