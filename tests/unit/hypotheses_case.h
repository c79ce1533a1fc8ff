/* hypotheses_case.h - what the tests of diagnosis by hypothesis
 * (hypotheses.h) share: test_hypotheses_layout.c, test_hypotheses_phases.c
 * and test_hypotheses_limits.c check it against an independent model of the
 * buggy kernels, the model and the checks below.
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
#ifndef CUGRADE_HYPOTHESES_CASE_H
#define CUGRADE_HYPOTHESES_CASE_H

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

static inline uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline matrix_t new_matrix(int rows, int cols)
{
    matrix_t m = {rows, cols, malloc(sizeof(float) * ((size_t)rows * cols + 1))};
    cr_assert_not_null(m.data);
    return m;
}

/* Tenths: 0.0..4.0, or -4.0..4.0 when sign. */
static inline void fill_tenths(matrix_t *x, uint64_t *seed, int sign)
{
    for (size_t i = 0; i < (size_t)x->rows * x->cols; i++) {
        int t = sign ? (int)(splitmix(seed) % 81) - 40 : (int)(splitmix(seed) % 41);
        x->data[i] = (float)t / 10.0f;
    }
}

static inline mm_t problem(int m, int k, int n, int sign)
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

static inline void free_problem(mm_t *p)
{
    free(p->a.data);
    free(p->b.data);
    free(p->exp.data);
}

static inline float poison(void)
{
    uint32_t bits = POISON_BITS;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline matrix_t copy_of(const matrix_t *m)
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
    int inner_guard_tx;    /* the k loop inside if (ph*T + tx < K) (a guard on the wrong index) */
    int inner_guard_ty;    /* ... inside if (ph*T + ty < K) */
} bugs_t;

/* A read by the model: a bug may only be simulated where it stays inside the input. */
static inline float load(const matrix_t *x, long index, const char *what)
{
    cr_assert(index >= 0 && index < (long)x->rows * x->cols,
              "the model reads %s[%ld] outside its %dx%d elements: this bug cannot be simulated on "
              "this shape",
              what, index, x->rows, x->cols);
    return x->data[index];
}

/* What the kernel, launched on a ceil(N/T) x ceil(M/T) grid of T x T blocks
 * over a C the harness filled with poison, leaves in C. */
static inline matrix_t run_kernel(const mm_t *p, int t, bugs_t bug)
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
                        int skip = (bug.inner_guard_tx && ph * t + tx >= K) ||
                                   (bug.inner_guard_ty && ph * t + ty >= K);
                        for (int q = 0; q < t && !skip; q++) {
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

static inline int explain(const mm_t *p, const matrix_t *got, hypothesis_result_t *r)
{
    return hypotheses_explain(&p->a, &p->b, &p->exp, got, lab_tol, LAB_TILE, r);
}

static inline compare_result_t compare_with_inputs(const mm_t *p, const matrix_t *got)
{
    compare_result_t cr;
    compare_explainer_t ex = matmul_explainer(&(matmul_inputs_t){&p->a, &p->b});
    compare_matrices(&p->exp, got, lab_tol, LAB_TILE, &ex, &cr);
    return cr;
}

/* The model with bug on M x K x N (tile t) must give a wrong output that
 * hypothesis id explains first, with every phrase in the hint; compare
 * must say the same. */
static inline void expect_diagnosis(int m, int k, int n, int sign, int t, bugs_t bug,
                                    const char *id, const char *const *phrases)
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
static inline void expect_invisible(int m, int k, int n, int t, bugs_t bug)
{
    mm_t p = problem(m, k, n, 0);
    matrix_t got = run_kernel(&p, t, bug);
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert(cr.passed, "%dx%dx%d: %s", m, k, n, cr.hint_text);
    free(got.data);
    free_problem(&p);
}

#define PHRASES(...) ((const char *const[]){__VA_ARGS__, NULL})

#endif
