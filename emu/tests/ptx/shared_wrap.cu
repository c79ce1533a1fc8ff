/* shared_wrap.cu - the executor's tests (test_ptx_checks.cpp): each thread
 * of an 8 x 8 block sums its neighbours within r cells that lie inside the
 * block's shared tile, the ones outside skipped by a guard. nvcc keeps the
 * row's address in a 32-bit register with the negative offset folded in
 * (tile - 4) and adds it back in the load ([r + 4]): an address that must
 * wrap at 2^32, as the GPU's shared window does. */
#define TILE 8

__global__ void neighbourSum(const float *in, float *out, int r)
{
    __shared__ float cells[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    cells[ty][tx] = in[ty * TILE + tx];
    __syncthreads();
    float sum = 0.0f;
    for (int i = 0; i < 2 * r + 1; i++)
        for (int j = 0; j < 2 * r + 1; j++) {
            int y = ty - r + i, x = tx - r + j;
            if (y >= 0 && y < TILE && x >= 0 && x < TILE)
                sum += cells[y][x];
        }
    out[ty * TILE + tx] = sum;
}
