/* hypotheses.h - diagnosis by hypothesis for a wrong C = A·B: compute what
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

#include "dataset/rawio.h"
#include "compare/tolerance.h"

#define HYPOTHESIS_MAX_MATCHES 2

typedef struct {
    int nmatched;            /* hypotheses that reproduce the output (0: none) */
    char id[HYPOTHESIS_MAX_MATCHES][32]; /* e.g. "b-transposed", "phases-intdiv" */
    char hint[1024];          /* the hint for the student ("" when none matched) */
    char ruled_out[384];     /* what was tried, for a hint when none matched */
    int ntried;              /* hypotheses tried on this output */
    long checked;            /* written elements each match was verified on */
    int sampled;             /* 1: a large output, verified on a sample of elements */
} hypothesis_result_t;

/* Tests the hypotheses against got (the student's output for A·B = exp;
 * poisoned elements are "never written" and not compared). tile_width is the
 * lab's TILE_WIDTH (8, 16 and 32 are tried too). Fills r; returns
 * r->nmatched. The shapes must agree (A is MxK, B is KxN, exp and got MxN). */
int hypotheses_explain(const matrix_t *a, const matrix_t *b, const matrix_t *exp,
                       const matrix_t *got, tolerance_t tol, int tile_width,
                       hypothesis_result_t *r);

#endif
