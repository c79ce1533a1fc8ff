/* gen.c - the scan lab's datasets (labs/common/gen_lab.h): A of n floats,
 * S its inclusive prefix sums, S[i] = A[0] + ... + A[i], summed in double
 * and rounded to float. The hidden families: n within one block's 2048
 * elements, and n over many blocks, not a multiple of one (a second level
 * of block sums past 2048 blocks of them). */
#define LAB_PARAMS 1
#define LAB_INPUTS 1
#include "gen_lab.h"

void lab_inputs(const long *p, gen_rng_t *rng, int signed_values, gen_array_t *in)
{
    double *a = gen_alloc(&in[0], p[0], 1, 1, 0);
    for (long i = 0; i < p[0]; i++)
        a[i] = gen_float(rng, signed_values ? -4 : 0, 4);
}

void lab_expected(const long *p, const gen_array_t *in, gen_array_t *out)
{
    double *s = gen_alloc(out, p[0], 1, 1, 0), sum = 0;
    for (long i = 0; i < p[0]; i++) {
        sum += in[0].v[i];
        s[i] = (double)(float)sum;
    }
}

void lab_params(const gen_array_t *in, long *p) { p[0] = in[0].rows * in[0].cols; }

void lab_hidden_shape(int family, gen_rng_t *rng, char *shape, size_t len)
{
    long n = family == 0 ? gen_between(rng, 1, 2048) : gen_between(rng, 2, 40) * 2048 + gen_between(rng, 1, 2047);
    snprintf(shape, len, "%ld", n);
}
