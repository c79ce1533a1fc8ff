/* test_emu_indices.cpp - the emulator's built-in variables: every thread of
 * every block runs once and sees its own threadIdx/blockIdx, and the
 * launch's blockDim/gridDim, in 1D, 2D and 3D launches. */
#include <criterion/criterion.h>
#include <vector>

#include "emu_test_helpers.h"

/* Writes, per global thread, its coordinates packed as one number. */
__global__ void record_coordinates(unsigned *out, unsigned *dims)
{
    unsigned bx = blockDim.x, by = blockDim.y, bz = blockDim.z;
    unsigned gx = gridDim.x, gy = gridDim.y;
    unsigned x = blockIdx.x * bx + threadIdx.x;
    unsigned y = blockIdx.y * by + threadIdx.y;
    unsigned z = blockIdx.z * bz + threadIdx.z;
    unsigned width = gx * bx, height = gy * by;
    out[(z * height + y) * width + x] = x * 10000u + y * 100u + z + 1000000u;
    if (x == 0 && y == 0 && z == 0) {
        dims[0] = bx, dims[1] = by, dims[2] = bz;
        dims[3] = gx, dims[4] = gy, dims[5] = gridDim.z;
    }
}

static void check_launch(dim3 grid, dim3 block)
{
    unsigned w = grid.x * block.x, h = grid.y * block.y, d = grid.z * block.z;
    size_t n = size_t(w) * h * d;
    unsigned *out, *dims;
    cr_assert_eq(cudaMallocManaged(&out, n * sizeof(unsigned)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&dims, 6 * sizeof(unsigned)), cudaSuccess);
    memset(out, 0, n * sizeof(unsigned));
    ::cugrade::kernel_launch(record_coordinates, "record_coordinates", __FILE__, __LINE__).config(grid, block)(out, dims);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    for (unsigned z = 0; z < d; z++)
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++)
                cr_assert_eq(out[(size_t(z) * h + y) * w + x], x * 10000u + y * 100u + z + 1000000u,
                             "thread (%u,%u,%u) wrong or missing", x, y, z);
    unsigned expected[6] = {block.x, block.y, block.z, grid.x, grid.y, grid.z};
    for (int i = 0; i < 6; i++)
        cr_assert_eq(dims[i], expected[i], "dimension %d", i);
    cudaFree(out);
    cudaFree(dims);
}

Test(emu_indices, one_dimensional) { check_launch(dim3(7), dim3(33)); }

Test(emu_indices, two_dimensional) { check_launch(dim3(3, 5), dim3(8, 4)); }

Test(emu_indices, three_dimensional) { check_launch(dim3(2, 3, 4), dim3(4, 2, 3)); }

Test(emu_indices, integer_configuration_and_reverse_schedule)
{
    use_schedule("reverse");
    check_launch(5, 64);
}

/* Launch counts: a kernel runs gridDim * blockDim times, each thread once. */
__global__ void count_threads(int *counter) { atomicAdd(counter, 1); }

Test(emu_indices, every_thread_runs_once)
{
    int *counter;
    cudaMallocManaged(&counter, sizeof(int));
    *counter = 0;
    cugrade::emu_stats before = cugrade::stats();
    ::cugrade::kernel_launch(count_threads, "count_threads", __FILE__, __LINE__).config(dim3(3, 2), dim3(10, 3, 2))(counter);
    cugrade::emu_stats after = cugrade::stats();
    cr_assert_eq(*counter, 3 * 2 * 10 * 3 * 2);
    cr_assert_eq(after.launches - before.launches, 1u);
    cr_assert_eq(after.blocks - before.blocks, 6u);
    cr_assert_eq(after.threads - before.threads, 360u);
    cudaFree(counter);
}
