/* tile8_no_halo.cu - 8 x 8 output tiles, each thread loading its own cell into shared memory and reading its neighbours from there, 0 where the tile ends
 * bug: the tile holds only the block's own cells: a neighbour across the tile's edge (the halo) counts 0 instead of its value, so cells near every tile border come out short; fix: load the (8 + mask - 1)^2 cells of the tile and its halo, 0 only outside the image.
 * expect: no-halo
 */
#define TILE 8
#define MAX_MASK 7

__constant__ float maskC[MAX_MASK * MAX_MASK];

__global__ void convTile(const float *I, float *P, int height, int width, int mask)
{
    __shared__ float cells[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y, r = mask / 2;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    cells[ty][tx] = row < height && col < width ? I[row * width + col] : 0.0f;
    __syncthreads();
    if (row >= height || col >= width)
        return;
    float sum = 0.0f;
    for (int i = 0; i < mask; i++)
        for (int j = 0; j < mask; j++) {
            int y = ty - r + i, x = tx - r + j;
            if (y >= 0 && y < TILE && x >= 0 && x < TILE)
                sum += maskC[i * mask + j] * cells[y][x];
        }
    P[row * width + col] = sum;
}

void launchConvolution(const float *deviceI, const float *deviceM, float *deviceP, int height, int width, int mask)
{
    cudaMemcpyToSymbol(maskC, deviceM, mask * mask * sizeof(float), 0, cudaMemcpyDeviceToDevice);
    dim3 block(TILE, TILE), grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    convTile<<<grid, block>>>(deviceI, deviceP, height, width, mask);
}
