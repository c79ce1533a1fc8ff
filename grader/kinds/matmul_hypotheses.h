/* matmul_hypotheses.h - diagnosis by hypothesis for a wrong C = A·B: compute what
 * the classic wrong programs would have written (B or A read transposed, C
 * stored transposed, a partial set of phases summed, a tile read transposed,
 * the blocks' tiles swapped, a sum reset or not reset between phases, a
 * wrong row stride, a boundary read as zeros) and name the one that
 * reproduces the student's output within the tolerance on every written
 * element. A hint is only as strong as its evidence: when no hypothesis
 * reproduces the output, the hint says what was ruled out, not a guess. */
#ifndef CUGRADE_HYPOTHESES_H
#define CUGRADE_HYPOTHESES_H

#include <stddef.h>

#include "compare/compare.h"

/* Tests the hypotheses against got (the student's output for A·B = exp;
 * poisoned elements are "never written" and not compared). tile_width is the
 * lab's TILE_WIDTH (8, 16 and 32 are tried too). Fills r; returns
 * r->nmatched. The shapes must agree (A is MxK, B is KxN, exp and got MxN). */
int hypotheses_explain(const matrix_t *a, const matrix_t *b, const matrix_t *exp,
                       const matrix_t *got, tolerance_t tol, int tile_width,
                       hypothesis_result_t *r);
/* What the run showed of the kernel (the executor's statistics): untiled,
 * its kernels touched no shared memory, so the mistakes of a tiled loop (a
 * tile read transposed, a sum reset or kept per phase, a guard on the
 * thread's index) do not fit; launched_tile, the side of the square blocks
 * it launched (0: unknown), is the only tile tried. */
typedef struct {
    int untiled;
    int launched_tile;
} hypotheses_seen_t;

/* hypotheses_explain, knowing what the run showed (seen). */
int hypotheses_explain_seen(const matrix_t *a, const matrix_t *b, const matrix_t *exp,
                            const matrix_t *got, tolerance_t tol, int tile_width,
                            hypotheses_seen_t seen, hypothesis_result_t *r);

/* The inputs of C = A·B (A is MxK, B is KxN), for the hypotheses. */
typedef struct {
    const matrix_t *a, *b;
    hypotheses_seen_t seen;
} matmul_inputs_t;

/* The explainer compare_matrices takes: hypotheses_explain on in's A and B. */
compare_explainer_t matmul_explainer(const matmul_inputs_t *in);

#endif
