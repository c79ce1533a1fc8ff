/* convolution.cu - lab convolution reference solution: P = the 2-D
 * convolution of the image I (height x width) with the mask M (mask x mask,
 * mask odd, at most MAX_MASK), cells outside the image counting 0.
 *
 * The mask goes to constant memory (every thread reads the same weight at
 * the same time: one broadcast). Each block of TILE_WIDTH x TILE_WIDTH
 * threads computes a tile of P from a tile of I with its halo, mask / 2
 * cells on each side, staged in shared memory (PMPP 7.4-7.5): the
 * (TILE_WIDTH + mask - 1)^2 cells loaded by the block's threads in turn,
 * 0 outside the image. */

#define TILE_WIDTH 16
#define MAX_MASK 7

__constant__ float Mc[MAX_MASK * MAX_MASK];

__global__ void convolution2D(const float *I, float *P, int height, int width, int mask)
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
                sum += Mc[i * mask + j] * tile[ty + i][tx + j];
        P[row * width + col] = sum;
    }
}

void launchConvolution(const float *deviceI, const float *deviceM, float *deviceP, int height, int width, int mask)
{
    cudaMemcpyToSymbol(Mc, deviceM, mask * mask * sizeof(float), 0, cudaMemcpyDeviceToDevice);
    dim3 block(TILE_WIDTH, TILE_WIDTH), grid((width + TILE_WIDTH - 1) / TILE_WIDTH, (height + TILE_WIDTH - 1) / TILE_WIDTH);
    convolution2D<<<grid, block>>>(deviceI, deviceP, height, width, mask);
}
