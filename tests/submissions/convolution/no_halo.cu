/* no_halo.cu - lab convolution test submission: each block loads its own
 * tile of the image and zeroes the halo around it, as if every cell outside
 * the tile were outside the image. Expected verdict: a 1 x 1 image passes
 * (all its halo is outside it); larger ones fail along every tile's edges,
 * named by the lab's diagnosis ("no-halo"). */
#define TILE_WIDTH 16
#define MAX_MASK 7

__constant__ float Mc[MAX_MASK * MAX_MASK];

__global__ void convolution2D(const float *I, float *P, int height, int width, int mask)
{
    __shared__ float tile[TILE_WIDTH + MAX_MASK - 1][TILE_WIDTH + MAX_MASK - 1];
    int tx = threadIdx.x, ty = threadIdx.y, r = mask / 2, side = TILE_WIDTH + mask - 1;
    for (int i = ty; i < side; i += TILE_WIDTH) /* BUG: the halo is zeroed, only the tile is loaded */
        for (int j = tx; j < side; j += TILE_WIDTH)
            tile[i][j] = 0.0f;
    __syncthreads();
    int y = blockIdx.y * TILE_WIDTH + ty, x = blockIdx.x * TILE_WIDTH + tx;
    if (y < height && x < width)
        tile[ty + r][tx + r] = I[y * width + x];
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
