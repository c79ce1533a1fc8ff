/* gen.c - the scan lab's datasets (labs/common/gen_lab.h): A of n floats,
 * S its inclusive prefix sums, S[i] = A[0] + ... + A[i], summed in double
 * and rounded to float. The hidden families: n within one block's 2048
 * elements, and n over many blocks, not a multiple of one (a second level
 * of block sums past 2048 blocks of them). Its classic mistake, named
 * (lab_explain): sections scanned without the block sums. */
#define LAB_PARAMS 1
#define LAB_INPUTS 1
#define LAB_EXPLAIN
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

/* Sections scanned on their own, the block sums never added: got is, for
 * some section length (a power of two from 32 to 8192, shorter than n),
 * each section's own prefix sums, and those differ from the whole scan. */
int lab_explain(const long *p, const gen_array_t *in, const gen_array_t *want, const gen_array_t *got, char *hint,
                size_t len)
{
    long n = p[0];
    if (got->rows * got->cols != n)
        return 0;
    for (long section = 32; section <= 8192 && section < n; section *= 2) {
        int fits = 1, differs = 0;
        double sum = 0;
        for (long i = 0; i < n && fits; i++) {
            sum = i % section == 0 ? in[0].v[i] : sum + in[0].v[i];
            double tol = 1e-5 * fabs(sum) + 1e-3;
            fits = fabs(got->v[i] - sum) <= tol;
            differs |= !(fabs(want->v[i] - sum) <= tol);
        }
        if (fits && differs) {
            snprintf(hint, len, "no-block-sums: each section of %ld elements is scanned on its own, and the totals of "
                                "the sections before it were never added to it: scan the sections' totals (launchScan "
                                "on them) and add each section's preceding total to its elements (addSums)", section);
            return 1;
        }
    }
    return 0;
}
