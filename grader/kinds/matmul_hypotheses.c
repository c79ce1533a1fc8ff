/* matmul_hypotheses.c - diagnosis by hypothesis (matmul_hypotheses.h): each classic wrong
 * program of the tiled matrix multiplication is a formula for the element
 * (i, j) it would write, computed from the inputs (in double precision) or
 * from the expected output. A hypothesis is tested on the written elements
 * in an order that rejects a wrong one fast (the first wrong elements, then a
 * coarse grid, then every element) and matches only if every element agrees
 * within the comparison's tolerance. Each match is a fact about the output
 * ("every element equals A·Bᵀ"); its hint adds the code that gives it and
 * the fix. A: M x K, B: K x N, C: M x N, row-major. */
#include "kinds/matmul_hypotheses.h"

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

typedef struct {
    const float *a, *b, *exp;
    int m, k, n;
} problem_t;

typedef struct hypothesis hypothesis_t;

/* The families, for the "ruled out" list. */
enum {
    FAM_TRANSPOSED = 1 << 0,
    FAM_C_TRANSPOSED = 1 << 1,
    FAM_PHASES = 1 << 2,
    FAM_RESET = 1 << 3,
    FAM_TILE = 1 << 4,
    FAM_BLOCKS = 1 << 5,
    FAM_STRIDE = 1 << 6,
    FAM_ZEROS = 1 << 7,
};

/* Short: the whole list must fit hypothesis_result_t's ruled_out (and
 * compare.c's copy of it), 256 bytes with the "none of ..." before it. */
static const char *const family_names[] = {
    "A·Bᵀ and Aᵀ·B", "C stored transposed", "partial phase sums", "a sum reset or kept per phase",
    "a tile read transposed", "blockIdx.x/y swapped in the loads", "a wrong row stride",
    "rows/columns read as zeros",
};

struct hypothesis {
    const char *id;
    int family;
    int tile; /* T, for the tile-based ones */
    int x;    /* a cut: the prefix length, the first zero row, ... */
    double (*value)(const problem_t *p, const hypothesis_t *h, int i, int j);
    void (*describe)(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                     size_t len);
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

/* ---- hints ------------------------------------------------------------------------- */

/* " (TILE_WIDTH = 32)" when the tile is not the lab's. */
static const char *tile_note(int tile, int lab_tile, char *buf, size_t len)
{
    if (tile == lab_tile)
        return "";
    snprintf(buf, len, " (with TILE_WIDTH = %d)", tile);
    return buf;
}

static void say_b_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                             size_t len)
{
    (void)p, (void)h, (void)lab_tile;
    snprintf(buf, len, "every element equals A·Bᵀ: B is read as B[col*numBRows + k], as if it were "
                       "stored transposed; row-major B is B[k*numBColumns + col]");
}

static void say_a_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                             size_t len)
{
    (void)p, (void)h, (void)lab_tile;
    snprintf(buf, len, "every element equals Aᵀ·B: A is read as A[k*numARows + row], as if it were "
                       "stored transposed; row-major A is A[row*numAColumns + k]");
}

static void say_both_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                                size_t len)
{
    (void)p, (void)h, (void)lab_tile;
    snprintf(buf, len, "every element equals Aᵀ·Bᵀ: A is read as A[k*numARows + row] and B as "
                       "B[col*numBRows + k]; row-major they are A[row*numAColumns + k] and "
                       "B[k*numBColumns + col]");
}

static void say_c_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                             size_t len)
{
    (void)p, (void)h, (void)lab_tile;
    snprintf(buf, len, "every element is computed right but stored in the wrong place: C is written "
                       "as C[col*numCRows + row] (transposed); row-major C is C[row*numCColumns + col]");
}

/* "k = 7" or "k = 7..9". */
static const char *k_range(int first, int last, char *buf, size_t len)
{
    if (first == last)
        snprintf(buf, len, "k = %d", first);
    else
        snprintf(buf, len, "k = %d..%d", first, last);
    return buf;
}

/* The phase-loop cause that sums exactly k = 0..x-1 with tile t, or "":
 * with specific, a classic loop bound (the phase count rounded down, the
 * loop one phase short); else only how many phases are summed. */
static void phase_cause(const problem_t *p, int x, int t, int lab_tile, int specific, char *buf,
                        size_t len)
{
    char note[48], ks[48];
    const char *tn = tile_note(t, lab_tile, note, sizeof note);
    buf[0] = '\0';
    if (specific) {
        if (p->k % t != 0 && x == p->k / t * t)
            snprintf(buf, len, "the last, partial phase (%s) never runs: the phase count "
                               "K / TILE_WIDTH rounds down%s; use (K + TILE_WIDTH - 1) / TILE_WIDTH",
                     k_range(x, p->k - 1, ks, sizeof ks), tn);
        else if (p->k % t == 0 && x == p->k - t)
            snprintf(buf, len, "the last phase never runs: the phase loop stops one phase early%s",
                     tn);
    } else if (x == t)
        snprintf(buf, len, "only the first phase is summed%s", tn);
    else if (x % t == 0)
        snprintf(buf, len, "only the first %d phases are summed%s", x / t, tn);
}

/* The causes that sum exactly k = 0..x-1, joined by "; or ": the phase
 * loop's (a classic loop bound with any tile, the lab's tile first, before
 * a bare count of phases: a cut that is "the first 4 phases" of 16 is also
 * K = 89 rounded down with TILE_WIDTH 32) and loads guarded with the wrong
 * dimension. */
static void prefix_causes(const problem_t *p, int x, int lab_tile, char *buf, size_t len)
{
    const int tiles[] = {lab_tile, 8, 16, 32};
    strbuf_t sb = {0};
    char one[300] = "";
    for (int specific = 1; specific >= 0 && !one[0]; specific--)
        for (size_t i = 0; i < sizeof tiles / sizeof tiles[0] && !one[0]; i++)
            if (tiles[i] > 0)
                phase_cause(p, x, tiles[i], lab_tile, specific, one, sizeof one);
    sb_append(&sb, one);
    if (x == p->m)
        sb_appendf(&sb, "%sthe loads treat k >= numARows (%d) as outside the matrix: compare the "
                        "column of A and the row of B with numAColumns, not numARows",
                   sb.len ? "; or " : "", p->m);
    if (x == p->n)
        sb_appendf(&sb, "%sthe loads treat k >= numBColumns (%d) as outside the matrix: compare "
                        "the column of A and the row of B with numAColumns, not numBColumns",
                   sb.len ? "; or " : "", p->n);
    snprintf(buf, len, "%s", sb_str(&sb));
    sb_free(&sb);
}

static void say_prefix(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                       size_t len)
{
    char causes[700]; /* up to three causes: the phase loop and both guards */
    prefix_causes(p, h->x, lab_tile, causes, sizeof causes);
    char ks[48];
    snprintf(buf, len, "every element equals the sum over %s only, not over all K = %d: %s",
             k_range(0, h->x - 1, ks, sizeof ks), p->k,
             causes[0] ? causes : "the later products are left out");
}

static void say_all_zero(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                         size_t len)
{
    (void)h;
    if (lab_tile > 0 && p->k < lab_tile)
        snprintf(buf, len, "every element is 0, as if no product were summed: if the phase count "
                           "is K / TILE_WIDTH, it is 0 here (K = %d < %d); use (K + TILE_WIDTH - 1) "
                           "/ TILE_WIDTH", p->k, lab_tile);
    else
        snprintf(buf, len, "every element is 0, as if no product were summed: does the phase loop "
                           "run, and does the sum reach C?");
}

static void say_suffix(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                       size_t len)
{
    char note[48], ks[48];
    snprintf(buf, len, "every element equals the sum over the last phase only (%s)%s: the "
                       "sum is reset to 0 inside the phase loop; set it to 0 once, before the loop",
             k_range(h->x, p->k - 1, ks, sizeof ks), tile_note(h->tile, lab_tile, note, sizeof note));
}

static void say_running_totals(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                               size_t len)
{
    (void)p;
    char note[48];
    snprintf(buf, len, "every element equals the running sum after phase 1, plus the one after "
                       "phase 2, and so on%s: a phase's partial sum is added to the total but not "
                       "reset to 0 before the next phase; reset it, or accumulate in one sum",
             tile_note(h->tile, lab_tile, note, sizeof note));
}

static void say_tile_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                                size_t len)
{
    (void)p;
    char note[48];
    const char *which = h->x == 1 ? "the A tile is" : h->x == 2 ? "the B tile is" : "both tiles are";
    const char *fix = h->x == 1   ? "tileA[ty][k]"
                      : h->x == 2 ? "tileB[k][tx]"
                                  : "tileA[ty][k] * tileB[k][tx]";
    snprintf(buf, len, "every element equals what the tiled loop gives when %s read transposed "
                       "inside the tile%s (tileA[k][ty] for tileA[ty][k], tileB[tx][k] for "
                       "tileB[k][tx], or a tile stored as tile[tx][ty]): store tile[ty][tx] and "
                       "read %s",
             which, tile_note(h->tile, lab_tile, note, sizeof note), fix);
}

static void say_blocks_swapped(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                               size_t len)
{
    (void)p;
    char note[48];
    snprintf(buf, len, "every element holds the result of another block's tile: the tile loads use "
                       "blockIdx.x for the row and blockIdx.y for the column%s; use row = "
                       "blockIdx.y*TILE_WIDTH + threadIdx.y and col = blockIdx.x*TILE_WIDTH + "
                       "threadIdx.x in the loads as in the store",
             tile_note(h->tile, lab_tile, note, sizeof note));
}

static void say_a_stride_n(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                           size_t len)
{
    (void)p, (void)h, (void)lab_tile;
    snprintf(buf, len, "every element equals the product with A read as A[row*numBColumns + k] (a "
                       "row stride of N): row-major A is A[row*numAColumns + k]");
}

static void say_b_stride_k(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                           size_t len)
{
    (void)p, (void)h, (void)lab_tile;
    snprintf(buf, len, "every element equals the product with B read as B[k*numAColumns + col] (a "
                       "row stride of K): row-major B is B[k*numBColumns + col]");
}

static void say_zeros(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                      size_t len)
{
    int rows = h->value == zero_rows;
    int last = rows ? p->m - 1 : p->n - 1, t = h->tile;
    char note[48], what[200];
    if (t > 0 && h->x == (last + 1) / t * t)
        snprintf(what, sizeof what, "the last partial tile%s is read as zeros: check the guards "
                                    "of the loads (%s)",
                 tile_note(t, lab_tile, note, sizeof note),
                 rows ? "row < numARows for A" : "col < numBColumns for B");
    else
        snprintf(what, sizeof what, "the loads treat %s >= %d as outside the matrix: compare %s",
                 rows ? "rows" : "columns", h->x,
                 rows ? "the row of A with numARows" : "the column of B with numBColumns");
    snprintf(buf, len, "every element is right but %s %d..%d, which are 0: %s",
             rows ? "rows" : "columns", h->x, last, what);
}

/* ---- the instances tried on one problem ----------------------------------------------- */

typedef struct {
    hypothesis_t h[MAX_INSTANCES];
    int n;
    int families; /* the families with at least one instance */
} instances_t;

static void add(instances_t *in, const char *id, int family, int tile, int x,
                double (*value)(const problem_t *, const hypothesis_t *, int, int),
                void (*describe)(const problem_t *, const hypothesis_t *, int, char *, size_t))
{
    for (int i = 0; i < in->n; i++) /* the same formula once (prefix cuts shared by tiles) */
        if (in->h[i].value == value && in->h[i].x == x &&
            (in->h[i].tile == tile || value == prefix_sum || value == suffix_sum))
            return;
    if (in->n < MAX_INSTANCES) {
        in->h[in->n++] = (hypothesis_t){id, family, tile, x, value, describe};
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

/* The hypotheses of a kernel with tile t, but for its phase cuts. */
static void add_tiled(instances_t *in, const problem_t *p, int t)
{
    int phases = (p->k + t - 1) / t;
    if (phases >= 2) {
        add(in, "sum-reset-each-phase", FAM_RESET, t, (phases - 1) * t, suffix_sum, say_suffix);
        add(in, "phase-totals-kept", FAM_RESET, t, 0, running_totals, say_running_totals);
    }
    for (int x = 1; x <= 3; x++)
        add(in, x == 1 ? "tile-a-transposed" : x == 2 ? "tile-b-transposed" : "tiles-transposed",
            FAM_TILE, t, x, tile_transposed, say_tile_transposed);
    if (p->m > t || p->n > t)
        add(in, "blocks-swapped", FAM_BLOCKS, t, 0, blocks_swapped, say_blocks_swapped);
    if (p->m % t && p->m > t)
        add(in, "zero-rows", FAM_ZEROS, t, p->m / t * t, zero_rows, say_zeros);
    if (p->n % t && p->n > t)
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
static void list_instances(instances_t *in, const problem_t *p, int lab_tile)
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
    const int tiles[] = {lab_tile, 8, 16, 32}; /* the lab's first */
    const size_t ntiles = sizeof tiles / sizeof tiles[0];
    for (size_t i = 0; i < ntiles; i++)
        if (tiles[i] > 0)
            add_tiled(in, p, tiles[i]);
    if (p->m < p->k && p->m > 0) /* loads guarded with the wrong dimension */
        add(in, prefix_id(p, p->m, lab_tile), FAM_PHASES, 0, p->m, prefix_sum, say_prefix);
    if (p->n < p->k && p->n > 0)
        add(in, prefix_id(p, p->n, lab_tile), FAM_PHASES, 0, p->n, prefix_sum, say_prefix);
    if (p->k < p->m)
        add(in, "zero-rows", FAM_ZEROS, 0, p->k, zero_rows, say_zeros);
    if (p->k < p->n)
        add(in, "zero-cols", FAM_ZEROS, 0, p->k, zero_cols, say_zeros);
    for (int last = 1; last >= 0; last--)
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
    for (int i = 0; i < 8; i++)
        if (families & (1 << i) && n < len) {
            n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? "" : ", ", family_names[i]);
            first = 0;
        }
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

int hypotheses_explain(const matrix_t *a, const matrix_t *b, const matrix_t *exp,
                       const matrix_t *got, tolerance_t tol, int tile_width,
                       hypothesis_result_t *r)
{
    memset(r, 0, sizeof *r);
    problem_t p = {a->data, b->data, exp->data, a->rows, a->cols, b->cols};
    if (a->cols != b->rows || exp->rows != a->rows || exp->cols != b->cols ||
        got->rows != exp->rows || got->cols != exp->cols || p.m <= 0 || p.n <= 0 || p.k <= 0)
        return 0;
    static _Thread_local instances_t in;
    list_instances(&in, &p, tile_width);
    r->ntried = in.n;
    list_ruled_out(in.families, r->ruled_out, sizeof r->ruled_out);
    long n = 0;
    long *order = visit_order(&p, got->data, tol, &n, &r->sampled);
    if (!order || n == 0) {
        free(order);
        return 0;
    }
    r->checked = n;
    strbuf_t hint = {0};
    for (int i = 0; i < in.n && r->nmatched < HYPOTHESIS_MAX_MATCHES; i++) {
        if (!reproduces(&p, &in.h[i], got->data, tol, order, n))
            continue;
        snprintf(r->id[r->nmatched], sizeof r->id[0], "%s", in.h[i].id);
        char one[sizeof r->hint];
        in.h[i].describe(&p, &in.h[i], tile_width, one, sizeof one);
        sb_appendf(&hint, "%s%s", r->nmatched ? "; the output also fits this: " : "", one);
        r->nmatched++;
    }
    snprintf(r->hint, sizeof r->hint, "%s", sb_str(&hint));
    sb_free(&hint);
    free(order);
    return r->nmatched;
}

static void explain_matmul(const void *inputs, const matrix_t *exp, const matrix_t *got,
                           tolerance_t tol, int tile_width, hypothesis_result_t *h)
{
    const matmul_inputs_t *in = inputs;
    hypotheses_explain(in->a, in->b, exp, got, tol, tile_width, h);
}

compare_explainer_t matmul_explainer(const matmul_inputs_t *in)
{
    return (compare_explainer_t){.explain = explain_matmul, .inputs = in};
}
