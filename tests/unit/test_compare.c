/* test_compare.c - the tolerance rule (NaN never passes, the edge is
 * inclusive), poison accounting, each hint from a constructed error pattern
 * of a student's matrix multiplication, and the error map (block sizes,
 * never written beats wrong, shrinking it for the terminal). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "matbin.h"

static const tolerance_t lab_tol = {1e-4, 1e-4};

static float poison(void)
{
    uint32_t bits = POISON_BITS;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* A rows x cols matrix with distinct, positive, exactly representable values. */
static matrix_t expected_matrix(int rows, int cols)
{
    matrix_t m = {rows, cols, malloc(sizeof(float) * (size_t)rows * cols)};
    for (int i = 0; i < rows * cols; i++)
        m.data[i] = 100.0f + (float)(i % 997);
    return m;
}

static matrix_t copy_of(const matrix_t *m)
{
    matrix_t c = {m->rows, m->cols, malloc(sizeof(float) * (size_t)m->rows * m->cols)};
    memcpy(c.data, m->data, sizeof(float) * (size_t)m->rows * m->cols);
    return c;
}

static float *at(matrix_t *m, int row, int col) { return &m->data[(size_t)row * m->cols + col]; }

/* What a kernel launched with grid = n / tile (integer division) leaves:
 * the last partial tile rows and columns never written. */
static void poison_partial_tiles(matrix_t *m, int tile)
{
    for (int i = 0; i < m->rows; i++)
        for (int j = 0; j < m->cols; j++)
            if (i >= m->rows / tile * tile || j >= m->cols / tile * tile)
                *at(m, i, j) = poison();
}

/* Compares without inputs (no hypotheses; those are test_hypotheses_*.c's). */
static compare_result_t compare(const matrix_t *exp, const matrix_t *got, int tile, int k)
{
    (void)k;
    compare_result_t r;
    int passed = compare_matrices(exp, got, lab_tol, tile, NULL, &r);
    cr_assert_eq(passed, r.passed);
    return r;
}

static int one_element(float exp, float got, tolerance_t tol)
{
    matrix_t e = {1, 1, &exp}, g = {1, 1, &got};
    compare_result_t r;
    return compare_matrices(&e, &g, tol, 16, NULL, &r);
}

/* ---- the tolerance rule ---------------------------------------------------------------- */

Test(compare_rule, equal_matrices_pass)
{
    matrix_t e = expected_matrix(64, 64), g = copy_of(&e);
    compare_result_t r = compare(&e, &g, 16, 64);
    cr_assert(r.passed);
    cr_assert_eq(r.total, 4096);
    cr_assert_eq(r.wrong, 0);
    cr_assert_eq(r.nshown, 0);
    cr_assert_eq(r.hint, HINT_NONE);
    cr_assert_str_eq(r.hint_text, "");
    char s[256];
    compare_summary(&r, s, sizeof s);
    cr_assert_str_eq(s, "all 4096 elements within tolerance (max abs err 0, max rel err 0)");
    free(e.data);
    free(g.data);
}

Test(compare_rule, nan_never_passes)
{
    tolerance_t loose = {1e30, 1e30};
    cr_assert_not(one_element(NAN, NAN, loose), "NaN expected, NaN got");
    cr_assert_not(one_element(NAN, 1.0f, loose), "NaN expected");
    cr_assert_not(one_element(1.0f, NAN, loose), "NaN got");
    cr_assert_not(one_element(1.0f, INFINITY, loose), "inf got");
    cr_assert_not(one_element(INFINITY, INFINITY, loose), "inf expected and got");
}

Test(compare_rule, signed_zeros_are_equal)
{
    tolerance_t exact = {0, 0};
    cr_assert(one_element(0.0f, -0.0f, exact));
    cr_assert(one_element(-0.0f, 0.0f, exact));
}

Test(compare_rule, tolerance_edge_is_inclusive)
{
    /* bound = atol + rtol*|exp| = 0.5 + 0.25*100 = 25.5, all exact in binary */
    tolerance_t tol = {0.25, 0.5};
    cr_assert(one_element(100.0f, 125.5f, tol));
    cr_assert(one_element(100.0f, 74.5f, tol));
    cr_assert_not(one_element(100.0f, nextafterf(125.5f, INFINITY), tol));
    cr_assert_not(one_element(100.0f, nextafterf(74.5f, -INFINITY), tol));
    cr_assert(one_element(-100.0f, -125.5f, tol), "|exp| for negative values");
}

Test(compare_rule, lab_tolerance_catches_a_missing_small_term)
{
    /* bound at 1000 is 0.1001: a missing 0.1 x 1.5 term must fail */
    cr_assert(one_element(1000.0f, 1000.05f, lab_tol));
    cr_assert_not(one_element(1000.0f, 1000.15f, lab_tol));
    cr_assert(one_element(0.0f, 0.00009f, lab_tol), "atol near zero");
}

Test(compare_rule, poison_counts_as_never_written)
{
    matrix_t e = expected_matrix(4, 4), g = copy_of(&e);
    *at(&g, 1, 2) = poison();
    *at(&g, 3, 3) = NAN; /* a NaN the student computed is not poison */
    *at(&g, 0, 0) += 0.5f;
    compare_result_t r = compare(&e, &g, 16, 4);
    cr_assert_not(r.passed);
    cr_assert_eq(r.wrong, 3);
    cr_assert_eq(r.never_written, 1);
    cr_assert_eq(r.nonfinite, 1);
    cr_assert_float_eq(r.max_abs_err, 0.5, 1e-12, "only written, finite elements count");
    cr_assert_float_eq(r.max_rel_err, 0.5 / 100.0, 1e-12);
    cr_assert_eq(r.hint, HINT_PARTLY_UNWRITTEN);
    char s[256];
    compare_summary(&r, s, sizeof s);
    cr_assert_str_eq(s, "3 of 16 elements wrong (max abs err 0.5, max rel err 0.005); 1 never "
                        "written; 1 NaN or infinite");
    free(e.data);
    free(g.data);
}

Test(compare_rule, first_mismatches_in_row_major_order)
{
    matrix_t e = expected_matrix(64, 64), g = copy_of(&e);
    int cells[][2] = {{40, 1}, {2, 60}, {2, 3}, {63, 63}, {10, 10}, {0, 5}, {50, 0}};
    for (size_t i = 0; i < sizeof cells / sizeof *cells; i++)
        *at(&g, cells[i][0], cells[i][1]) = -1.0f;
    compare_result_t r = compare(&e, &g, 16, 64);
    cr_assert_eq(r.wrong, 7);
    cr_assert_eq(r.nshown, COMPARE_MAX_SHOWN);
    int want[][2] = {{0, 5}, {2, 3}, {2, 60}, {10, 10}, {40, 1}};
    for (int i = 0; i < COMPARE_MAX_SHOWN; i++) {
        cr_assert_eq(r.shown[i].row, want[i][0]);
        cr_assert_eq(r.shown[i].col, want[i][1]);
        cr_assert_eq(r.shown[i].got, -1.0f);
        cr_assert_eq(r.shown[i].expected, *at(&e, want[i][0], want[i][1]));
    }
    free(e.data);
    free(g.data);
}

/* ---- hints ------------------------------------------------------------------------------ */

Test(compare_hint, shape)
{
    matrix_t e = expected_matrix(64, 64), g = expected_matrix(64, 63);
    compare_result_t r = compare(&e, &g, 16, 64);
    cr_assert_not(r.passed);
    cr_assert_eq(r.hint, HINT_SHAPE);
    cr_assert_str_eq(r.hint_text, "output is 64x63, expected 64x64");
    char s[256];
    compare_summary(&r, s, sizeof s);
    cr_assert_str_eq(s, "output is 64x63, expected 64x64");
    free(e.data);
    free(g.data);
}

Test(compare_hint, never_written)
{
    matrix_t e = expected_matrix(100, 56), g = copy_of(&e);
    for (int i = 0; i < 100 * 56; i++)
        g.data[i] = poison();
    compare_result_t r = compare(&e, &g, 16, 128);
    cr_assert_eq(r.hint, HINT_NEVER_WRITTEN);
    cr_assert_not_null(strstr(r.hint_text, "output never written"), "%s", r.hint_text);
    cr_assert_eq(r.never_written, 5600);
    cr_assert_eq(r.wrong, 5600);
    cr_assert_eq(r.nonfinite, 0);
    free(e.data);
    free(g.data);
}

Test(compare_hint, integer_division_grid_is_too_small)
{
    matrix_t e = expected_matrix(100, 56), g = copy_of(&e);
    poison_partial_tiles(&g, 16);
    compare_result_t r = compare(&e, &g, 16, 128);
    cr_assert_eq(r.hint, HINT_GRID_TOO_SMALL);
    cr_assert_str_eq(r.hint_text, "only the elements in rows 96..99 and columns 48..55 (the last partial tile) "
                                  "were never written: the grid is too small; use ceiling "
                                  "division, (n + 16 - 1) / 16");
    cr_assert_eq(r.never_written, 100 * 56 - 96 * 48);
    cr_assert_eq(r.shown[0].row, 0);
    cr_assert_eq(r.shown[0].col, 48);
    free(e.data);
    free(g.data);
}

Test(compare_hint, grid_too_small_for_another_common_tile)
{
    /* the handout says 16, the student used 32: 48 = 32 + 16 */
    matrix_t e = expected_matrix(48, 40), g = copy_of(&e);
    poison_partial_tiles(&g, 32);
    compare_result_t r = compare(&e, &g, 16, 64);
    cr_assert_eq(r.hint, HINT_GRID_TOO_SMALL);
    cr_assert_not_null(strstr(r.hint_text, "only the elements in rows 32..47 and columns 32..39 "), "%s",
                       r.hint_text);
    free(e.data);
    free(g.data);
}

Test(compare_hint, grid_too_small_in_columns_only)
{
    matrix_t e = expected_matrix(64, 57), g = copy_of(&e);
    poison_partial_tiles(&g, 16);
    compare_result_t r = compare(&e, &g, 16, 64);
    cr_assert_eq(r.hint, HINT_GRID_TOO_SMALL);
    cr_assert_not_null(strstr(r.hint_text, "only the elements in columns 48..56 (the last partial tile)"), "%s",
                       r.hint_text);
    free(e.data);
    free(g.data);
}

/* 256 rows, 257 columns, column 256 unwritten: a grid of 256 / 16 blocks
 * along x, which a grid rounded down and a grid with x and y swapped (x
 * sized from the rows) both give: the hint names both, blames neither. */
Test(compare_hint, grid_too_small_where_swapped_axes_leave_the_same)
{
    matrix_t e = expected_matrix(256, 257), g = copy_of(&e);
    poison_partial_tiles(&g, 16);
    compare_result_t r = compare(&e, &g, 16, 64);
    cr_assert_eq(r.hint, HINT_GRID_TOO_SMALL);
    cr_assert_str_eq(r.hint_text, "only the elements in column 256 (the last partial tile) were "
                                  "never written: the grid does not reach them; either its size "
                                  "is rounded down (use ceiling division, (n + 16 - 1) / 16) or "
                                  "its x and y are swapped (x goes along the columns, y along the "
                                  "rows)");
    free(e.data);
    free(g.data);
}

/* Every wrong element NaN: there is no finite error to give a size to. */
Test(compare_summary, all_wrong_elements_nan_has_no_error_size)
{
    matrix_t e = expected_matrix(8, 8), g = copy_of(&e);
    for (int j = 0; j < 8; j++)
        *at(&g, 3, j) = NAN;
    compare_result_t r = compare(&e, &g, 16, 64);
    char buf[256];
    compare_summary(&r, buf, sizeof buf);
    cr_assert_str_eq(buf, "8 of 64 elements wrong, all of them NaN or infinite; 0 never written");
    *at(&g, 3, 0) = 1e6f; /* one finite error among them: sized, and the NaN counted */
    r = compare(&e, &g, 16, 64);
    compare_summary(&r, buf, sizeof buf);
    cr_assert_not_null(strstr(buf, "8 of 64 elements wrong (max abs err "), "%s", buf);
    cr_assert_not_null(strstr(buf, "; 0 never written; 7 NaN or infinite"), "%s", buf);
    free(e.data);
    free(g.data);
}

Test(compare_hint, boundary_wrong)
{
    matrix_t e = expected_matrix(100, 56), g = copy_of(&e);
    for (int i = 0; i < 100; i++)
        for (int j = 0; j < 56; j++)
            if (i >= 96 || j >= 48)
                *at(&g, i, j) += 3.0f;
    compare_result_t r = compare(&e, &g, 16, 128);
    cr_assert_eq(r.hint, HINT_BOUNDARY_WRONG);
    cr_assert_str_eq(r.hint_text, "only the elements in rows 96..99 and columns 48..55 (the last partial tile) "
                                  "are wrong: check the boundary conditions of the loads "
                                  "and of the store");
    free(e.data);
    free(g.data);
}

Test(compare_hint, boundary_wrong_in_the_last_row_only)
{
    matrix_t e = expected_matrix(97, 64), g = copy_of(&e);
    *at(&g, 96, 5) = 0.0f;
    *at(&g, 96, 63) = poison();
    compare_result_t r = compare(&e, &g, 16, 64);
    cr_assert_eq(r.hint, HINT_BOUNDARY_WRONG);
    cr_assert_not_null(strstr(r.hint_text, "only the elements in row 96 (the last partial tile) are wrong"), "%s",
                       r.hint_text);
    free(e.data);
    free(g.data);
}

Test(compare_hint, a_few_unwritten_in_the_stripe_is_a_boundary_bug)
{
    /* the grid covers the stripe, but the store skips the last column */
    matrix_t e = expected_matrix(100, 56), g = copy_of(&e);
    for (int i = 0; i < 100; i++)
        *at(&g, i, 55) = poison();
    compare_result_t r = compare(&e, &g, 16, 128);
    cr_assert_eq(r.hint, HINT_BOUNDARY_WRONG, "%s", r.hint_text);
    cr_assert_not_null(strstr(r.hint_text, "only the elements in columns 48..55 (the last partial tile) are "),
                       "%s", r.hint_text);
    free(e.data);
    free(g.data);
}

Test(compare_hint, wrong_corner_names_both_stripes)
{
    matrix_t e = expected_matrix(100, 56), g = copy_of(&e);
    *at(&g, 99, 55) = 0.0f;
    compare_result_t r = compare(&e, &g, 16, 128);
    cr_assert_eq(r.hint, HINT_BOUNDARY_WRONG);
    cr_assert_not_null(strstr(r.hint_text, "only the elements in rows 96..99 and columns 48..55 (the last "), "%s",
                       r.hint_text);
    free(e.data);
    free(g.data);
}

Test(compare_hint, nearly_all_wrong_with_k_uneven_does_not_blame_k)
{
    /* K = 300 is not a multiple of 16, but nothing shows that the last phase is the cause
     * (no inputs, so no hypothesis could match): the hint must not name K or the tile. */
    matrix_t e = expected_matrix(64, 64), g = copy_of(&e);
    for (int i = 0; i < 64 * 64; i++)
        g.data[i] *= 1.001f;
    compare_result_t r = compare(&e, &g, 16, 300);
    cr_assert_eq(r.hint, HINT_ALL_WRONG);
    cr_assert_null(strstr(r.hint_text, "K ="), "%s", r.hint_text);
    cr_assert_null(strstr(r.hint_text, "TILE_WIDTH"), "%s", r.hint_text);
    free(e.data);
    free(g.data);
}

Test(compare_hint, all_wrong_when_k_is_a_multiple_of_the_tile)
{
    matrix_t e = expected_matrix(64, 64), g = copy_of(&e);
    for (int i = 0; i < 64 * 64; i++)
        g.data[i] *= 1.001f;
    compare_result_t r = compare(&e, &g, 16, 256);
    cr_assert_eq(r.hint, HINT_ALL_WRONG);
    cr_assert_str_eq(r.hint_text, "every element is wrong");
    free(e.data);
    free(g.data);
}

Test(compare_hint, partly_unwritten_outside_a_boundary_pattern)
{
    matrix_t e = expected_matrix(64, 64), g = copy_of(&e);
    for (int j = 0; j < 64; j++)
        *at(&g, 5, j) = poison();
    compare_result_t r = compare(&e, &g, 16, 300);
    cr_assert_eq(r.hint, HINT_PARTLY_UNWRITTEN);
    cr_assert_not_null(strstr(r.hint_text, "64 of 4096 elements were never written"), "%s",
                       r.hint_text);
    free(e.data);
    free(g.data);
}

Test(compare_hint, some_wrong)
{
    matrix_t e = expected_matrix(64, 64), g = copy_of(&e);
    *at(&g, 3, 5) = 7.0f;
    compare_result_t r = compare(&e, &g, 16, 300);
    cr_assert_eq(r.hint, HINT_SOME_WRONG);
    cr_assert_str_eq(r.hint_text, "1 of 4096 elements are wrong, the first at row 3, column 5 "
                                  "(expected 297, got 7)");
    char s[256];
    compare_summary(&r, s, sizeof s);
    cr_assert_str_eq(s, "1 of 4096 elements wrong (max abs err 290, max rel err 0.976); 0 never "
                        "written");
    free(e.data);
    free(g.data);
}

Test(compare_hint, every_result_is_one_line)
{
    matrix_t e = expected_matrix(100, 56), g = copy_of(&e);
    poison_partial_tiles(&g, 16);
    compare_result_t r = compare(&e, &g, 16, 128);
    char s[256];
    compare_summary(&r, s, sizeof s);
    cr_assert_str_eq(s, "992 of 5600 elements never written (every written one is right)");
    cr_assert_null(strchr(r.hint_text, '\n'));
    cr_assert_null(strchr(s, '\n'));
    free(e.data);
    free(g.data);
}

/* ---- the error map ------------------------------------------------------------------------ */

static char cell(const error_map_t *m, int r, int c) { return m->cells[r * m->map_cols + c]; }

Test(compare_map, right_output_gives_an_all_right_map_of_one_element_cells)
{
    matrix_t e = expected_matrix(64, 40), g = copy_of(&e);
    compare_result_t r = compare(&e, &g, 16, 64);
    cr_assert_eq(r.map.rows, 64);
    cr_assert_eq(r.map.cols, 40);
    cr_assert_eq(r.map.map_rows, 64);
    cr_assert_eq(r.map.map_cols, 40);
    cr_assert_eq(strlen(r.map.cells), 64 * 40);
    cr_assert_eq(strspn(r.map.cells, "."), 64 * 40);
    cr_assert_eq(error_map_cell_rows(&r.map), 1);
    free(e.data);
    free(g.data);
}

Test(compare_map, grid_too_small_marks_only_the_last_cells_never_written)
{
    /* 100x56: cells of 2x1 elements, 50x56 of them; rows 96..99 are cell
     * rows 48..49, columns 48..55 cell columns 48..55 */
    matrix_t e = expected_matrix(100, 56), g = copy_of(&e);
    poison_partial_tiles(&g, 16);
    compare_result_t r = compare(&e, &g, 16, 128);
    cr_assert_eq(r.map.map_rows, 50);
    cr_assert_eq(r.map.map_cols, 56);
    cr_assert_eq(error_map_cell_rows(&r.map), 2);
    cr_assert_eq(error_map_cell_cols(&r.map), 1);
    for (int i = 0; i < 50; i++)
        for (int j = 0; j < 56; j++)
            cr_assert_eq(cell(&r.map, i, j), i >= 48 || j >= 48 ? 'o' : '.', "cell %d,%d", i, j);
    free(e.data);
    free(g.data);
}

Test(compare_map, at_most_64_cells_a_side_and_never_written_beats_wrong)
{
    matrix_t e = expected_matrix(1000, 3), g = copy_of(&e);
    *at(&g, 0, 0) = 1.0f;     /* wrong, cell (0, 0) */
    *at(&g, 15, 0) = poison(); /* never written, the same cell: wins */
    *at(&g, 16, 1) = 2.0f;    /* wrong alone in cell (1, 1) */
    *at(&g, 999, 2) = poison(); /* the last, smaller cell */
    compare_result_t r = compare(&e, &g, 16, 8);
    cr_assert_eq(error_map_cell_rows(&r.map), 16);
    cr_assert_eq(r.map.map_rows, 63); /* ceil(1000 / 16) */
    cr_assert_eq(r.map.map_cols, 3);
    cr_assert_eq(cell(&r.map, 0, 0), 'o');
    cr_assert_eq(cell(&r.map, 1, 1), 'x');
    cr_assert_eq(cell(&r.map, 62, 2), 'o');
    int marked = 0;
    for (int i = 0; i < 63 * 3; i++)
        marked += r.map.cells[i] != '.';
    cr_assert_eq(marked, 3);
    free(e.data);
    free(g.data);
    e = expected_matrix(4096, 65), g = copy_of(&e);
    r = compare(&e, &g, 16, 8);
    cr_assert_eq(r.map.map_rows, 64);
    cr_assert_eq(r.map.map_cols, 33); /* blocks of 2 columns */
    free(e.data);
    free(g.data);
}

Test(compare_map, no_map_on_a_shape_mismatch)
{
    matrix_t e = expected_matrix(64, 64), g = expected_matrix(64, 63);
    compare_result_t r = compare(&e, &g, 16, 64);
    cr_assert_eq(r.map.map_rows, 0);
    cr_assert_eq(r.map.map_cols, 0);
    free(e.data);
    free(g.data);
}

Test(compare_map, shrinking_keeps_the_worst_state_of_each_block)
{
    error_map_t m, s;
    memset(&m, 0, sizeof m);
    m.rows = m.cols = 64;
    m.map_rows = m.map_cols = 64;
    memset(m.cells, '.', 64 * 64);
    m.cells[64 * 64] = '\0';
    m.cells[0] = 'x';
    m.cells[1] = 'o';               /* with the 'x' in shrunk cell (0, 0) */
    m.cells[63 * 64 + 63] = 'x';    /* bottom right */
    error_map_shrink(&m, 16, 48, &s);
    cr_assert_eq(s.map_rows, 16);
    cr_assert_eq(s.map_cols, 32);
    cr_assert_eq(s.rows, 64);
    cr_assert_eq(error_map_cell_rows(&s), 4);
    cr_assert_eq(error_map_cell_cols(&s), 2);
    cr_assert_eq(strlen(s.cells), 16 * 32);
    cr_assert_eq(cell(&s, 0, 0), 'o');
    cr_assert_eq(cell(&s, 15, 31), 'x');
    cr_assert_eq(cell(&s, 7, 7), '.');
    error_map_shrink(&m, 100, 100, &s);
    cr_assert_str_eq(s.cells, m.cells, "a small enough map stays as it is");
}

/* ---- a hidden dataset's summary and hint ----------------------------------------------- */

Test(compare_hidden, counts_without_errors_and_a_hint_without_values)
{
    matrix_t e = expected_matrix(40, 30), g = copy_of(&e);
    *at(&g, 3, 4) = 7.25f; /* a few wrong, scattered: the hint quotes the first */
    *at(&g, 20, 9) = 1.5f;
    compare_result_t r = compare(&e, &g, 16, 7);
    cr_assert_eq(r.hint, HINT_SOME_WRONG, "%s", r.hint_text);
    cr_assert(strstr(r.hint_text, "(expected 194, got 7.25)"), "%s", r.hint_text);
    cr_assert_str_eq(r.hint_hidden, "2 of 1200 elements are wrong, the first at row 3, column 4");
    char summary[256];
    compare_summary(&r, summary, sizeof summary);
    cr_assert(strstr(summary, "max abs err"), "%s", summary);
    compare_summary_hidden(&r, summary, sizeof summary);
    cr_assert_str_eq(summary, "2 of 1200 elements wrong; 0 never written");
    *at(&g, 3, 4) = *at(&e, 3, 4), *at(&g, 20, 9) = *at(&e, 20, 9);
    r = compare(&e, &g, 16, 7);
    compare_summary_hidden(&r, summary, sizeof summary);
    cr_assert_str_eq(summary, "all 1200 elements within tolerance");
    poison_partial_tiles(&g, 16); /* a hint from the pattern quotes no value */
    r = compare(&e, &g, 16, 7);
    cr_assert_eq(r.hint, HINT_GRID_TOO_SMALL, "%s", r.hint_text);
    cr_assert_str_eq(r.hint_hidden, "");
    compare_summary_hidden(&r, summary, sizeof summary);
    cr_assert(strstr(summary, "of 1200 elements never written (every written one is right)"),
              "%s", summary);
    free(e.data);
    free(g.data);
}
