/* test_launch_hints.c - end to end, what the grader tells from the launch it
 * saw (issue 40, item 3): a grid whose x and y are swapped between the
 * launch and the kernel, told apart from one rounded down by what it left
 * unwritten; a block of more than 1024 threads, which never ran, as the
 * likely cause of an output nothing wrote; a grid one block short of an
 * input whose sum still passes by tolerance (3a). Runs from the repository root. */
#include "e2e.h"

static char datasets[] = "/tmp/cugrade-launch-hints-XXXXXX";

static void make_launch_datasets(void)
{
    cr_assert_not_null(mkdtemp(datasets));
    char d[PATH_MAX];
    snprintf(d, sizeof d, "%s/0", datasets);
    make_dataset("lab3", "128x64x256", d); /* C 128 x 256: a grid of 16 x 8 blocks */
}

static void remove_launch_datasets(void) { rm_rf(datasets); }


/* blockIdx.x for the row with a grid of ceil(N/16) x ceil(M/16): the
 * written part is rows 0..127 and columns 0..127, which a grid rounded down
 * would not leave (it has every block C needs) */
Test(launch_hints, a_grid_with_x_and_y_swapped_is_told_from_one_rounded_down, .init = make_launch_datasets,
     .fini = remove_launch_datasets, .timeout = 300)
{
    const char *extra[] = {"--lab", "lab2", "--datasets", datasets, NULL};
    graded_t g = grade("tests/hints/lab2/blockidx_x_for_rows.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *d0 = test_named(&g, "dataset 0 ");
    cr_assert_str_eq(failure_key(d0), "grid-xy-swapped", "%s", str(d0, "output"));
    const char *out = str(d0, "output");
    cr_assert(strstr(out, "16384 of 32768 elements were never written"), "%s", out);
    cr_assert(strstr(out, "your grid (16 x 8 blocks of 16 x 16 threads) has threads for every element of C "
                          "(128 x 256) if its x runs along the columns, as it should, but the kernel takes its "
                          "row from x: what was written is rows 0..127 and columns 0..127, so x and y are "
                          "swapped"), "%s", out);
    release(&g);
}

/* the launch's grid is ceil(M/16) x ceil(N/16), the kernel right: on
 * 1 x 44 a grid of 1 x 3 blocks writes columns 0..15 of row 0, where a grid
 * rounded down would have too few blocks either way */
Test(launch_hints, a_grid_laid_out_with_x_along_the_rows_is_x_and_y_swapped, .init = make_launch_datasets,
     .fini = remove_launch_datasets, .timeout = 300)
{
    char d[PATH_MAX];
    snprintf(d, sizeof d, "%s/1", datasets);
    make_dataset("lab3", "1x31x44", d);
    const char *extra[] = {"--lab", "lab3-wb", "--datasets", datasets, NULL};
    graded_t g = grade_on("vgpu", "tests/hints/lab3-wb/wb_grid_rows_on_x.cu", extra, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *d1 = test_named(&g, "dataset 1 ");
    cr_assert_str_eq(failure_key(d1), "grid-xy-swapped", "%s", str(d1, "output"));
    cr_assert(strstr(str(d1, "output"), "your grid (1 x 3 blocks of 16 x 16 threads) has threads for every "
                                        "element of C (1 x 44) if its x runs along the rows"),
              "%s", str(d1, "output"));
    release(&g);
}

/* 64 x 64 threads a block: the launch fails, unchecked, and C is host
 * memory: the launch is the likely cause, named with its block */
Test(launch_hints, a_block_of_more_than_1024_threads_is_the_likely_cause, .init = make_launch_datasets,
     .fini = remove_launch_datasets, .timeout = 300)
{
    const char *extra[] = {"--lab", "lab3-wb", "--datasets", datasets, NULL};
    graded_t g = grade_on("vgpu", "tests/hints/lab3-wb/wb_tile64_unchecked.cu", extra, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *d0 = test_named(&g, "dataset 0 ");
    const char *out = str(d0, "output");
    cr_assert(strstr(out, "likely cause: a launch with more than 1024 threads a block, which never ran"), "%s", out);
    cr_assert(strstr(out, "its block (64,64,1) has 4096 threads, and a block may have at most 1024"), "%s", out);
    cr_assert(strstr(failure_key(d0), "block-too-big"), "%s", failure_key(d0));
    cr_assert_null(strstr(out, "hint: "), "no pattern of an output nothing wrote: %s", out);
    release(&g);
}

/* 16 times the blocks C needs along x, every one loading tiles: the output
 * is right, traffic-reduced fails, and says why from the arithmetic the
 * executor counted (17 times what C needs), not that the threads share
 * nothing (they stage tiles) */
Test(launch_hints, a_grid_far_larger_than_c_is_named_by_traffic_reduced, .init = make_launch_datasets,
     .fini = remove_launch_datasets, .timeout = 300)
{
    const char *extra[] = {"--lab", "lab3", "--datasets", datasets, NULL};
    graded_t g = grade_on("vgpu", "tests/hints/lab3/grid_x_not_divided.cu", extra, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert(passed(test_named(&g, "dataset 0 ")), "%s", g.run.output);
    json_object *t = test_named(&g, "traffic-reduced");
    cr_assert(!passed(t), "%s", str(t, "output"));
    cr_assert_str_eq(failure_key(t), "oversized-grid", "%s", str(t, "output"));
    cr_assert(strstr(str(t, "output"), "times the arithmetic C needs"), "%s", str(t, "output"));
    cr_assert_null(strstr(str(t, "output"), "do not reuse"), "%s", str(t, "output"));
    release(&g);
}

/* Issue 40, 3a: a grid computed in float, ceil(1.f * n / 256), at
 * n = 2^24 + 1, whose float is 2^24: one block short, the last element of A
 * and B never read, a sum within the tolerance. The executor saw the inputs
 * the kernels never read: the dataset fails, the grid and the float named;
 * the reference, on the same dataset, passes. */
Test(launch_hints, a_grid_computed_in_float_one_block_short_fails_though_the_sum_is_close, .timeout = 600)
{
    char dir[] = "/tmp/cugrade-unread-XXXXXX", d[PATH_MAX];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(d, sizeof d, "%s/0", dir);
    make_dataset("dotprod", "16777217", d);
    const char *extra[] = {"--lab", "dotprod", "--datasets", dir, NULL};
    graded_t g = grade_on("vgpu", "tests/submissions/dotprod/float_ceil_grid.cu", extra, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *d0 = test_named(&g, "dataset 0 ");
    const char *out = str(d0, "output");
    cr_assert(!passed(d0), "%s", out);
    cr_assert_str_eq(failure_key(d0), "input-not-read", "%s", out);
    cr_assert(strstr(out, ", but the kernels never read all of the inputs (below)"), "%s", out);
    cr_assert(strstr(out, "hint: your grid has 65536 blocks of 256 threads, which reach the first 16777216 of the "
                          "16777217 elements; 65537 blocks are needed. That is the grid ceil(1.f * n / 256) "
                          "computes in float"), "%s", out);
    cr_assert(strstr(out, "A: 1 of its 16777217 elements (the first: element 16777216)"), "%s", out);
    release(&g);
    graded_t ref = grade_on("vgpu", "reference/dotprod/dotprod.cu", extra, NULL);
    cr_assert(passed(test_named(&ref, "dataset 0 ")), "%s", ref.run.output);
    release(&ref);
    rm_rf(dir);
}
