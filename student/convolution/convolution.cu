/* convolution.cu - lab convolution: the 2-D convolution of an image with a
 * mask in constant memory, tiled with its halo in shared memory. The handout
 * is labs/convolution/README.md; `make grade LAB=convolution` grades it. */

#define TILE_WIDTH 16
#define MAX_MASK 7

__constant__ float Mc[MAX_MASK * MAX_MASK];

__global__ void convolution2D(const float *I, float *P, int height, int width, int mask)
{
    //@@ load this block's tile of I with its halo (mask / 2 cells each side, 0 outside the
    //@@ image) into shared memory, wait for the block, then P[row][col] = the sum over the mask
}

void launchConvolution(const float *deviceI, const float *deviceM, float *deviceP, int height, int width, int mask)
{
    //@@ copy the mask into Mc (cudaMemcpyToSymbol, from device memory), then launch a grid of
    //@@ TILE_WIDTH x TILE_WIDTH blocks covering the image
}
