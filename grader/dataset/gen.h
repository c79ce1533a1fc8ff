/* gen.h - dataset generation and verification for matrix multiplication:
 * deterministic inputs from a seed, the expected product computed in double
 * precision, and a re-check of existing datasets. */
#ifndef CUGRADE_GEN_H
#define CUGRADE_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "dataset/dataset.h"
#include "dataset/rawio.h"

typedef enum {
    VALUES_COURSE, /* 0.0 .. 4.0, one decimal, like the ECE408 files */
    VALUES_SIGNED  /* -4.0 .. 4.0, one decimal */
} value_kind_t;

int value_kind_parse(const char *s, value_kind_t *out);
/* Parses "MxKxN" (each 1..RAW_MAX_DIM). */
int parse_shape(const char *s, int *m, int *k, int *n);

/* Fills A (MxK), B (KxN) from the seed and C = A*B (double, rounded once to
 * float). Never all zeros. Matrices are malloc'd. */
void gen_matmul(int m, int k, int n, uint64_t seed, value_kind_t kind, matrix_t *a, matrix_t *b,
                matrix_t *c);

/* C = A*B in double precision; c has a->rows * b->cols entries. Also fills
 * mag (if not NULL) with sum_k |a_ik * b_kj| per element, the scale of the
 * rounding error a float computation may make. */
void matmul_double(const matrix_t *a, const matrix_t *b, double *c, double *mag);

/* Writes input0.raw, input1.raw.., output.raw into dir as a whole: into a
 * fresh sibling folder first, then renamed over dir. */
int dataset_write(const char *dir, const matrix_t *inputs, int ninputs, const matrix_t *output,
                  char *err, size_t errlen);

/* Re-computes a matmul dataset and compares it with its output.raw
 * (|stored - exact| <= 1e-5 * sum|a*b| + 1e-6 per element: tight enough to
 * catch a transposed input, loose enough for files computed in float).
 * Returns 0 if it agrees; else -1 with err saying where it first disagrees
 * and how many elements do. */
int check_matmul(const dataset_ref_t *ref, const dataset_t *d, char *err, size_t errlen);

#endif
