/* matmul_hypotheses.c - diagnosis by hypothesis (matmul_hypotheses.h): each classic wrong
 * program of the tiled matrix multiplication is a formula for the element
 * (i, j) it would write, computed from the inputs (in double precision) or
 * from the expected output. A hypothesis is tested on the written elements
 * in an order that rejects a wrong one fast (the first wrong elements, then a
 * coarse grid, then every element) and matches only if every element agrees
 * within the comparison's tolerance. Each match is a fact about the output
 * ("every element equals A·Bᵀ"); its hint (matmul_hints.c) adds the code
 * that gives it and the fix. A: M x K, B: K x N, C: M x N, row-major. */
#include "kinds/matmul_hypotheses.h"
#include "kinds/matmul_wrong.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matbin.h"
#include "util/util.h"

#define WORK_LIMIT (1L << 27) /* multiply-adds a full check may cost; above: a sample */
#define FIRST_WRONG 8         /* wrong elements tried first */
#define COARSE_SIDE 16        /* then a 16 x 16 grid of elements */
#define MAX_INSTANCES 512

/* Short: the whole list must fit hypothesis_result_t's ruled_out (and
 * compare.c's copy of it), 256 bytes with the "none of ..." before it. */
static const char *const family_names[] = {
    "A·Bᵀ and Aᵀ·B", "C stored transposed", "partial phase sums", "a sum reset or kept per phase",
    "a tile read transposed", "blockIdx.x/y swapped in the loads", "a wrong row stride",
    "rows/columns read as zeros", "a guard on the thread's index",
};

/* ---- element formulas ----------------------------------------------------------- */

static double a_at(const problem_t *p, int r, int c) /* A with zeros outside */
{
    return r < p->m && c < p->k ? p->a[(size_t)r * p->k + c] : 0.0;
}

static double b_at(const problem_t *p, int r, int c)
{
    return r < p->k && c < p->n ? p->b[(size_t)r * p->n + c] : 0.0;
}

static double b_transposed(const problem_t *p, const hypothesis_t *h, int i, int j)
{
    (void)h;
    double s = 0;
    for (int q = 0; q < p->k; q++)
        s += (double)p->a[(size_t)i * p->k + q] * p->b[(size_t)j * p->k + q];
    return s;
}

static double a_transposed(const problem_t *p, const hypothesis_t *h, int i, int j)
{
    (void)h;
    double s = 0;
    for (int q = 0; q < p->k; q++)
        s += (double)p->a[(size_t)q * p->m + i] * p->b[(size_t)q * p->n + j];
    return s;
}

static double both_transposed(const problem_t *p, const hypothesis_t *h, int i, int j)
{
    (void)h;
    double s = 0;
    for (int q = 0; q < p->k; q++)
        s += (double)p->a[(size_t)q * p->m + i] * p->b[(size_t)j * p->k + q];
    return s;
}

static double c_transposed(const problem_t *p, const hypothesis_t *h, int i, int j)
{
    (void)h; /* C[col * M + row] = (A·B)[row][col]: flat f holds row f % M, col f / M */
    size_t f = (size_t)i * p->n + j;
    return p->exp[(f % (size_t)p->m) * p->n + f / (size_t)p->m];
}

static double prefix_sum(const problem_t *p, const hypothesis_t *h, int i, int j)
{
    double s = 0;
    for (int q = 0; q < h->x; q++)
        s += (double)p->a[(size_t)i * p->k + q] * p->b[(size_t)q * p->n + j];
    return s;
}

static double suffix_sum(const problem_t *p, const hypothesis_t *h, int i, int j)
{
    double s = 0;
    for (int q = h->x; q < p->k; q++)
        s += (double)p->a[(size_t)i * p->k + q] * p->b[(size_t)q * p->n + j];
    return s;
}

/* The sum of the running totals after each phase: term q is counted once
 * for every phase from its own to the last. */
static double running_totals(const problem_t *p, const hypothesis_t *h, int i, int j)
{
    int phases = (p->k + h->tile - 1) / h->tile;
    double s = 0;
    for (int q = 0; q < p->k; q++)
        s += (double)(phases - q / h->tile) * p->a[(size_t)i * p->k + q] * p->b[(size_t)q * p->n + j];
    return s;
}

/* The tiled loop, with the A tile (x & 1) and/or the B tile (x & 2) read
 * transposed inside the tile: tileA[k][ty] for tileA[ty][k], tileB[tx][k]
 * for tileB[k][tx]; elements outside a matrix load as 0. */
static double tile_transposed(const problem_t *p, const hypothesis_t *h, int i, int j)
{
    int t = h->tile, phases = (p->k + t - 1) / t;
    int ty = i % t, tx = j % t, row0 = i - ty, col0 = j - tx;
    double s = 0;
    for (int ph = 0; ph < phases; ph++)
        for (int q = 0; q < t; q++) {
            double av = h->x & 1 ? a_at(p, row0 + q, ph * t + ty) : a_at(p, i, ph * t + q);
            double bv = h->x & 2 ? b_at(p, ph * t + tx, col0 + q) : b_at(p, ph * t + q, j);
            s += av * bv;
        }
    return s;
}

/* The tiled loop with its k loop guarded by the thread's index instead of
 * the loop's (if (ph*T + tx < K) around it: x 1; ty: x 2): a thread skips
 * every phase where its own index is past K, the loads giving zeros there.
 * Only the last phase differs, and only when K is not a multiple of T. */
static double inner_guard(const problem_t *p, const hypothesis_t *h, int i, int j)
{
    int t = h->tile, phases = (p->k + t - 1) / t, own = h->x == 1 ? j % t : i % t;
    double s = 0;
    for (int ph = 0; ph < phases && ph * t + own < p->k; ph++)
        for (int q = ph * t; q < ph * t + t && q < p->k; q++)
            s += (double)p->a[(size_t)i * p->k + q] * p->b[(size_t)q * p->n + j];
    return s;
}

/* Loads from the tile of block (blockIdx.y, blockIdx.x) swapped, the store
 * in place: element (i, j) gets (A·B)[r'][c'] with the tile coordinates
 * swapped, 0 where r' or c' is outside (the guarded loads give zeros). */
static double blocks_swapped(const problem_t *p, const hypothesis_t *h, int i, int j)
{
    int t = h->tile;
    int r = j / t * t + i % t, c = i / t * t + j % t;
    return r < p->m && c < p->n ? p->exp[(size_t)r * p->n + c] : 0.0;
}

static double a_stride_n(const problem_t *p, const hypothesis_t *h, int i, int j)
{
    (void)h;
    double s = 0;
    for (int q = 0; q < p->k; q++)
        s += (double)p->a[(size_t)i * p->n + q] * p->b[(size_t)q * p->n + j];
    return s;
}

static double b_stride_k(const problem_t *p, const hypothesis_t *h, int i, int j)
{
    (void)h;
    double s = 0;
    for (int q = 0; q < p->k; q++)
        s += (double)p->a[(size_t)i * p->k + q] * p->b[(size_t)q * p->k + j];
    return s;
}

static double zero_rows(const problem_t *p, const hypothesis_t *h, int i, int j)
{
    return i >= h->x ? 0.0 : p->exp[(size_t)i * p->n + j];
}

static double zero_cols(const problem_t *p, const hypothesis_t *h, int i, int j)
{
    return j >= h->x ? 0.0 : p->exp[(size_t)i * p->n + j];
}

/* Whether C's first x rows (rows) or columns (!rows) hold a nonzero: else "the rest left 0"
 * predicts every element 0, which all-zero says already (K = 1 and a zero in A's first
 * column: "nothing summed" and "the last rows left 0" cannot be told apart, and the second
 * would name a mistake the dataset does not show). */
static int keeps_a_nonzero(const problem_t *p, int rows, int x)
{
    for (int i = 0; i < (rows ? x : p->m); i++)
        for (int j = 0; j < (rows ? p->n : x); j++)
            if (p->exp[(size_t)i * p->n + j] != 0)
                return 1;
    return 0;
}

/* ---- the instances tried on one problem ----------------------------------------------- */

typedef struct {
    hypothesis_t h[MAX_INSTANCES];
    int n;
    int families; /* the families with at least one instance */
} instances_t;

static void add(instances_t *in, const char *id, int family, int tile, int x,
                double (*value)(const problem_t *, const hypothesis_t *, int, int),
                describe_fn *describe)
{
    for (int i = 0; i < in->n; i++) /* the same formula once (prefix cuts shared by tiles) */
        if (in->h[i].value == value && in->h[i].x == x &&
            (in->h[i].tile == tile || value == prefix_sum || value == suffix_sum)) {
            if (strcmp(in->h[i].id, id) != 0 && !in->h[i].also)
                in->h[i].also = id; /* another mistake that writes the same */
            return;
        }
    if (in->n < MAX_INSTANCES) {
        in->h[in->n++] = (hypothesis_t){id, family, tile, x, value, describe, NULL};
        in->families |= family;
    }
}

/* A prefix cut that a phase count rounded down gives, for some tile. */
static const char *prefix_id(const problem_t *p, int x, int lab_tile)
{
    const int tiles[] = {lab_tile, 8, 16, 32};
    for (size_t i = 0; i < sizeof tiles / sizeof tiles[0]; i++)
        if (tiles[i] > 0 && p->k % tiles[i] && x == p->k / tiles[i] * tiles[i])
            return "phases-intdiv";
    return "phases-partial";
}

/* The hypotheses of a kernel with tile t, but for its phase cuts; with
 * untiled (its kernels touched no shared memory) only those of its T x T
 * blocks, not of a tiled loop. */
static void add_tiled(instances_t *in, const problem_t *p, int t, int untiled)
{
    int phases = (p->k + t - 1) / t;
    if (phases >= 2 && !untiled) {
        add(in, "sum-reset-each-phase", FAM_RESET, t, (phases - 1) * t, suffix_sum, say_suffix);
        add(in, "phase-totals-kept", FAM_RESET, t, 0, running_totals, say_running_totals);
    }
    for (int x = 1; x <= 3 && !untiled; x++)
        add(in, x == 1 ? "tile-a-transposed" : x == 2 ? "tile-b-transposed" : "tiles-transposed",
            FAM_TILE, t, x, tile_transposed, say_tile_transposed);
    if (p->k % t && !untiled) /* else the guard always holds: the right product */
        for (int x = 1; x <= 2; x++)
            add(in, x == 1 ? "inner-guard-tx" : "inner-guard-ty", FAM_GUARD, t, x, inner_guard,
                say_inner_guard);
    if (p->m > t || p->n > t)
        add(in, "blocks-swapped", FAM_BLOCKS, t, 0, blocks_swapped, say_blocks_swapped);
    if (p->m % t && p->m > t && keeps_a_nonzero(p, 1, p->m / t * t))
        add(in, "zero-rows", FAM_ZEROS, t, p->m / t * t, zero_rows, say_zeros);
    if (p->n % t && p->n > t && keeps_a_nonzero(p, 0, p->n / t * t))
        add(in, "zero-cols", FAM_ZEROS, t, p->n / t * t, zero_cols, say_zeros);
}

/* The phase cuts of tile t, k = 0..ph*t-1: with last, only the cut of the
 * last phase (the phase count rounded down, or the loop one phase short);
 * else the others. */
static void add_cuts(instances_t *in, const problem_t *p, int t, int lab_tile, int last)
{
    int phases = (p->k + t - 1) / t;
    for (int ph = last ? phases - 1 : 1; ph >= 1 && ph < (last ? phases : phases - 1); ph++)
        add(in, prefix_id(p, ph * t, lab_tile), FAM_PHASES, t, ph * t, prefix_sum, say_prefix);
}

/* The instances, the one-of-a-kind first and the phase cuts last (a long K
 * has more cuts than MAX_INSTANCES holds: only the least likely cuts, the
 * middle ones of the smaller tiles, may be left out). */
static void list_instances(instances_t *in, const problem_t *p, int lab_tile, hypotheses_seen_t seen)
{
    in->n = in->families = 0;
    add(in, "all-zero", FAM_PHASES, 0, 0, prefix_sum, say_all_zero);
    add(in, "b-transposed", FAM_TRANSPOSED, 0, 0, b_transposed, say_b_transposed);
    add(in, "a-transposed", FAM_TRANSPOSED, 0, 0, a_transposed, say_a_transposed);
    add(in, "both-transposed", FAM_TRANSPOSED, 0, 0, both_transposed, say_both_transposed);
    if (p->m > 1 && p->n > 1)
        add(in, "c-transposed", FAM_C_TRANSPOSED, 0, 0, c_transposed, say_c_transposed);
    /* a wrong stride is only computable while every read stays inside the input */
    if ((long)(p->m - 1) * p->n + p->k - 1 < (long)p->m * p->k)
        add(in, "a-stride-n", FAM_STRIDE, 0, 0, a_stride_n, say_a_stride_n);
    if ((long)(p->k - 1) * p->k + p->n - 1 < (long)p->k * p->n)
        add(in, "b-stride-k", FAM_STRIDE, 0, 0, b_stride_k, say_b_stride_k);
    /* the lab's first; the launch's alone when the run showed it */
    const int tiles[] = {seen.launched_tile > 0 ? seen.launched_tile : lab_tile,
                         seen.launched_tile > 0 ? 0 : 8, seen.launched_tile > 0 ? 0 : 16,
                         seen.launched_tile > 0 ? 0 : 32};
    const size_t ntiles = sizeof tiles / sizeof tiles[0];
    for (size_t i = 0; i < ntiles; i++)
        if (tiles[i] > 0)
            add_tiled(in, p, tiles[i], seen.untiled);
    if (p->m < p->k && p->m > 0) /* loads guarded with the wrong dimension */
        add(in, prefix_id(p, p->m, lab_tile), FAM_PHASES, 0, p->m, prefix_sum, say_prefix);
    if (p->n < p->k && p->n > 0)
        add(in, prefix_id(p, p->n, lab_tile), FAM_PHASES, 0, p->n, prefix_sum, say_prefix);
    if (p->k >= 1 && seen.untiled) { /* an untiled k loop one short: from 1, or to K - 2 (a tiled
                                         * kernel's k runs inside a tile: its phases say it) */
        add(in, "k-off-by-one", FAM_PHASES, 1, 1, suffix_sum, say_k_off_by_one);
        add(in, "k-off-by-one", FAM_PHASES, 0, p->k - 1, prefix_sum, say_k_off_by_one);
    }
    if (p->k < p->m && keeps_a_nonzero(p, 1, p->k))
        add(in, "zero-rows", FAM_ZEROS, 0, p->k, zero_rows, say_zeros);
    if (p->k < p->n && keeps_a_nonzero(p, 0, p->k))
        add(in, "zero-cols", FAM_ZEROS, 0, p->k, zero_cols, say_zeros);
    for (int last = 1; last >= 0 && !seen.untiled; last--) /* no phases without a tile */
        for (size_t i = 0; i < ntiles; i++)
            if (tiles[i] > 0)
                add_cuts(in, p, tiles[i], lab_tile, last);
}

/* ---- testing a hypothesis ------------------------------------------------------------- */

/* The written elements in the order they are tried: the first wrong ones,
 * a coarse grid, then all of them (or, past WORK_LIMIT, an even sample). */
static long *visit_order(const problem_t *p, const float *got, tolerance_t tol, long *count,
                         int *sampled)
{
    long total = (long)p->m * p->n, step = 1;
    long work = total * (p->k > 0 ? p->k : 1);
    if (work > WORK_LIMIT)
        step = (work + WORK_LIMIT - 1) / WORK_LIMIT;
    *sampled = step > 1;
    long cap = FIRST_WRONG + COARSE_SIDE * COARSE_SIDE + total / step + 1, n = 0;
    long *order = malloc(sizeof *order * (size_t)cap);
    if (!order)
        return NULL;
    for (long f = 0; f < total && n < FIRST_WRONG; f++) {
        double e = p->exp[f], g = got[f];
        if (!matbin_is_poison(got[f]) && !(fabs(g - e) <= tol.atol + tol.rtol * fabs(e)))
            order[n++] = f;
    }
    for (int r = 0; r < COARSE_SIDE; r++)
        for (int c = 0; c < COARSE_SIDE; c++) {
            long f = (long)(r * p->m / COARSE_SIDE) * p->n + c * p->n / COARSE_SIDE;
            if (f < total && !matbin_is_poison(got[f]))
                order[n++] = f;
        }
    for (long f = 0; f < total; f += step)
        if (!matbin_is_poison(got[f]))
            order[n++] = f;
    *count = n;
    return order;
}

static int reproduces(const problem_t *p, const hypothesis_t *h, const float *got,
                      tolerance_t tol, const long *order, long n)
{
    for (long v = 0; v < n; v++) {
        long f = order[v];
        double want = h->value(p, h, (int)(f / p->n), (int)(f % p->n));
        if (!(fabs((double)got[f] - want) <= tol.atol + tol.rtol * fabs(want)))
            return 0;
    }
    return 1;
}

static void list_ruled_out(int families, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "none of the classic mistakes reproduces it (tried: ");
    int first = 1;
    for (int i = 0; i < FAM_COUNT; i++)
        if (families & (1 << i) && n < len) {
            n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? "" : ", ", family_names[i]);
            first = 0;
        }
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

/* The hint: one match is named, with its fix; several are not (none is
 * shown more than the others on this dataset: K = 1 makes a transposed B
 * tile and a guard on tx write the same), so the hint lists them in a few
 * words each and says that another dataset tells them apart. */
static void say_matches(hypothesis_result_t *r, char said[][sizeof r->hint])
{
    if (r->nmatched <= 1) {
        snprintf(r->hint, sizeof r->hint, "%.1023s", r->nmatched ? said[0] : "");
        return;
    }
    strbuf_t hint = {0};
    sb_appendf(&hint, "every element fits %d mistakes, which this dataset cannot tell apart: ",
               r->nmatched);
    for (int i = 0; i < r->nmatched; i++)
        sb_appendf(&hint, "%s(%d) %s", i ? ", " : "", i + 1, hypothesis_short(r->id[i]));
    sb_append(&hint, "; on a dataset where they differ one alone fits: see the other datasets' hints");
    snprintf(r->hint, sizeof r->hint, "%s", sb_str(&hint));
    sb_free(&hint);
}

int hypotheses_explain(const matrix_t *a, const matrix_t *b, const matrix_t *exp,
                       const matrix_t *got, tolerance_t tol, int tile_width,
                       hypothesis_result_t *r)
{
    return hypotheses_explain_seen(a, b, exp, got, tol, tile_width, (hypotheses_seen_t){0, 0}, r);
}

int hypotheses_explain_seen(const matrix_t *a, const matrix_t *b, const matrix_t *exp,
                            const matrix_t *got, tolerance_t tol, int tile_width,
                            hypotheses_seen_t seen, hypothesis_result_t *r)
{
    memset(r, 0, sizeof *r);
    problem_t p = {a->data, b->data, exp->data, a->rows, a->cols, b->cols};
    if (a->cols != b->rows || exp->rows != a->rows || exp->cols != b->cols ||
        got->rows != exp->rows || got->cols != exp->cols || p.m <= 0 || p.n <= 0 || p.k <= 0)
        return 0;
    static _Thread_local instances_t in;
    list_instances(&in, &p, tile_width, seen);
    r->ntried = in.n;
    list_ruled_out(in.families, r->ruled_out, sizeof r->ruled_out);
    long n = 0;
    long *order = visit_order(&p, got->data, tol, &n, &r->sampled);
    if (!order || n == 0) {
        free(order);
        return 0;
    }
    r->checked = n;
    char said[HYPOTHESIS_MAX_MATCHES][sizeof r->hint];
    for (int i = 0; i < in.n && r->nmatched < HYPOTHESIS_MAX_MATCHES; i++) {
        int again = 0; /* the same mistake with another tile: said once, with the first tile */
        for (int m = 0; m < r->nmatched; m++)
            again |= strcmp(r->id[m], in.h[i].id) == 0;
        if (again || !reproduces(&p, &in.h[i], got->data, tol, order, n))
            continue;
        snprintf(r->id[r->nmatched], sizeof r->id[0], "%s", in.h[i].id);
        in.h[i].describe(&p, &in.h[i], seen.untiled ? 0 : tile_width, said[r->nmatched], sizeof said[0]);
        r->nmatched++;
        if (in.h[i].also && r->nmatched < HYPOTHESIS_MAX_MATCHES)
            snprintf(r->id[r->nmatched++], sizeof r->id[0], "%s", in.h[i].also);
    }
    say_matches(r, said);
    free(order);
    return r->nmatched;
}

static void explain_matmul(const void *inputs, const matrix_t *exp, const matrix_t *got,
                           tolerance_t tol, int tile_width, hypothesis_result_t *h)
{
    const matmul_inputs_t *in = inputs;
    hypotheses_explain_seen(in->a, in->b, exp, got, tol, tile_width, in->seen, h);
}

static double max_magnitude(const matrix_t *m)
{
    return compare_largest(m->data, (size_t)m->rows * m->cols);
}

/* K max|A| max|B|: no element of A times B, however a kernel pairs them,
 * is larger. */
static double product_bound(const void *inputs)
{
    const matmul_inputs_t *in = inputs;
    return (double)in->a->cols * max_magnitude(in->a) * max_magnitude(in->b);
}

compare_explainer_t matmul_explainer(const matmul_inputs_t *in)
{
    return (compare_explainer_t){.explain = explain_matmul, .bound = product_bound, .inputs = in};
}
