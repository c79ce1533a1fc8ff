/* matmul.c - the "matmul" lab kind: C = A·B with A (input0) MxK, B (input1)
 * KxN and C (output) MxN, all row-major. Its datasets, comparison (with the
 * wrong-program hypotheses of matmul_hypotheses.c), sanitizer choice and
 * performance bound. Labs: lab2 (basic), lab3 and lab3-wb (tiled). */
#include "kinds/matmul.h"
#include "course/lab.h"
#include "kinds/matmul_hypotheses.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int parse_shape(const char *s, int *m, int *k, int *n)
{
    char tail;
    if (sscanf(s, "%dx%dx%d%c", m, k, n, &tail) != 3)
        return -1;
    if (*m < 1 || *k < 1 || *n < 1 || *m > RAW_MAX_DIM || *k > RAW_MAX_DIM || *n > RAW_MAX_DIM)
        return -1;
    return 0;
}


void matmul_double(const matrix_t *a, const matrix_t *b, double *c, double *mag)
{
    int m = a->rows, k = a->cols, n = b->cols;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
            double sum = 0.0, abs_sum = 0.0;
            for (int p = 0; p < k; p++) {
                double prod = (double)a->data[(size_t)i * k + p] * (double)b->data[(size_t)p * n + j];
                sum += prod;
                abs_sum += fabs(prod);
            }
            c[(size_t)i * n + j] = sum;
            if (mag)
                mag[(size_t)i * n + j] = abs_sum;
        }
    }
}


void gen_matmul(int m, int k, int n, uint64_t seed, value_kind_t kind, matrix_t *a, matrix_t *b,
                matrix_t *c)
{
    uint64_t state = seed;
    gen_fill_random(a, m, k, &state, kind);
    gen_fill_random(b, k, n, &state, kind);
    size_t count = (size_t)m * n;
    double *exact = malloc(count * sizeof(double));
    matmul_double(a, b, exact, NULL);
    c->rows = m;
    c->cols = n;
    c->data = malloc(count * sizeof(float));
    for (size_t i = 0; i < count; i++)
        c->data[i] = (float)exact[i];
    free(exact);
}


static int check_shapes(const struct lab *lab, const dataset_ref_t *ref, const dataset_t *d, char *err, size_t errlen)
{
    (void)lab;
    if (d->ninputs != 2)
        return fail(err, errlen, "%s: matrix multiplication needs input0.raw and input1.raw", ref->dir);
    const matrix_t *a = &d->inputs[0], *b = &d->inputs[1], *c = &d->expected;
    if (a->cols != b->rows)
        return fail(err, errlen,
                    "%s/input1.raw:1: B is %dx%d but A (input0.raw) is %dx%d: B must have %d rows "
                    "(A's columns)",
                    ref->dir, b->rows, b->cols, a->rows, a->cols, a->cols);
    if (c->rows != a->rows || c->cols != b->cols)
        return fail(err, errlen, "%s/output.raw:1: C is %dx%d but A*B is %dx%d", ref->dir, c->rows,
                    c->cols, a->rows, b->cols);
    return 0;
}


int check_matmul(const dataset_ref_t *ref, const dataset_t *d, char *err, size_t errlen)
{
    if (check_shapes(NULL, ref, d, err, errlen) != 0)
        return -1;
    const matrix_t *a = &d->inputs[0], *b = &d->inputs[1], *c = &d->expected;
    size_t count = (size_t)c->rows * c->cols;
    double *exact = malloc(count * sizeof(double)), *mag = malloc(count * sizeof(double));
    matmul_double(a, b, exact, mag);
    long bad = 0;
    size_t first = 0;
    for (size_t i = 0; i < count; i++) {
        double tol = 1e-5 * mag[i] + 1e-6;
        if (!(fabs((double)c->data[i] - exact[i]) <= tol)) {
            if (bad++ == 0)
                first = i;
        }
    }
    int rc = 0;
    if (bad) {
        int row = (int)(first / (size_t)c->cols), col = (int)(first % (size_t)c->cols);
        rc = fail(err, errlen,
                  "%s/output.raw: %ld of %zu elements disagree with input0.raw x input1.raw; the "
                  "first is row %d, col %d: the file has %.9g, the inputs give %.9g. Is an input "
                  "transposed, or from another dataset?",
                  ref->dir, bad, count, row, col, (double)c->data[first], exact[first]);
    }
    free(exact);
    free(mag);
    return rc;
}

static void shape_text(const struct lab *lab, const dataset_t *d, char *buf, size_t buflen)
{
    (void)lab;
    if (d->ninputs == 2 && d->inputs[0].cols == d->inputs[1].rows)
        snprintf(buf, buflen, "%dx%dx%d", d->inputs[0].rows, d->inputs[0].cols, d->inputs[1].cols);
    else
        snprintf(buf, buflen, "%dx%d", d->expected.rows, d->expected.cols);
}

static double flop(const struct lab *lab, const dataset_t *d)
{
    (void)lab;
    return 2.0 * d->inputs[0].rows * d->inputs[0].cols * d->inputs[1].cols;
}

static int generate(const struct lab *lab, const char *shape, uint64_t seed, value_kind_t values, dataset_t *out,
                    char *err, size_t errlen)
{
    (void)lab;
    int m, k, n;
    if (parse_shape(shape, &m, &k, &n) != 0)
        return fail(err, errlen, "bad shape '%s' (expected MxKxN, each 1..%d)", shape, RAW_MAX_DIM);
    memset(out, 0, sizeof *out);
    out->ninputs = 2;
    gen_matmul(m, k, n, seed, values, &out->inputs[0], &out->inputs[1], &out->expected);
    return 0;
}

static int shape_work(const struct lab *lab, const char *shape, double *flop, double *compulsory_bytes)
{
    (void)lab;
    int m, k, n;
    if (parse_shape(shape, &m, &k, &n) != 0)
        return -1;
    *flop = 2.0 * m * (double)n * k;
    *compulsory_bytes = 4.0 * ((double)m * k + (double)k * n + (double)m * n);
    return 0;
}

static int timing_inputs(const struct lab *lab, const char *shape, uint64_t seed, dataset_t *out, char *err, size_t errlen)
{
    (void)lab;
    int m, k, n;
    if (parse_shape(shape, &m, &k, &n) != 0)
        return fail(err, errlen, "bad shape '%s' (expected MxKxN, each 1..%d)", shape, RAW_MAX_DIM);
    memset(out, 0, sizeof *out);
    out->ninputs = 2;
    uint64_t state = seed;
    gen_fill_random(&out->inputs[0], m, k, &state, VALUES_SIGNED);
    gen_fill_random(&out->inputs[1], k, n, &state, VALUES_SIGNED);
    return 0;
}

static double max_abs(const matrix_t *m)
{
    double most = 0;
    for (long i = 0; i < (long)m->rows * m->cols; i++)
        most = fabs(m->data[i]) > most ? fabs(m->data[i]) : most;
    return most;
}

/* A timing shape's output against the reference's, element by element: two
 * float sums of K signed products differ by their rounding, which grows
 * with K and, where an element's sum cancels to near 0, passes a fixed atol
 * (on an H100, cuBLAS against the reference at 3001x2999x3003: 3 elements of
 * 9 million past atol 1e-3). So the atol grows with K: K FLT_EPSILON max|a|
 * max|b| times 4, some 30 times the typical rounding (about 0.023 at K =
 * 3000 with values in -4..4), and far below what a wrong kernel leaves. */
static void timing_compare(const struct lab *lab, const dataset_t *d, int *sum, double *rtol, double *atol)
{
    double k = d->inputs[0].cols;
    *sum = 0;
    *rtol = lab->tol.rtol;
    *atol = lab->tol.atol + 4.0 * k * FLT_EPSILON * max_abs(&d->inputs[0]) * max_abs(&d->inputs[1]);
}

/* Blocks of block_x x block_y threads, one an output element, that cover C
 * (numARows x numBColumns); a grid of 4 times as many or more is named.
 * It is the cause only where it explains the budget: blocks outside C that
 * work as hard as those inside make the grid's ratio to the blocks needed
 * the work's ratio to the reference's, and the budget is the lab's factor
 * times the reference's; below that the grid is named, and not as the
 * cause. */
static int explain_grid(const struct lab *lab, const dataset_t *d, double blocks, int block_x, int block_y,
                        char *buf, size_t len)
{
    if (d->ninputs < 2 || block_x <= 0 || block_y <= 0)
        return 0;
    long m = d->inputs[0].rows, n = d->inputs[1].cols;
    double needed = (double)((n + block_x - 1) / block_x) * (double)((m + block_y - 1) / block_y);
    if (!(blocks >= 4 * needed))
        return 0;
    int factor = lab->budget_factor > 0 ? lab->budget_factor : LAB_BUDGET_FACTOR_DEFAULT;
    int explains = blocks >= factor * needed;
    snprintf(buf, len, "the launch stopped had %.0f blocks of %dx%d threads, where %.0f cover C (%ld x %ld): "
                       "%.0f times the blocks C needs%s. Size the grid from C: ceil(numCColumns / TILE_WIDTH) by "
                       "ceil(numCRows / TILE_WIDTH) blocks, in integers ((n + TILE_WIDTH - 1) / TILE_WIDTH)",
             blocks, block_x, block_y, needed, m, n, blocks / needed,
             explains ? ", and the others' tile loads and sums, stored nowhere, are work enough to pass the "
                        "budget (the reference's instructions times the lab's factor)"
                      : "; that alone is less work than the budget allows, so look for a loop that does not end "
                        "too");
    return 1;
}

/* ---- the hidden set's shapes ---------------------------------------------------- */

#define HIDDEN_MAX_SIDE 300 /* a hidden set runs in well under a second on the emulator */

static const char *const hidden_names[] = {"tiny",   "one-row",    "one-column",
                                           "k-one",  "tile-edge",  "uneven",
                                           "non-square", "tall-skinny"};

static int clamp_side(int v) { return v < 1 ? 1 : v > HIDDEN_MAX_SIDE ? HIDDEN_MAX_SIDE : v; }

/* A side in lo..hi (within 1..HIDDEN_MAX_SIDE) that is not a multiple of the tile. */
static int off_tile(uint64_t *st, int lo, int hi, int tile)
{
    int v = gen_between(st, clamp_side(lo), clamp_side(hi));
    return v % tile == 0 ? v - 1 : v;
}

/* One below or one above a multiple of the tile: tile*j -+ 1, j in 1..4. */
static int tile_edge(uint64_t *st, int tile)
{
    int j = gen_between(st, 1, 4);
    return clamp_side(tile * j + ((gen_next(st) & 1) ? 1 : -1));
}

/* An odd side in 3..hi. */
static int odd_side(uint64_t *st, int hi)
{
    return 2 * gen_between(st, 1, (clamp_side(hi) - 1) / 2) + 1;
}

/* Three sides of different magnitude (below the tile, a few tiles, up to
 * the largest), in an order drawn from the stream. */
static void non_square(uint64_t *st, int tile, int *m, int *k, int *n)
{
    int s[3] = {off_tile(st, 2, tile - 1, tile), off_tile(st, tile + 1, 4 * tile - 1, tile),
                off_tile(st, 4 * tile + 1, HIDDEN_MAX_SIDE, tile)};
    for (int i = 2; i > 0; i--) { /* Fisher-Yates */
        int j = gen_between(st, 0, i), tmp = s[i];
        s[i] = s[j];
        s[j] = tmp;
    }
    *m = s[0], *k = s[1], *n = s[2];
}

static void hidden_shape(const struct lab *lab, int family, int tile, uint64_t *st, char *shape, size_t len)
{
    (void)lab;
    int t = tile > 1 ? tile : 16, m = 1, k = 1, n = 1;
    switch (family) {
    case 0: break;                                                        /* 1x1x1 */
    case 1: k = off_tile(st, 2, 8 * t, t), n = off_tile(st, t + 1, HIDDEN_MAX_SIDE, t); break;
    case 2: m = off_tile(st, t + 1, HIDDEN_MAX_SIDE, t), k = off_tile(st, 2, 8 * t, t); break;
    case 3: m = off_tile(st, 2, 8 * t, t), n = off_tile(st, 2, 8 * t, t); break; /* K = 1 */
    case 4: m = tile_edge(st, t), k = tile_edge(st, t), n = tile_edge(st, t); break;
    case 5: m = odd_side(st, 8 * t), k = odd_side(st, 8 * t), n = odd_side(st, 8 * t); break;
    case 6: non_square(st, t, &m, &k, &n); break;
    default: /* tall and skinny: many rows, a few columns, K below the tile */
        m = off_tile(st, HIDDEN_MAX_SIDE * 2 / 3, HIDDEN_MAX_SIDE, t);
        k = off_tile(st, 2, t - 1, t), n = off_tile(st, 2, t - 1, t);
        break;
    }
    snprintf(shape, len, "%dx%dx%d", m, k, n);
}

static void compare(const lab_t *lab, const dataset_t *d, const matrix_t *got, compare_result_t *r)
{
    matmul_inputs_t in = {&d->inputs[0], &d->inputs[1], {lab->seen_untiled, lab->seen_tile}};
    compare_explainer_t ex = matmul_explainer(&in);
    compare_matrices(&d->expected, got, lab->tol, lab->tile_width, &ex, r);
}

/* Sides that are not multiples of the tile show the boundary errors; several
 * tile phases (K > tile) show a missing barrier's race. */
static int sanitize_tier(const dataset_t *d, int tile)
{
    const matrix_t *a = &d->inputs[0], *b = &d->inputs[1];
    int uneven = a->rows % tile || a->cols % tile || b->cols % tile;
    return !uneven ? 0 : a->cols > tile ? 2 : 1;
}

/* The lecture's ceiling: a tiled kernel moves 4 B per TILE_WIDTH FLOP
 * (said of a tiled kernel, which is true of any lab: for an untiled one,
 * lab 2, it is where tiling takes it). */
static void perf_bound(const lab_t *lab, const perf_result_t *r, const perf_shape_t *s,
                       const perf_impl_t *student, strbuf_t *out)
{
    (void)s, (void)student;
    int tile = lab->tile_width;
    if (r->bandwidth_gbs > 0)
        sb_appendf(out, "  bandwidth-bound ceiling of a kernel with %dx%d tiles in shared memory: "
                        "%.0f GFLOP/s (%.0f GB/s / 4 B x %d)\n",
                   tile, tile, r->bandwidth_gbs / 4.0 * tile, r->bandwidth_gbs, tile);
}

static int verify(const struct lab *lab, const dataset_ref_t *ref, const dataset_t *d, char *err, size_t errlen)
{
    (void)lab;
    return check_matmul(ref, d, err, errlen);
}

const lab_kind_t kind_matmul = {
    .name = "matmul",
    .inputs = 2,
    .check_shapes = check_shapes,
    .shape_text = shape_text,
    .flop = flop,
    .generate = generate,
    .timing_inputs = timing_inputs,
    .shape_work = shape_work,
    .timing_compare = timing_compare,
    .explain_grid = explain_grid,
    .cublas_baseline = 1,
    .verify = verify,
    .hidden_families = sizeof hidden_names / sizeof hidden_names[0],
    .hidden_family_names = hidden_names,
    .hidden_shape = hidden_shape,
    .compare = compare,
    .sanitize_tier = sanitize_tier,
    .vgpu_main = "labs/kinds/matmul/vgpu_main.cu",
    .vgpu_call = "in0,in1,out,rows0,cols0,cols1", /* A, B, C, M, K, N (launch.h orders them) */
    .vgpu_out_shape = "rows0,cols1",
    .input_names = "A,B",
    .output_name = "C",
    .rate_unit = "GFLOP/s",
    .reuse_example = "a tile of side T loads 4/T bytes per FLOP",
    .perf_bound = perf_bound,
};
