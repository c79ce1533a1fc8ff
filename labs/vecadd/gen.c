/* gen.c - the vector-add lab's datasets (labs/common/gen_lab.h): A and B of
 * n floats, C = A + B. The hidden families: n under a block of 256, and n
 * past several blocks, not a multiple of one. */
#define LAB_PARAMS 1
#define LAB_INPUTS 2
#include "gen_lab.h"

void lab_inputs(const long *p, gen_rng_t *rng, int signed_values, gen_array_t *in)
{
    double lo = signed_values ? -4 : 0;
    for (int k = 0; k < 2; k++) {
        double *v = gen_alloc(&in[k], p[0], 1, 1, 0);
        for (long i = 0; i < p[0]; i++)
            v[i] = gen_float(rng, lo, 4);
    }
}

void lab_expected(const long *p, const gen_array_t *in, gen_array_t *out)
{
    double *c = gen_alloc(out, p[0], 1, 1, 0);
    for (long i = 0; i < p[0]; i++)
        c[i] = (double)(float)(in[0].v[i] + in[1].v[i]);
}

void lab_params(const gen_array_t *in, long *p) { p[0] = in[0].rows * in[0].cols; }

void lab_hidden_shape(int family, gen_rng_t *rng, char *shape, size_t len)
{
    long n = family == 0 ? gen_between(rng, 1, 255) : gen_between(rng, 4, 64) * 256 + gen_between(rng, 1, 255);
    snprintf(shape, len, "%ld", n);
}
