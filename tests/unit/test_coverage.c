/* test_coverage.c - what an unread input says (compare/coverage.h's
 * explain_unread): a comparison that passed fails when the executor found
 * inputs no kernel read; for one launch of a one-dimensional grid the hint
 * says how far the grid reached and names a size computed in float only
 * where the grid is what float arithmetic gives (n past 2^24), else a grid
 * rounded down; with no such finding nothing is said. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "compare/coverage.h"

/* A report of one launch of grid x block threads (one dimension) that left
 * input elements unread from first on. */
static emu_report_t unread_report(long grid, long block, long first, int finding)
{
    emu_report_t r;
    memset(&r, 0, sizeof r);
    char msg[256];
    snprintf(msg, sizeof msg, "The kernels never read every element of the inputs: A: 1 of its N elements "
                              "(the first: element %ld). The output leaves them out.", first);
    if (finding)
        emu_report_add_finding(&r, "error", "input-not-read", msg);
    emu_report_add_stat(&r, "launches", 1);
    emu_report_add_stat(&r, "block_x", (double)block), emu_report_add_stat(&r, "block_y", 1);
    emu_report_add_stat(&r, "grid_x", (double)grid), emu_report_add_stat(&r, "grid_y", 1);
    return r;
}

static dataset_t vector_of(long n)
{
    dataset_t d;
    memset(&d, 0, sizeof d);
    d.ninputs = 2;
    d.inputs[0] = (matrix_t){.rows = 1, .cols = (int)n, .vector = 1};
    return d;
}

Test(coverage, a_grid_computed_in_float_is_named)
{
    emu_report_t r = unread_report(16384, 1024, 16777216, 1);
    dataset_t d = vector_of(16777217);
    strbuf_t msg = {0};
    cr_assert_eq(explain_unread(&r, &d, "the sum is within 7 of 16777", &msg), 1);
    const char *t = sb_str(&msg);
    cr_assert(strstr(t, "FAILED: the sum is within 7 of 16777, but the kernels never read all of the inputs"), "%s", t);
    cr_assert(strstr(t, "your grid has 16384 blocks of 1024 threads, which reach the first 16777216 of the "
                        "16777217 elements; 16385 blocks are needed. That is the grid ceil(1.f * n / 1024) "
                        "computes in float"), "%s", t);
    cr_assert(strstr(t, "(n + 1024 - 1) / 1024"), "%s", t);
    sb_free(&msg);
    emu_report_free(&r);
}

Test(coverage, two_elements_a_thread_and_a_grid_rounded_down)
{
    /* 3 blocks of 128 threads, 2 elements each: 768 of 1000 reached; float holds 1000 exactly */
    emu_report_t r = unread_report(3, 128, 768, 1);
    dataset_t d = vector_of(1000);
    strbuf_t msg = {0};
    cr_assert_eq(explain_unread(&r, &d, "within tolerance", &msg), 1);
    const char *t = sb_str(&msg);
    cr_assert(strstr(t, "your grid has 3 blocks of 128 threads, which reach the first 768 of the 1000 elements; "
                        "4 blocks are needed: the grid is too small (a size rounded down?); use integer ceiling "
                        "division, (n + 256 - 1) / 256"), "%s", t);
    cr_assert_null(strstr(t, "float"), "%s", t);
    sb_free(&msg);
    emu_report_free(&r);
}

Test(coverage, nothing_unread_nothing_said_and_a_launch_that_does_not_tell)
{
    emu_report_t r = unread_report(16384, 1024, 16777216, 0);
    dataset_t d = vector_of(16777217);
    strbuf_t msg = {0};
    cr_assert_eq(explain_unread(&r, &d, "x", &msg), 0);
    cr_assert_eq(msg.len, 0u);
    emu_report_free(&r);
    r = unread_report(100, 256, 1000, 1); /* 1000 is no multiple of the grid's threads: not its reach */
    d = vector_of(30000);
    cr_assert_eq(explain_unread(&r, &d, "x", &msg), 1);
    cr_assert(strstr(sb_str(&msg), "FAILED: x, but the kernels never read all of the inputs"));
    cr_assert_null(strstr(sb_str(&msg), "hint:"), "%s", sb_str(&msg));
    sb_free(&msg);
    emu_report_free(&r);
}
