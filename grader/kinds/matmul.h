/* matmul.h - the "matmul" lab kind (kind_matmul) and its dataset helpers,
 * which the tests use directly. */
#ifndef CUGRADE_KIND_MATMUL_H
#define CUGRADE_KIND_MATMUL_H

#include "kinds/kind.h"

extern const lab_kind_t kind_matmul;

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

/* Re-computes a matmul dataset and compares it with its output.raw
 * (|stored - exact| <= 1e-5 * sum|a*b| + 1e-6 per element: tight enough to
 * catch a transposed input, loose enough for files computed in float).
 * Returns 0 if it agrees; else -1 with err saying where it first disagrees
 * and how many elements do. */
int check_matmul(const dataset_ref_t *ref, const dataset_t *d, char *err, size_t errlen);

#endif
