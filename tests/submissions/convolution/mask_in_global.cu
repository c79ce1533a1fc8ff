/* mask_in_global.cu - lab convolution, one mistake: the reference with the
 * mask read from global memory (a kernel parameter) instead of constant
 * memory. Right on every dataset; uses-constant-memory fails, naming
 * __constant__ and cudaMemcpyToSymbol (tests/e2e/test_convolution.c). */

#define TILE_WIDTH 16
#define MAX_MASK 7

__global__ void convolution2D(const float *I, const float *M, float *P, int height, int width, int mask)
{
    __shared__ float tile[TILE_WIDTH + MAX_MASK - 1][TILE_WIDTH + MAX_MASK - 1];
    int tx = threadIdx.x, ty = threadIdx.y, r = mask / 2, side = TILE_WIDTH + mask - 1;
    int row0 = blockIdx.y * TILE_WIDTH - r, col0 = blockIdx.x * TILE_WIDTH - r;
    for (int i = ty; i < side; i += TILE_WIDTH) /* the tile and its halo */
        for (int j = tx; j < side; j += TILE_WIDTH) {
            int y = row0 + i, x = col0 + j;
            tile[i][j] = y >= 0 && y < height && x >= 0 && x < width ? I[y * width + x] : 0.0f;
        }
    __syncthreads();
    int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    if (row < height && col < width) {
        float sum = 0.0f;
        for (int i = 0; i < mask; i++)
            for (int j = 0; j < mask; j++)
                sum += M[i * mask + j] * tile[ty + i][tx + j];
        P[row * width + col] = sum;
    }
}

void launchConvolution(const float *deviceI, const float *deviceM, float *deviceP, int height, int width, int mask)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH), grid((width + TILE_WIDTH - 1) / TILE_WIDTH, (height + TILE_WIDTH - 1) / TILE_WIDTH);
    convolution2D<<<grid, block>>>(deviceI, deviceM, deviceP, height, width, mask);
}
