/* compare.c - compares a student's output matrix with the expected one and
 * turns the pattern of wrong elements into a one-line hint for the student.
 *
 * Tolerance. An element passes when |got - exp| <= atol + rtol*|exp|, and the
 * test is written as !(... <= ...) so that a NaN or an infinity never passes.
 * The lab default is rtol = atol = 1e-4 (labs/lab3/lab.json). Why relative:
 * a float32 dot product of length K, summed in any order, has an error of at
 * most about K*u*sum|a_i*b_i| with u = 2^-24 ~ 6e-8. For non-negative data
 * (the course datasets) sum|a_i*b_i| equals the result, so the relative error
 * stays below K*u, which is under 1e-4 for K <= 1600 even in this worst case
 * (typical errors grow like sqrt(K)*u and are far smaller: a tiled FMA sum
 * uses at most 1.2% of the bound on the ten ECE408 lab3 datasets). atol only
 * matters for results near zero, where a relative bound alone is too strict.
 * libwb's absolute 0.2 does not scale: it is loose on small results (0.2 on
 * 0.5 is 40%), it lets a missing 0.1 x 0.1 term pass on values in the
 * thousands (so does this bound there: one tiny term is below what float32
 * can promise), and in the worst case it fails correct code on long sums of
 * large values (K = 1600, results ~6400: K*u*6400 ~ 0.6).
 *
 * Hints come from evidence only. Everything unwritten: the kernel never ran
 * or never stored. Then the classic wrong programs (hypotheses.h): the one
 * that reproduces every written element is named, with its fix. Then where
 * the wrong elements lie: only the last partial tile rows and columns (the
 * grid was computed with integer division, or the boundary checks are
 * wrong), some never written, and otherwise a plain count that says which
 * wrong programs were ruled out.
 *
 * The error map keeps the same picture for the reports: the output in at
 * most 64x64 blocks, each right, wrong or never written (compare.h). */
#include "compare/compare.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "matbin.h"

#define NCANDIDATE_TILES 4

typedef enum { ELEM_OK, ELEM_WRONG, ELEM_UNWRITTEN } elem_status_t;

/* One candidate tile width T and whether the wrong elements fit its stripe:
 * rows >= row_cut or cols >= col_cut, the last partial tile row/column. */
typedef struct {
    int tile;
    int row_cut, col_cut;
    int outside;       /* a wrong element lies in the full tiles */
    int written_wrong; /* a written element in the stripe is wrong */
    int rows_only_hit; /* a wrong element has row >= row_cut, col < col_cut */
    int cols_only_hit; /* a wrong element has col >= col_cut, row < row_cut */
    int corner_hit;    /* a wrong element lies in both */
} stripe_t;

typedef struct {
    stripe_t s[NCANDIDATE_TILES];
    int n;
} stripes_t;

static elem_status_t element_status(float exp, float got, tolerance_t tol)
{
    if (matbin_is_poison(got))
        return ELEM_UNWRITTEN;
    double diff = fabs((double)got - (double)exp);
    if (!(diff <= tol.atol + tol.rtol * fabs((double)exp)))
        return ELEM_WRONG;
    return ELEM_OK;
}

/* ---- boundary stripes --------------------------------------------------------- */

static void add_stripe(stripes_t *st, int tile, int rows, int cols)
{
    if (tile <= 0)
        return;
    for (int i = 0; i < st->n; i++)
        if (st->s[i].tile == tile)
            return;
    int row_cut = rows / tile * tile, col_cut = cols / tile * tile;
    /* a stripe needs a partial tile, and full tiles beside it */
    if ((row_cut == rows && col_cut == cols) || row_cut == 0 || col_cut == 0)
        return;
    stripe_t *s = &st->s[st->n++];
    memset(s, 0, sizeof *s);
    s->tile = tile;
    s->row_cut = row_cut;
    s->col_cut = col_cut;
}

static void init_stripes(stripes_t *st, int tile_width, int rows, int cols)
{
    st->n = 0;
    add_stripe(st, tile_width, rows, cols);
    add_stripe(st, 8, rows, cols);
    add_stripe(st, 16, rows, cols);
    add_stripe(st, 32, rows, cols);
}

static void note_wrong_in_stripes(stripes_t *st, int row, int col, elem_status_t status)
{
    for (int i = 0; i < st->n; i++) {
        stripe_t *s = &st->s[i];
        int in_rows = row >= s->row_cut, in_cols = col >= s->col_cut;
        if (!in_rows && !in_cols) {
            s->outside = 1;
            continue;
        }
        s->rows_only_hit |= in_rows && !in_cols;
        s->cols_only_hit |= in_cols && !in_rows;
        s->corner_hit |= in_rows && in_cols;
        s->written_wrong |= status == ELEM_WRONG;
    }
}

/* The lab's own tile if its stripe holds every wrong element, else the
 * matching stripe with the fewest elements (the tightest explanation). */
static const stripe_t *best_stripe(const stripes_t *st, int tile_width, int rows, int cols)
{
    const stripe_t *best = NULL;
    long best_area = 0;
    for (int i = 0; i < st->n; i++) {
        const stripe_t *s = &st->s[i];
        if (s->outside)
            continue;
        if (s->tile == tile_width)
            return s;
        long area = (long)rows * cols - (long)s->row_cut * s->col_cut;
        if (!best || area < best_area) {
            best = s;
            best_area = area;
        }
    }
    return best;
}

/* The parts of the stripe to name: the row stripe, the column stripe, or
 * both (also when only their corner is wrong). */
static int names_rows(const stripe_t *s)
{
    return s->rows_only_hit || (s->corner_hit && !s->cols_only_hit);
}

static int names_cols(const stripe_t *s)
{
    return s->cols_only_hit || (s->corner_hit && !s->rows_only_hit);
}

/* "rows 96..99 and columns 48..55", "row 99", "columns 48..55". */
static void describe_stripe(const stripe_t *s, int rows, int cols, char *buf, size_t len)
{
    char r[64] = "", c[64] = "";
    if (names_rows(s))
        snprintf(r, sizeof r, s->row_cut == rows - 1 ? "row %d" : "rows %d..%d", s->row_cut,
                 rows - 1);
    if (names_cols(s))
        snprintf(c, sizeof c, s->col_cut == cols - 1 ? "column %d" : "columns %d..%d", s->col_cut,
                 cols - 1);
    snprintf(buf, len, "%s%s%s", r, (*r && *c) ? " and " : "", c);
}

/* Elements in the named parts of the stripe. */
static long named_area(const stripe_t *s, int rows, int cols)
{
    long all = (long)rows * cols;
    if (names_rows(s) && names_cols(s))
        return all - (long)s->row_cut * s->col_cut;
    return names_rows(s) ? all - (long)s->row_cut * cols : all - (long)rows * s->col_cut;
}

/* ---- hints ------------------------------------------------------------------------ */

static void set_hint(compare_result_t *r, hint_t hint, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_hint(compare_result_t *r, hint_t hint, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->hint_text, sizeof r->hint_text, fmt, ap);
    va_end(ap);
    r->hint = hint;
}

/* Only the columns past col_cut unwritten, with col_cut the threads a grid
 * of ceil(rows / tile) blocks along x would cover (or the same for rows):
 * what a grid with x and y swapped leaves, as well as a grid rounded down. */
static int axes_swap_fits(const stripe_t *s, int rows, int cols)
{
    int t = s->tile;
    if (names_cols(s) && !names_rows(s))
        return s->col_cut == (rows + t - 1) / t * t;
    if (names_rows(s) && !names_cols(s))
        return s->row_cut == (cols + t - 1) / t * t;
    return 0;
}

/* Wrong elements only in the last partial tile: never written, all of it,
 * is a grid too small (rounded down, or x and y swapped where that leaves the
 * same); anything else is a boundary condition. */
static int boundary_hint(compare_result_t *r, const stripes_t *st, int tile_width, int rows,
                         int cols)
{
    const stripe_t *s = best_stripe(st, tile_width, rows, cols);
    if (!s)
        return 0;
    char where[160];
    describe_stripe(s, rows, cols, where, sizeof where);
    if (!s->written_wrong && r->never_written == named_area(s, rows, cols) &&
        axes_swap_fits(s, rows, cols))
        set_hint(r, HINT_GRID_TOO_SMALL,
                 "only the elements in %s (the last partial tile) were never written: the "
                 "grid does not reach them; either its size is rounded down (use ceiling "
                 "division, (n + %d - 1) / %d) or its x and y are swapped (x goes along the "
                 "columns, y along the rows)",
                 where, s->tile, s->tile);
    else if (!s->written_wrong && r->never_written == named_area(s, rows, cols))
        set_hint(r, HINT_GRID_TOO_SMALL,
                 "only the elements in %s (the last partial tile) were never written: the "
                 "grid is too small; use ceiling division, (n + %d - 1) / %d",
                 where, s->tile, s->tile);
    else
        set_hint(r, HINT_BOUNDARY_WRONG,
                 "only the elements in %s (the last partial tile) are wrong: check the "
                 "boundary conditions of the loads and of the store",
                 where);
    return 1;
}

/* A classic wrong program that reproduces every written element. */
static int hypothesis_hint(compare_result_t *r, const matrix_t *exp, const matrix_t *got,
                           tolerance_t tol, int tile_width, const compare_explainer_t *ex,
                           char *ruled_out, size_t len)
{
    if (!ex || r->wrong == r->never_written)
        return 0;
    hypothesis_result_t h;
    memset(&h, 0, sizeof h);
    ex->explain(ex->inputs, exp, got, tol, tile_width, &h);
    snprintf(ruled_out, len, "%s", h.ruled_out);
    if (h.nmatched == 0)
        return 0;
    r->nhypotheses = h.nmatched;
    for (int i = 0, used = 0; i < h.nmatched && used < (int)sizeof r->hypothesis; i++)
        used += snprintf(r->hypothesis + used, sizeof r->hypothesis - (size_t)used, "%s%s", i ? "," : "",
                         h.id[i]);
    char unwritten[128] = "", sample[96] = "";
    if (r->never_written > 0)
        snprintf(unwritten, sizeof unwritten, "; also, %ld elements were never written",
                 r->never_written);
    if (h.sampled)
        snprintf(sample, sizeof sample, " (checked on %ld of the written elements)", h.checked);
    set_hint(r, HINT_HYPOTHESIS, "%s%s%s", h.hint, sample, unwritten);
    return 1;
}

double compare_largest(const float *x, size_t n)
{
    double top = 0;
    for (size_t i = 0; i < n; i++)
        top = fabs((double)x[i]) > top ? fabs((double)x[i]) : top;
    return top;
}

/* Written elements no sum of the inputs' products can be (compare.h's
 * foreign values). The kernel then added in something that is not an element
 * of the inputs; on a GPU a read past an input finds its guard
 * (labs/common/harness_device.h: 3.39e38). */
static int foreign_hint(compare_result_t *r, const matrix_t *got, const compare_explainer_t *ex)
{
    if (!ex || !ex->bound)
        return 0;
    double bound = ex->bound(ex->inputs);
    long n = 0, total = (long)got->rows * got->cols;
    for (long k = 0; k < total; k++) {
        float g = got->data[k];
        n += !matbin_is_poison(g) &&
             (!isfinite(g) || fabs((double)g) > COMPARE_FOREIGN_FACTOR * bound);
    }
    if (n == 0)
        return 0;
    const char *why = COMPARE_FOREIGN_CAUSES;
    set_hint(r, HINT_FOREIGN_VALUES,
             "%ld of %ld elements are NaN, infinite or beyond any sum of A's and B's products "
             "(at most %.3g): %s", n, total, bound, why);
    snprintf(r->hint_hidden, sizeof r->hint_hidden,
             "%ld of %ld elements are NaN, infinite or beyond any sum of A's and B's products: "
             "%s", n, total, why);
    return 1;
}

static void choose_hint(compare_result_t *r, const stripes_t *st, const matrix_t *exp,
                        const matrix_t *got, tolerance_t tol, int tile_width,
                        const compare_explainer_t *ex)
{
    int rows = exp->rows, cols = exp->cols;
    char ruled_out[384] = "";
    if (r->never_written == r->total) {
        set_hint(r, HINT_NEVER_WRITTEN,
                 "output never written: every element still holds the NaN poison the harness "
                 "put there; does the launch function launch the kernel, and does the kernel "
                 "store to C?");
        return;
    }
    if (hypothesis_hint(r, exp, got, tol, tile_width, ex, ruled_out, sizeof ruled_out) ||
        boundary_hint(r, st, tile_width, rows, cols) || foreign_hint(r, got, ex))
        return;
    if (r->never_written > 0) {
        set_hint(r, HINT_PARTLY_UNWRITTEN,
                 "%ld of %ld elements were never written (they still hold the NaN poison): "
                 "check that the grid covers the whole output and the condition on the store",
                 r->never_written, r->total);
        return;
    }
    if (r->wrong == r->total) {
        set_hint(r, HINT_ALL_WRONG, "every element is wrong%s%s", *ruled_out ? "; " : "",
                 ruled_out);
        return;
    }
    const mismatch_t *m = &r->shown[0];
    set_hint(r, HINT_SOME_WRONG,
             "%ld of %ld elements are wrong, the first at row %d, column %d (expected %.9g, "
             "got %.9g)%s%s",
             r->wrong, r->total, m->row, m->col, m->expected, m->got, *ruled_out ? "; " : "",
             ruled_out);
    snprintf(r->hint_hidden, sizeof r->hint_hidden,
             "%ld of %ld elements are wrong, the first at row %d, column %d%s%s", r->wrong,
             r->total, m->row, m->col, *ruled_out ? "; " : "", ruled_out);
}

/* ---- the error map ------------------------------------------------------------- */

static int ceil_div(int a, int b) { return (a + b - 1) / b; }

static int cell_rank(char c) { return c == MAP_UNWRITTEN ? 2 : c == MAP_WRONG ? 1 : 0; }

/* An empty map of rows x cols elements in blocks of block_r x block_c. */
static void map_init(error_map_t *m, int rows, int cols, int block_r, int block_c)
{
    m->rows = rows;
    m->cols = cols;
    m->map_rows = rows > 0 && cols > 0 ? ceil_div(rows, block_r) : 0;
    m->map_cols = rows > 0 && cols > 0 ? ceil_div(cols, block_c) : 0;
    size_t n = (size_t)m->map_rows * m->map_cols;
    memset(m->cells, MAP_RIGHT, n);
    m->cells[n] = '\0';
}

/* Raises cell (r, c) to state if that is worse than what it holds. */
static void map_raise(error_map_t *m, int r, int c, char state)
{
    char *cell = &m->cells[(size_t)r * m->map_cols + c];
    if (cell_rank(state) > cell_rank(*cell))
        *cell = state;
}

int error_map_cell_rows(const error_map_t *m)
{
    return m->map_rows > 0 ? ceil_div(m->rows, m->map_rows) : 1;
}

int error_map_cell_cols(const error_map_t *m)
{
    return m->map_cols > 0 ? ceil_div(m->cols, m->map_cols) : 1;
}

void error_map_shrink(const error_map_t *m, int max_rows, int max_cols, error_map_t *out)
{
    if (m->map_rows <= 0 || m->map_cols <= 0 || max_rows <= 0 || max_cols <= 0) {
        memset(out, 0, sizeof *out);
        out->rows = m->rows;
        out->cols = m->cols;
        return;
    }
    int fr = ceil_div(m->map_rows, max_rows), fc = ceil_div(m->map_cols, max_cols);
    error_map_t tmp; /* m and out may be the same map */
    map_init(&tmp, m->map_rows, m->map_cols, fr, fc);
    for (int r = 0; r < m->map_rows; r++)
        for (int c = 0; c < m->map_cols; c++)
            map_raise(&tmp, r / fr, c / fc, m->cells[(size_t)r * m->map_cols + c]);
    tmp.rows = m->rows;
    tmp.cols = m->cols;
    *out = tmp;
}

void error_map_start(error_map_t *m, int rows, int cols)
{
    map_init(m, rows, cols, ceil_div(rows, ERROR_MAP_MAX), ceil_div(cols, ERROR_MAP_MAX));
}

void error_map_mark(error_map_t *m, int row, int col, char state)
{
    map_raise(m, row / error_map_cell_rows(m), col / error_map_cell_cols(m), state);
}

static void map_note(compare_result_t *r, int row, int col, elem_status_t status)
{
    error_map_mark(&r->map, row, col, status == ELEM_UNWRITTEN ? MAP_UNWRITTEN : MAP_WRONG);
}

/* ---- comparison ----------------------------------------------------------------- */

static void note_error_size(compare_result_t *r, float exp, float got)
{
    if (!isfinite(got) || !isfinite(exp))
        return;
    double diff = fabs((double)got - (double)exp);
    if (diff > r->max_abs_err)
        r->max_abs_err = diff;
    if (exp != 0.0f && diff / fabs((double)exp) > r->max_rel_err)
        r->max_rel_err = diff / fabs((double)exp);
}

static void note_wrong(compare_result_t *r, int row, int col, float exp, float got)
{
    r->wrong++;
    if (r->nshown < COMPARE_MAX_SHOWN)
        r->shown[r->nshown++] = (mismatch_t){row, col, exp, got};
}

static void compare_elements(const matrix_t *exp, const matrix_t *got, tolerance_t tol,
                             stripes_t *st, compare_result_t *r)
{
    for (int i = 0; i < exp->rows; i++) {
        for (int j = 0; j < exp->cols; j++) {
            size_t k = (size_t)i * exp->cols + j;
            float e = exp->data[k], g = got->data[k];
            elem_status_t status = element_status(e, g, tol);
            if (status == ELEM_UNWRITTEN)
                r->never_written++;
            else if (!isfinite(g))
                r->nonfinite++;
            else
                note_error_size(r, e, g);
            if (status != ELEM_OK) {
                note_wrong(r, i, j, e, g);
                map_note(r, i, j, status);
                note_wrong_in_stripes(st, i, j, status);
            }
        }
    }
}

/* Wrong dimensions: nothing can be compared, so every expected element
 * counts as wrong (total and wrong are the expected element count). */
static void shape_mismatch(const matrix_t *exp, const matrix_t *got, compare_result_t *r)
{
    r->total = r->wrong = (long)exp->rows * exp->cols;
    set_hint(r, HINT_SHAPE, "output is %dx%d, expected %dx%d", got->rows, got->cols, exp->rows,
             exp->cols);
}

int compare_matrices(const matrix_t *exp, const matrix_t *got, tolerance_t tol, int tile_width,
                     const compare_explainer_t *ex, compare_result_t *r)
{
    memset(r, 0, sizeof *r);
    if (exp->rows != got->rows || exp->cols != got->cols) {
        shape_mismatch(exp, got, r);
        return r->passed;
    }
    r->total = (long)exp->rows * exp->cols;
    error_map_start(&r->map, exp->rows, exp->cols);
    stripes_t st;
    init_stripes(&st, tile_width, exp->rows, exp->cols);
    compare_elements(exp, got, tol, &st, r);
    r->passed = r->wrong == 0;
    if (!r->passed)
        choose_hint(r, &st, exp, got, tol, tile_width, ex);
    return r->passed;
}

/* The element counts (errors: with the largest errors). */
static void element_summary(const compare_result_t *r, int errors, char *buf, size_t buflen)
{
    char err[96] = "";
    if (errors)
        snprintf(err, sizeof err, " (max abs err %.3g, max rel err %.3g)", r->max_abs_err,
                 r->max_rel_err);
    long written_wrong = r->wrong - r->never_written;
    if (r->passed)
        snprintf(buf, buflen, "all %ld elements within tolerance%s", r->total, err);
    else if (r->never_written == r->total)
        snprintf(buf, buflen, "none of the %ld elements was written", r->total);
    else if (written_wrong == 0)
        snprintf(buf, buflen, "%ld of %ld elements never written (every written one is right)",
                 r->never_written, r->total);
    else if (r->nonfinite == written_wrong) /* no finite error to measure */
        snprintf(buf, buflen, "%ld of %ld elements wrong, all of them NaN or infinite; %ld never "
                 "written", r->wrong, r->total, r->never_written);
    else
        snprintf(buf, buflen, "%ld of %ld elements wrong%s; %ld never written", r->wrong, r->total,
                 err, r->never_written);
    if (!r->passed && r->nonfinite > 0 && r->nonfinite != written_wrong) {
        size_t n = strlen(buf);
        snprintf(buf + n, buflen - n, "; %ld NaN or infinite", r->nonfinite);
    }
}

void compare_summary(const compare_result_t *r, char *buf, size_t buflen)
{
    if (r->summary[0])
        snprintf(buf, buflen, "%s", r->summary);
    else if (r->hint == HINT_SHAPE)
        snprintf(buf, buflen, "%s", r->hint_text);
    else
        element_summary(r, 1, buf, buflen);
}

void compare_summary_hidden(const compare_result_t *r, char *buf, size_t buflen)
{
    if (r->hint == HINT_SHAPE) /* the shapes: in the test's name already */
        snprintf(buf, buflen, "%s", r->hint_text);
    else if (r->summary[0] && r->never_written > 0)
        snprintf(buf, buflen, "%ld of the %ld output values never written", r->never_written,
                 r->total);
    else if (r->summary[0])
        snprintf(buf, buflen, "the output is %s the tolerance of the expected one%s",
                 r->passed ? "within" : "outside", r->nonfinite ? " (NaN or infinite)" : "");
    else
        element_summary(r, 0, buf, buflen);
}
