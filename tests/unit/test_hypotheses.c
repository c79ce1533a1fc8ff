/* test_hypotheses.c - diagnosis by hypothesis (hypotheses.h) against an
 * independent model of the buggy kernels.
 *
 * The student outputs here do not come from hypotheses.c's formulas: they
 * come from a small float simulation of the tiled kernel of lab 3 (blocks
 * (by, bx), threads (ty, tx), phases; a shared tileA/tileB per block filled
 * by guarded loads that store 0 outside; the barriers are implicit since all
 * threads of a block load, then all compute), with one bug switched on at a
 * time, written as the submissions in tests/submissions/lab3/ write it. The
 * expected output is the product in double rounded to float, and the
 * inputs are like the course datasets (tenths in 0.0..4.0, or -4.0..4.0,
 * from a fixed-seed PRNG). Each bug must be named, with its fix; and when
 * no classic mistake made the output, no hypothesis may claim it. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "kinds/matmul_hypotheses.h"
#include "matbin.h"

static const tolerance_t lab_tol = {1e-4, 1e-3}; /* labs/lab3/lab.json */
#define LAB_TILE 16
#define MAX_TILE 32

/* ---- the problem: A (M x K), B (K x N), the right C --------------------------------------- */

typedef struct {
    int m, k, n;
    matrix_t a, b, exp;
} mm_t;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static matrix_t new_matrix(int rows, int cols)
{
    matrix_t m = {rows, cols, malloc(sizeof(float) * ((size_t)rows * cols + 1))};
    cr_assert_not_null(m.data);
    return m;
}

/* Tenths: 0.0..4.0, or -4.0..4.0 when sign. */
static void fill_tenths(matrix_t *x, uint64_t *seed, int sign)
{
    for (size_t i = 0; i < (size_t)x->rows * x->cols; i++) {
        int t = sign ? (int)(splitmix(seed) % 81) - 40 : (int)(splitmix(seed) % 41);
        x->data[i] = (float)t / 10.0f;
    }
}

static mm_t problem(int m, int k, int n, int sign)
{
    mm_t p = {m, k, n, new_matrix(m, k), new_matrix(k, n), new_matrix(m, n)};
    uint64_t seed = 0x5EED0000u + (uint64_t)m * 1000003u + (uint64_t)k * 1009u + (uint64_t)n +
                    (uint64_t)sign * 7;
    fill_tenths(&p.a, &seed, sign);
    fill_tenths(&p.b, &seed, sign);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int q = 0; q < k; q++)
                s += (double)p.a.data[(size_t)i * k + q] * p.b.data[(size_t)q * n + j];
            p.exp.data[(size_t)i * n + j] = (float)s;
        }
    return p;
}

static void free_problem(mm_t *p)
{
    free(p->a.data);
    free(p->b.data);
    free(p->exp.data);
}

static float poison(void)
{
    uint32_t bits = POISON_BITS;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static matrix_t copy_of(const matrix_t *m)
{
    matrix_t c = new_matrix(m->rows, m->cols);
    memcpy(c.data, m->data, sizeof(float) * (size_t)m->rows * m->cols);
    return c;
}

/* ---- the model of the tiled kernel, with one bug at a time ---------------------------------- */

typedef struct {
    int b_transposed;      /* B[col*numBRows + bRow] (transposed_b.cu) */
    int a_transposed;      /* A[aCol*numARows + row] (transposed_a.cu) */
    int c_transposed;      /* C[col*numCRows + row] = sum (store_transposed.cu) */
    int intdiv;            /* numPhases = numAColumns / TILE_WIDTH (intdiv_phases.cu) */
    int one_phase_short;   /* for (phase = 0; phase < numPhases - 1; ...) */
    int reset_each_phase;  /* sum = 0 at the start of every phase (sum_reset_each_phase.cu) */
    int totals_kept;       /* total += sum every phase, sum never reset (phase_totals_kept.cu) */
    int tile_a_transposed; /* tileA[k][ty] in the dot product */
    int tile_b_transposed; /* tileB[tx][k] in the dot product (tile_b_transposed.cu) */
    int blocks_swapped;    /* loads: row from blockIdx.x, col from blockIdx.y (blocks_swapped.cu) */
    int b_stride_k;        /* B[bRow*numAColumns + col] */
    int a_stride_n;        /* A[row*numBColumns + aCol] */
    int a_rows_guard_k;    /* the A load guarded with row < numAColumns */
    int b_cols_guard_k;    /* the B load guarded with col < numAColumns */
    int k_guard_m;         /* the A load guarded with aCol < numARows */
    int k_guard_n;         /* the A load guarded with aCol < numBColumns */
} bugs_t;

/* A read by the model: a bug may only be simulated where it stays inside the input. */
static float load(const matrix_t *x, long index, const char *what)
{
    cr_assert(index >= 0 && index < (long)x->rows * x->cols,
              "the model reads %s[%ld] outside its %dx%d elements: this bug cannot be simulated on "
              "this shape",
              what, index, x->rows, x->cols);
    return x->data[index];
}

/* What the kernel, launched on a ceil(N/T) x ceil(M/T) grid of T x T blocks
 * over a C the harness filled with poison, leaves in C. */
static matrix_t run_kernel(const mm_t *p, int t, bugs_t bug)
{
    cr_assert(t > 0 && t <= MAX_TILE);
    const int M = p->m, K = p->k, N = p->n;
    matrix_t c = new_matrix(M, N);
    for (size_t i = 0; i < (size_t)M * N; i++)
        c.data[i] = poison();
    const int grid_y = (M + t - 1) / t, grid_x = (N + t - 1) / t;
    const int phases = (bug.intdiv ? K / t : (K + t - 1) / t) - bug.one_phase_short;
    static float tile_a[MAX_TILE][MAX_TILE], tile_b[MAX_TILE][MAX_TILE];
    static float sum[MAX_TILE][MAX_TILE], total[MAX_TILE][MAX_TILE];
    for (int by = 0; by < grid_y; by++)
        for (int bx = 0; bx < grid_x; bx++) {
            memset(sum, 0, sizeof sum);
            memset(total, 0, sizeof total);
            for (int ph = 0; ph < phases; ph++) {
                for (int ty = 0; ty < t; ty++) /* every thread loads; __syncthreads() */
                    for (int tx = 0; tx < t; tx++) {
                        int row = by * t + ty, col = bx * t + tx;
                        int load_row = bug.blocks_swapped ? bx * t + ty : row;
                        int load_col = bug.blocks_swapped ? by * t + tx : col;
                        int a_col = ph * t + tx, b_row = ph * t + ty;
                        int a_rows = bug.a_rows_guard_k ? K : M;
                        int a_cols = bug.k_guard_m ? M : bug.k_guard_n ? N : K;
                        int b_cols = bug.b_cols_guard_k ? K : N;
                        long ai = bug.a_transposed ? (long)a_col * M + load_row
                                                   : (long)load_row * (bug.a_stride_n ? N : K) + a_col;
                        long bi = bug.b_transposed ? (long)load_col * K + b_row
                                                   : (long)b_row * (bug.b_stride_k ? K : N) + load_col;
                        tile_a[ty][tx] =
                            load_row < a_rows && a_col < a_cols ? load(&p->a, ai, "A") : 0.0f;
                        tile_b[ty][tx] =
                            b_row < K && load_col < b_cols ? load(&p->b, bi, "B") : 0.0f;
                    }
                for (int ty = 0; ty < t; ty++) /* every thread computes; __syncthreads() */
                    for (int tx = 0; tx < t; tx++) {
                        float s = bug.reset_each_phase ? 0.0f : sum[ty][tx];
                        for (int q = 0; q < t; q++) {
                            float av = bug.tile_a_transposed ? tile_a[q][ty] : tile_a[ty][q];
                            float bv = bug.tile_b_transposed ? tile_b[tx][q] : tile_b[q][tx];
                            s += av * bv;
                        }
                        sum[ty][tx] = s;
                        if (bug.totals_kept)
                            total[ty][tx] += s;
                    }
            }
            for (int ty = 0; ty < t; ty++)
                for (int tx = 0; tx < t; tx++) {
                    int row = by * t + ty, col = bx * t + tx;
                    if (row < M && col < N)
                        c.data[bug.c_transposed ? (size_t)col * M + row : (size_t)row * N + col] =
                            bug.totals_kept ? total[ty][tx] : sum[ty][tx];
                }
        }
    return c;
}

/* ---- helpers ------------------------------------------------------------------------------- */

static int explain(const mm_t *p, const matrix_t *got, hypothesis_result_t *r)
{
    return hypotheses_explain(&p->a, &p->b, &p->exp, got, lab_tol, LAB_TILE, r);
}

static compare_result_t compare_with_inputs(const mm_t *p, const matrix_t *got)
{
    compare_result_t cr;
    compare_explainer_t ex = matmul_explainer(&(matmul_inputs_t){&p->a, &p->b});
    compare_matrices(&p->exp, got, lab_tol, LAB_TILE, &ex, &cr);
    return cr;
}

/* The model with bug on M x K x N (tile t) must give a wrong output that
 * hypothesis id explains first, with every phrase in the hint; compare
 * must say the same. */
static void expect_diagnosis(int m, int k, int n, int sign, int t, bugs_t bug, const char *id,
                             const char *const *phrases)
{
    mm_t p = problem(m, k, n, sign);
    matrix_t got = run_kernel(&p, t, bug);
    hypothesis_result_t r;
    int matched = explain(&p, &got, &r);
    cr_assert_eq(matched, r.nmatched);
    cr_assert_geq(r.nmatched, 1, "%dx%dx%d (T = %d): nothing matched, want %s; %s", m, k, n, t, id,
                  r.ruled_out);
    cr_assert_str_eq(r.id[0], id, "%dx%dx%d (T = %d): matched %s, want %s; hint: %s", m, k, n, t,
                     r.id[0], id, r.hint);
    for (int i = 0; phrases[i]; i++)
        cr_assert_not_null(strstr(r.hint, phrases[i]), "%dx%dx%d (T = %d): '%s' missing from: %s",
                           m, k, n, t, phrases[i], r.hint);
    cr_assert_eq(r.sampled, 0);
    cr_assert_gt(r.checked, 0);

    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert_not(cr.passed);
    cr_assert_eq(cr.hint, HINT_HYPOTHESIS, "%dx%dx%d: compare's hint %d: %s", m, k, n, cr.hint,
                 cr.hint_text);
    cr_assert_str_eq(cr.hypothesis, id);
    cr_assert_str_eq(cr.hint_text, r.hint, "no poison, no sample: the hint is the hypothesis's");
    free(got.data);
    free_problem(&p);
}

/* The bug makes no difference on this shape: the output passes. */
static void expect_invisible(int m, int k, int n, int t, bugs_t bug)
{
    mm_t p = problem(m, k, n, 0);
    matrix_t got = run_kernel(&p, t, bug);
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert(cr.passed, "%dx%dx%d: %s", m, k, n, cr.hint_text);
    free(got.data);
    free_problem(&p);
}

#define PHRASES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* ---- the model itself ------------------------------------------------------------------------ */

Test(model, without_a_bug_computes_the_product)
{
    const int shapes[][3] = {{100, 128, 64}, {97, 89, 101}, {40, 7, 33}, {1, 200, 1}, {16, 16, 16}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (int t = 8; t <= 32; t *= 2) {
            mm_t p = problem(shapes[s][0], shapes[s][1], shapes[s][2], (int)s & 1);
            matrix_t got = run_kernel(&p, t, (bugs_t){0});
            compare_result_t cr = compare_with_inputs(&p, &got);
            cr_assert(cr.passed, "shape %zu, T = %d: %s", s, t, cr.hint_text);
            free(got.data);
            free_problem(&p);
        }
}

/* ---- each mistake, named with its fix ------------------------------------------------------- */

Test(hypothesis, b_transposed)
{
    const int shapes[][4] = {{100, 128, 64, 0}, {256, 300, 256, 0}, {97, 89, 101, 0},
                             {40, 7, 33, 0},    {97, 89, 101, 1},   {64, 64, 64, 1}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.b_transposed = 1}, "b-transposed",
                         PHRASES("every element equals A·Bᵀ", "B[col*numBRows + k]",
                                 "B[k*numBColumns + col]"));
}

Test(hypothesis, b_transposed_is_invisible_when_b_is_a_vector)
{
    expect_invisible(1, 200, 1, 16, (bugs_t){.b_transposed = 1});
    expect_invisible(64, 1, 48, 16, (bugs_t){.b_transposed = 1});
}

Test(hypothesis, a_transposed)
{
    const int shapes[][4] = {{100, 128, 64, 0}, {256, 300, 256, 0}, {97, 89, 101, 1}, {40, 7, 33, 0}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.a_transposed = 1}, "a-transposed",
                         PHRASES("every element equals Aᵀ·B", "A[k*numARows + row]",
                                 "A[row*numAColumns + k]"));
}

Test(hypothesis, both_transposed)
{
    const int shapes[][4] = {{100, 128, 64, 0}, {97, 89, 101, 0}, {40, 7, 33, 1}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.a_transposed = 1, .b_transposed = 1}, "both-transposed",
                         PHRASES("every element equals Aᵀ·Bᵀ", "A[row*numAColumns + k]",
                                 "B[k*numBColumns + col]"));
}

Test(hypothesis, c_transposed)
{
    const int shapes[][4] = {{100, 128, 64, 0}, {97, 89, 101, 0}, {64, 64, 64, 1}, {40, 7, 33, 0},
                             {2, 1000, 3, 0}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.c_transposed = 1}, "c-transposed",
                         PHRASES("computed right but stored in the wrong place",
                                 "C[col*numCRows + row]", "C[row*numCColumns + col]"));
    expect_invisible(1, 200, 1, 16, (bugs_t){.c_transposed = 1});
}

Test(hypothesis, phases_intdiv_k_uneven)
{
    expect_diagnosis(256, 300, 256, 0, 16, (bugs_t){.intdiv = 1}, "phases-intdiv",
                     PHRASES("every element equals the sum over k = 0..287 only, not over all K = 300",
                             "the last, partial phase (k = 288..299) never runs",
                             "K / TILE_WIDTH rounds down", "(K + TILE_WIDTH - 1) / TILE_WIDTH"));
    expect_diagnosis(97, 89, 101, 1, 16, (bugs_t){.intdiv = 1}, "phases-intdiv",
                     PHRASES("k = 0..79 only", "(k = 80..88) never runs", "rounds down"));
    expect_diagnosis(1, 200, 1, 0, 16, (bugs_t){.intdiv = 1}, "phases-intdiv",
                     PHRASES("k = 0..191 only", "rounds down"));
    expect_diagnosis(129, 257, 65, 0, 16, (bugs_t){.intdiv = 1}, "phases-intdiv",
                     PHRASES("k = 0..255 only", "(k = 256) never runs"));
}

Test(hypothesis, phases_intdiv_with_k_below_the_tile_sums_nothing)
{
    expect_diagnosis(40, 7, 33, 0, 16, (bugs_t){.intdiv = 1}, "all-zero",
                     PHRASES("every element is 0", "K = 7 < 16",
                             "(K + TILE_WIDTH - 1) / TILE_WIDTH"));
}

Test(hypothesis, phases_intdiv_is_invisible_when_k_is_a_multiple_of_the_tile)
{
    expect_invisible(64, 64, 64, 16, (bugs_t){.intdiv = 1});
    expect_invisible(100, 128, 64, 16, (bugs_t){.intdiv = 1});
}

Test(hypothesis, phase_loop_one_phase_short)
{
    expect_diagnosis(64, 64, 64, 0, 16, (bugs_t){.one_phase_short = 1}, "phases-partial",
                     PHRASES("every element equals the sum over k = 0..47 only, not over all K = 64",
                             "the last phase never runs: the phase loop stops one phase early"));
    /* K uneven: the last, partial phase is the one left out */
    expect_diagnosis(97, 89, 101, 0, 16, (bugs_t){.one_phase_short = 1}, "phases-intdiv",
                     PHRASES("k = 0..79 only", "(k = 80..88) never runs"));
    /* TILE_WIDTH 32: k = 0..31, also "the first 2 phases" of 16; the loop bound is named */
    expect_diagnosis(64, 64, 64, 0, 32, (bugs_t){.one_phase_short = 1}, "phases-partial",
                     PHRASES("k = 0..31 only", "stops one phase early (with TILE_WIDTH = 32)"));
}

/* A student whose TILE_WIDTH is 32, not the lab's 16: K = 89 rounds down to
 * 64, which is also 4 phases of 16; the hint must name the rounding (with
 * the student's tile), not "the first 4 phases". */
Test(hypothesis, phases_intdiv_with_another_tile)
{
    expect_diagnosis(97, 89, 101, 0, 32, (bugs_t){.intdiv = 1}, "phases-intdiv",
                     PHRASES("k = 0..63 only", "(k = 64..88) never runs",
                             "K / TILE_WIDTH rounds down (with TILE_WIDTH = 32)"));
    expect_diagnosis(100, 300, 64, 0, 8, (bugs_t){.intdiv = 1}, "phases-intdiv",
                     PHRASES("k = 0..295 only", "(k = 296..299) never runs",
                             "rounds down (with TILE_WIDTH = 8)"));
}

Test(hypothesis, sum_reset_each_phase)
{
    expect_diagnosis(256, 300, 256, 0, 16, (bugs_t){.reset_each_phase = 1}, "sum-reset-each-phase",
                     PHRASES("every element equals the sum over the last phase only (k = 288..299)",
                             "reset to 0 inside the phase loop", "set it to 0 once, before the loop"));
    expect_diagnosis(100, 128, 64, 1, 16, (bugs_t){.reset_each_phase = 1}, "sum-reset-each-phase",
                     PHRASES("the last phase only (k = 112..127)"));
    expect_diagnosis(64, 64, 64, 0, 16, (bugs_t){.reset_each_phase = 1}, "sum-reset-each-phase",
                     PHRASES("the last phase only (k = 48..63)"));
    expect_diagnosis(100, 128, 64, 0, 32, (bugs_t){.reset_each_phase = 1}, "sum-reset-each-phase",
                     PHRASES("the last phase only (k = 96..127) (with TILE_WIDTH = 32)"));
    expect_invisible(40, 7, 33, 16, (bugs_t){.reset_each_phase = 1});
    expect_invisible(16, 16, 16, 16, (bugs_t){.reset_each_phase = 1});
}

Test(hypothesis, phase_totals_kept)
{
    const int shapes[][4] = {{256, 300, 256, 0}, {97, 89, 101, 0}, {100, 128, 64, 1}, {1, 200, 1, 0}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.totals_kept = 1}, "phase-totals-kept",
                         PHRASES("every element equals the running sum after phase 1, plus the one "
                                 "after phase 2",
                                 "not reset to 0 before the next phase",
                                 "reset it, or accumulate in one sum"));
    expect_diagnosis(97, 89, 101, 0, 32, (bugs_t){.totals_kept = 1}, "phase-totals-kept",
                     PHRASES("running sum after phase 1", "(with TILE_WIDTH = 32)"));
    expect_invisible(40, 7, 33, 16, (bugs_t){.totals_kept = 1});
}

Test(hypothesis, tile_b_transposed)
{
    const int shapes[][4] = {{100, 128, 64, 0}, {256, 300, 256, 0}, {97, 89, 101, 1}, {40, 7, 33, 0}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.tile_b_transposed = 1}, "tile-b-transposed",
                         PHRASES("when the B tile is read transposed inside the tile",
                                 "read tileB[k][tx]"));
    expect_diagnosis(100, 128, 64, 0, 8, (bugs_t){.tile_b_transposed = 1}, "tile-b-transposed",
                     PHRASES("the B tile is read transposed inside the tile (with TILE_WIDTH = 8)"));
}

Test(hypothesis, tile_a_transposed)
{
    const int shapes[][4] = {{100, 128, 64, 0}, {256, 300, 256, 0}, {97, 89, 101, 1}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.tile_a_transposed = 1}, "tile-a-transposed",
                         PHRASES("when the A tile is read transposed inside the tile",
                                 "read tileA[ty][k]"));
}

Test(hypothesis, both_tiles_transposed)
{
    expect_diagnosis(100, 128, 64, 0, 16, (bugs_t){.tile_a_transposed = 1, .tile_b_transposed = 1},
                     "tiles-transposed",
                     PHRASES("when both tiles are read transposed", "tileA[ty][k] * tileB[k][tx]"));
    expect_diagnosis(97, 89, 101, 1, 32, (bugs_t){.tile_a_transposed = 1, .tile_b_transposed = 1},
                     "tiles-transposed", PHRASES("(with TILE_WIDTH = 32)"));
}

Test(hypothesis, blocks_swapped)
{
    const int shapes[][4] = {{100, 128, 64, 0}, {97, 89, 101, 0}, {64, 64, 64, 1},
                             {256, 300, 256, 0}, {40, 7, 33, 0}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.blocks_swapped = 1}, "blocks-swapped",
                         PHRASES("every element holds the result of another block's tile",
                                 "blockIdx.x for the row and blockIdx.y for the column",
                                 "row = blockIdx.y*TILE_WIDTH + threadIdx.y"));
    expect_diagnosis(100, 128, 64, 0, 32, (bugs_t){.blocks_swapped = 1}, "blocks-swapped",
                     PHRASES("for the column (with TILE_WIDTH = 32)"));
    expect_invisible(16, 16, 16, 16, (bugs_t){.blocks_swapped = 1});
    expect_invisible(2, 1000, 3, 16, (bugs_t){.blocks_swapped = 1});
}

Test(hypothesis, a_stride_n)
{
    /* (M-1)*N + K-1 < M*K: every read stays inside A */
    expect_diagnosis(100, 128, 64, 0, 16, (bugs_t){.a_stride_n = 1}, "a-stride-n",
                     PHRASES("A read as A[row*numBColumns + k] (a row stride of N)",
                             "row-major A is A[row*numAColumns + k]"));
    expect_diagnosis(200, 100, 56, 1, 16, (bugs_t){.a_stride_n = 1}, "a-stride-n",
                     PHRASES("a row stride of N"));
}

Test(hypothesis, b_stride_k)
{
    /* (K-1)*K + N-1 < K*N: every read stays inside B */
    expect_diagnosis(97, 89, 101, 0, 16, (bugs_t){.b_stride_k = 1}, "b-stride-k",
                     PHRASES("B read as B[k*numAColumns + col] (a row stride of K)",
                             "row-major B is B[k*numBColumns + col]"));
    expect_diagnosis(200, 100, 256, 1, 16, (bugs_t){.b_stride_k = 1}, "b-stride-k",
                     PHRASES("a row stride of K"));
}

Test(hypothesis, rows_of_a_guarded_with_k_read_as_zeros)
{
    expect_diagnosis(97, 89, 101, 0, 16, (bugs_t){.a_rows_guard_k = 1}, "zero-rows",
                     PHRASES("every element is right but rows 89..96, which are 0",
                             "the loads treat rows >= 89 as outside the matrix",
                             "compare the row of A with numARows"));
}

Test(hypothesis, columns_of_b_guarded_with_k_read_as_zeros)
{
    expect_diagnosis(97, 89, 101, 0, 16, (bugs_t){.b_cols_guard_k = 1}, "zero-cols",
                     PHRASES("every element is right but columns 89..100, which are 0",
                             "compare the column of B with numBColumns"));
}

Test(hypothesis, k_guarded_with_the_rows_of_a)
{
    /* aCol < numARows with M = 100 < K = 128: k = 100..127 load as zeros */
    expect_diagnosis(100, 128, 64, 0, 16, (bugs_t){.k_guard_m = 1}, "phases-partial",
                     PHRASES("every element equals the sum over k = 0..99 only, not over all K = 128",
                             "the loads treat k >= numARows (100) as outside the matrix",
                             "with numAColumns, not numARows"));
}

Test(hypothesis, k_guarded_with_the_columns_of_b)
{
    /* aCol < numBColumns with N = 64 < K = 128: also 4 phases of 16 */
    expect_diagnosis(100, 128, 64, 0, 16, (bugs_t){.k_guard_n = 1}, "phases-partial",
                     PHRASES("k = 0..63 only", "only the first 4 phases are summed",
                             "the loads treat k >= numBColumns (64) as outside the matrix"));
}

/* Every mistake on every shape where it shows and can be simulated: the
 * mistake made must be among the hypotheses named (an output two mistakes
 * explain equally, e.g. A·Bᵀ and the B tile transposed on one 16x16 tile,
 * names both), and the hint must never be empty. */
Test(hypothesis, every_mistake_on_every_shape_names_it, .timeout = 60)
{
    static const struct {
        bugs_t bug;
        const char *id;
    } bugs[] = {
        {{.b_transposed = 1}, "b-transposed"},
        {{.a_transposed = 1}, "a-transposed"},
        {{.a_transposed = 1, .b_transposed = 1}, "both-transposed"},
        {{.c_transposed = 1}, "c-transposed"},
        {{.intdiv = 1}, NULL}, /* phases-intdiv, or all-zero when K < T */
        {{.one_phase_short = 1}, NULL},
        {{.reset_each_phase = 1}, "sum-reset-each-phase"},
        {{.totals_kept = 1}, "phase-totals-kept"},
        {{.tile_a_transposed = 1}, "tile-a-transposed"},
        {{.tile_b_transposed = 1}, "tile-b-transposed"},
        {{.tile_a_transposed = 1, .tile_b_transposed = 1}, "tiles-transposed"},
        {{.blocks_swapped = 1}, "blocks-swapped"},
        {{.b_stride_k = 1}, "b-stride-k"},
        {{.a_stride_n = 1}, "a-stride-n"},
    };
    static const int shapes[][3] = {{100, 128, 64}, {256, 300, 256}, {97, 89, 101}, {40, 7, 33},
                                    {64, 64, 64},   {16, 16, 16},    {1, 200, 1},   {200, 100, 256},
                                    {65, 33, 17},   {2, 1000, 3},    {64, 1, 48}};
    static const int tiles[] = {16, 32, 8};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        int m = shapes[s][0], k = shapes[s][1], n = shapes[s][2];
        mm_t p = problem(m, k, n, (int)s % 3 == 2);
        for (size_t b = 0; b < sizeof bugs / sizeof *bugs; b++)
            for (size_t ti = 0; ti < sizeof tiles / sizeof *tiles; ti++) {
                int t = tiles[ti];
                bugs_t bug = bugs[b].bug;
                if (bug.a_stride_n && (long)(m - 1) * n + k - 1 >= (long)m * k)
                    continue; /* the kernel would read past A */
                if (bug.b_stride_k && (long)(k - 1) * k + n - 1 >= (long)k * n)
                    continue;
                const char *id = bugs[b].id;
                if (bug.intdiv)
                    id = k < t ? "all-zero" : "phases-intdiv";
                if (bug.one_phase_short) { /* sums k = 0..x-1 */
                    int x = ((k + t - 1) / t - 1) * t;
                    /* a partial phase left out is a phase count rounded down, and so
                     * is a full one when x is also K rounded down to the lab's tile
                     * (K = 200, T = 8: k = 0..191, the hint names TILE_WIDTH 16) */
                    int rounded = k % t || (k % LAB_TILE && x == k / LAB_TILE * LAB_TILE);
                    id = x == 0 ? "all-zero" : rounded ? "phases-intdiv" : "phases-partial";
                }
                matrix_t got = run_kernel(&p, t, bug);
                compare_result_t cr = compare_with_inputs(&p, &got);
                if (!cr.passed) {
                    hypothesis_result_t r;
                    explain(&p, &got, &r);
                    int found = 0, tiles_only = r.nmatched > 0;
                    for (int i = 0; i < r.nmatched; i++) {
                        found |= strcmp(r.id[i], id) == 0;
                        tiles_only &= strncmp(r.id[i], "tile", 4) == 0;
                    }
                    /* on a 1x1 output the three tile hypotheses are one number,
                     * sum over p of A[0][p*T] * B[p*T][0]; two are named */
                    found |= m == 1 && n == 1 && tiles_only && strncmp(id, "tile", 4) == 0;
                    cr_expect(found, "%dx%dx%d, T = %d, bug %s: matched %d (%s, %s): %s", m, k, n,
                              t, id, r.nmatched, r.nmatched > 0 ? r.id[0] : "-",
                              r.nmatched > 1 ? r.id[1] : "-", r.nmatched ? r.hint : r.ruled_out);
                    cr_expect_eq(cr.hint, HINT_HYPOTHESIS, "%dx%dx%d, T = %d, bug %s: %s", m, k, n,
                                 t, id, cr.hint_text);
                    cr_expect(cr.hint_text[0] != '\0');
                }
                free(got.data);
            }
        free_problem(&p);
    }
}

/* ---- no classic mistake: no hypothesis may claim the output --------------------------------- */

static const char *const tried_prefix = "none of the classic mistakes reproduces it (tried: ";

/* The ruled-out list whole: every family named, the ")" at the end (the
 * list goes through 256-byte buffers in hypotheses.h and compare.c). */
static void expect_whole_ruled_out(const char *text)
{
    static const char *const families[] = {"A·Bᵀ and Aᵀ·B", "C stored transposed",
                                           "partial phase sums", "a tile read transposed",
                                           "a wrong row stride"};
    for (size_t i = 0; i < sizeof families / sizeof *families; i++)
        cr_assert_not_null(strstr(text, families[i]), "'%s' missing: %s", families[i], text);
    size_t len = strlen(text);
    cr_assert(len > 0 && text[len - 1] == ')', "cut short: %s", text);
}

Test(no_match, noise_of_one_percent_everywhere)
{
    mm_t p = problem(100, 128, 64, 0);
    matrix_t got = copy_of(&p.exp);
    uint64_t seed = 99;
    for (int i = 0; i < 100 * 64; i++) {
        double u = (double)(splitmix(&seed) >> 11) / 9007199254740992.0; /* [0, 1) */
        got.data[i] *= (float)(1.0 + (u < 0.5 ? -0.01 : 0.01) * (0.5 + u));
    }
    hypothesis_result_t r;
    cr_assert_eq(explain(&p, &got, &r), 0, "matched %s: %s", r.id[0], r.hint);
    cr_assert_eq(r.nmatched, 0);
    cr_assert_str_eq(r.hint, "");
    cr_assert_eq(strncmp(r.ruled_out, tried_prefix, strlen(tried_prefix)), 0, "%s", r.ruled_out);
    cr_assert_gt(r.ntried, 10);
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert_eq(cr.hint, HINT_ALL_WRONG, "%s", cr.hint_text);
    cr_assert_str_eq(cr.hypothesis, "");
    cr_assert_not_null(strstr(cr.hint_text, r.ruled_out), "%s", cr.hint_text);
    expect_whole_ruled_out(r.ruled_out);
    expect_whole_ruled_out(cr.hint_text);
    free(got.data);
    free_problem(&p);
}

/* The hint may name phases only among what was ruled out, never as a cause. */
static void expect_no_blame(const char *hint)
{
    const char *tried = strstr(hint, "(tried: ");
    size_t cause = tried ? (size_t)(tried - hint) : strlen(hint);
    cr_assert_null(strstr(hint, "K ="), "%s", hint);
    cr_assert_null(strstr(hint, "K /"), "%s", hint);
    cr_assert_null(strstr(hint, "TILE_WIDTH"), "%s", hint);
    cr_assert_null(memmem(hint, cause, "phase", 5), "%s", hint);
}

Test(no_match, one_element_changed)
{
    mm_t p = problem(100, 128, 64, 0);
    matrix_t got = copy_of(&p.exp);
    got.data[5 * 64 + 7] += 1.0f;
    hypothesis_result_t r;
    cr_assert_eq(explain(&p, &got, &r), 0, "matched %s: %s", r.id[0], r.hint);
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert_eq(cr.hint, HINT_SOME_WRONG, "%s", cr.hint_text);
    cr_assert_eq(strncmp(cr.hint_text, "1 of 6400 elements are wrong, the first at row 5, column 7",
                         58),
                 0, "%s", cr.hint_text);
    cr_assert_not_null(strstr(cr.hint_text, tried_prefix), "%s", cr.hint_text);
    expect_whole_ruled_out(cr.hint_text);
    expect_no_blame(cr.hint_text);
    free(got.data);
    free_problem(&p);
}

Test(no_match, one_element_changed_with_k_uneven)
{
    mm_t p = problem(256, 300, 256, 1);
    matrix_t got = copy_of(&p.exp);
    got.data[100 * 256 + 31] = 0.0f;
    hypothesis_result_t r;
    cr_assert_eq(explain(&p, &got, &r), 0, "matched %s: %s", r.id[0], r.hint);
    compare_result_t cr = compare_with_inputs(&p, &got);
    expect_no_blame(cr.hint_text);
    free(got.data);
    free_problem(&p);
}

Test(no_match, half_the_rows_b_transposed)
{
    mm_t p = problem(100, 128, 64, 0);
    matrix_t bt = run_kernel(&p, 16, (bugs_t){.b_transposed = 1});
    matrix_t got = copy_of(&p.exp);
    memcpy(got.data, bt.data, sizeof(float) * 50 * 64); /* rows 0..49 A·Bᵀ, 50..99 right */
    hypothesis_result_t r;
    cr_assert_eq(explain(&p, &got, &r), 0, "matched %s: %s", r.id[0], r.hint);
    cr_assert_eq(strncmp(r.ruled_out, tried_prefix, strlen(tried_prefix)), 0, "%s", r.ruled_out);
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert_neq(cr.hint, HINT_HYPOTHESIS, "%s", cr.hint_text);
    expect_no_blame(cr.hint_text);
    free(bt.data);
    free(got.data);
    free_problem(&p);
}

Test(no_match, output_scaled_with_k_uneven_does_not_blame_k)
{
    mm_t p = problem(256, 300, 256, 0);
    matrix_t got = copy_of(&p.exp);
    for (int i = 0; i < 256 * 256; i++)
        got.data[i] *= 1.001f;
    hypothesis_result_t r;
    cr_assert_eq(explain(&p, &got, &r), 0, "matched %s: %s", r.id[0], r.hint);
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert_not(cr.passed);
    cr_assert_eq(cr.hint, HINT_ALL_WRONG, "%s", cr.hint_text);
    cr_assert_null(strstr(cr.hint_text, "K ="), "%s", cr.hint_text);
    expect_no_blame(cr.hint_text);
    free(got.data);
    free_problem(&p);
}

/* ---- never-written elements, bad shapes, large problems ---------------------------------------- */

Test(hypothesis, poison_is_not_compared)
{
    mm_t p = problem(100, 128, 64, 0);
    matrix_t got = run_kernel(&p, 16, (bugs_t){.b_transposed = 1});
    for (int i = 96; i < 100; i++) /* the last 4 rows never written */
        for (int j = 0; j < 64; j++)
            got.data[i * 64 + j] = poison();
    hypothesis_result_t r;
    cr_assert_geq(explain(&p, &got, &r), 1, "%s", r.ruled_out);
    cr_assert_str_eq(r.id[0], "b-transposed");
    /* the 6144 written elements, with the first wrong ones and a 16 x 16 grid tried first;
     * the 256 never written are not among them */
    cr_assert(r.checked >= 96 * 64 && r.checked <= 8 + 16 * 16 + 96 * 64, "%ld", r.checked);
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert_eq(cr.never_written, 256);
    cr_assert_eq(cr.hint, HINT_HYPOTHESIS, "%s", cr.hint_text);
    cr_assert_str_eq(cr.hypothesis, "b-transposed");
    const char *tail = "; also, 256 elements were never written";
    size_t len = strlen(cr.hint_text), tl = strlen(tail);
    cr_assert(len > tl && strcmp(cr.hint_text + len - tl, tail) == 0, "%s", cr.hint_text);
    cr_assert_eq(strncmp(cr.hint_text, r.hint, strlen(r.hint)), 0, "%s", cr.hint_text);
    free(got.data);
    free_problem(&p);
}

Test(hypothesis, shape_mismatch_returns_nothing)
{
    mm_t p = problem(20, 30, 10, 0);
    matrix_t got = copy_of(&p.exp);
    got.data[0] += 5.0f;
    hypothesis_result_t r;
    matrix_t b_wrong = {29, 10, p.b.data}; /* A's columns != B's rows */
    cr_assert_eq(hypotheses_explain(&p.a, &b_wrong, &p.exp, &got, lab_tol, 16, &r), 0);
    cr_assert_eq(r.nmatched, 0);
    cr_assert_str_eq(r.hint, "");
    matrix_t exp_wrong = {20, 9, p.exp.data}; /* C's columns != B's */
    cr_assert_eq(hypotheses_explain(&p.a, &p.b, &exp_wrong, &got, lab_tol, 16, &r), 0);
    matrix_t got_wrong = {10, 20, got.data}; /* the student's C is another shape */
    cr_assert_eq(hypotheses_explain(&p.a, &p.b, &p.exp, &got_wrong, lab_tol, 16, &r), 0);
    matrix_t empty = {0, 0, NULL};
    cr_assert_eq(hypotheses_explain(&empty, &empty, &empty, &empty, lab_tol, 16, &r), 0);
    /* compare on inputs that do not fit: no hypothesis, no crash */
    compare_result_t cr;
    compare_explainer_t ex = matmul_explainer(&(matmul_inputs_t){&p.a, &b_wrong});
    compare_matrices(&p.exp, &got, lab_tol, 16, &ex, &cr);
    cr_assert_not(cr.passed);
    cr_assert_neq(cr.hint, HINT_HYPOTHESIS);
    free(got.data);
    free_problem(&p);
}

Test(hypothesis, large_problem_is_verified_on_a_sample, .timeout = 60)
{
    /* 600^3 = 216M multiply-adds, past WORK_LIMIT (2^27) */
    mm_t p = problem(600, 600, 600, 0);
    matrix_t got = run_kernel(&p, 16, (bugs_t){.b_transposed = 1});
    hypothesis_result_t r;
    cr_assert_geq(explain(&p, &got, &r), 1, "%s", r.ruled_out);
    cr_assert_str_eq(r.id[0], "b-transposed");
    cr_assert_eq(r.sampled, 1);
    cr_assert(r.checked > 1000 && r.checked < 600 * 600, "%ld", r.checked);
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert_str_eq(cr.hypothesis, "b-transposed");
    cr_assert_not_null(strstr(cr.hint_text, " (checked on "), "%s", cr.hint_text);
    cr_assert_not_null(strstr(cr.hint_text, " of the written elements)"), "%s", cr.hint_text);
    free(got.data);
    free_problem(&p);
}

/* A long K (phase cuts for every tile: K / 8 = 625 of them) leaves room for
 * every other hypothesis: the loads guarded with the wrong dimension, and
 * TILE_WIDTH 8 and 32. */
Test(hypothesis, long_k_still_tries_every_mistake, .timeout = 60)
{
    expect_diagnosis(4, 5000, 40, 0, 16, (bugs_t){.k_guard_m = 1}, "phases-partial",
                     PHRASES("k = 0..3 only", "the loads treat k >= numARows (4)"));
    expect_diagnosis(4, 5000, 40, 0, 8, (bugs_t){.tile_b_transposed = 1}, "tile-b-transposed",
                     PHRASES("(with TILE_WIDTH = 8)"));
    expect_diagnosis(40, 4000, 40, 0, 32, (bugs_t){.blocks_swapped = 1}, "blocks-swapped",
                     PHRASES("(with TILE_WIDTH = 32)"));
    expect_diagnosis(3, 5000, 2, 0, 16, (bugs_t){.intdiv = 1, .one_phase_short = 1},
                     "phases-partial",
                     PHRASES("k = 0..4975 only", "only the first 311 phases are summed"));
}

/* A cut that three causes give (K = 89 rounded down to 64 with TILE_WIDTH
 * 32, and M = N = 64 in the guards): all three are named, none cut short. */
Test(hypothesis, every_cause_of_a_cut_is_named_in_full)
{
    const char *end = "compare the column of A and the row of B with numAColumns, not numBColumns";
    mm_t p = problem(64, 89, 64, 0);
    matrix_t got = run_kernel(&p, 32, (bugs_t){.intdiv = 1});
    hypothesis_result_t r;
    cr_assert_geq(explain(&p, &got, &r), 1, "%s", r.ruled_out);
    cr_assert_str_eq(r.id[0], "phases-intdiv");
    cr_assert_not_null(strstr(r.hint, "rounds down (with TILE_WIDTH = 32)"), "%s", r.hint);
    cr_assert_not_null(strstr(r.hint, "; or the loads treat k >= numARows (64)"), "%s", r.hint);
    size_t len = strlen(r.hint);
    cr_assert(len > strlen(end) && strcmp(r.hint + len - strlen(end), end) == 0, "%s", r.hint);
    free(got.data);
    free_problem(&p);
}
