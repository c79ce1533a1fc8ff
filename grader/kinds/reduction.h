/* reduction.h - the "reduction" lab kind (kind_reduction): a dot product of
 * two vectors, and the numbers its tolerance is made of. */
#ifndef CUGRADE_KIND_REDUCTION_H
#define CUGRADE_KIND_REDUCTION_H

#include "kinds/kind.h"

extern const lab_kind_t kind_reduction;

/* sum |a_i * b_i| in double; *exact (if not NULL) gets sum a_i * b_i. */
double reduction_sum_abs(const matrix_t *a, const matrix_t *b, double *exact);

/* The error bound of a float tree reduction of n products whose magnitudes
 * add up to sum_abs: (ceil(log2 n) + 2) * 2^-24 * sum_abs (reduction.c). */
double reduction_tolerance(long n, double sum_abs);

#endif
