/* gen.c - the histogram lab's datasets (labs/common/gen_lab.h): n values
 * from 0 to 255 and their 256 bin counts, exact integers. "course" values
 * are uniform; "signed" ones are skewed, four in five in bin 7, which
 * makes the threads of a block contend for the same bin. The hidden
 * families: n within one block, and uneven n over many blocks. Its classic
 * mistakes, named (lab_explain): bins never zeroed, and counts lost to
 * increments that are not atomic. */
#define LAB_PARAMS 1
#define LAB_INPUTS 1
#define LAB_EXPLAIN
#include "gen_lab.h"

#define BINS 256

void lab_inputs(const long *p, gen_rng_t *rng, int skewed, gen_array_t *in)
{
    double *v = gen_alloc(&in[0], p[0], 1, 1, 1);
    for (long i = 0; i < p[0]; i++)
        v[i] = skewed && gen_between(rng, 0, 4) != 0 ? 7 : (double)gen_between(rng, 0, BINS - 1);
}

void lab_expected(const long *p, const gen_array_t *in, gen_array_t *out)
{
    double *bins = gen_alloc(out, BINS, 1, 1, 1);
    for (long i = 0; i < p[0]; i++)
        bins[(int)in[0].v[i]]++;
}

void lab_params(const gen_array_t *in, long *p) { p[0] = in[0].rows * in[0].cols; }

void lab_hidden_shape(int family, gen_rng_t *rng, char *shape, size_t len)
{
    long n = family == 0 ? gen_between(rng, 1, 256) : gen_between(rng, 2, 200) * 256 + gen_between(rng, 1, 255);
    snprintf(shape, len, "%ld", n);
}

int lab_explain(const long *p, const gen_array_t *in, const gen_array_t *want, const gen_array_t *got, char *hint,
                size_t len)
{
    (void)p, (void)in;
    if (got->rows * got->cols != BINS)
        return 0;
    int unzeroed = 1, short_only = 1;
    double lost = 0;
    for (int b = 0; b < BINS; b++) {
        double w = want->v[b], g = got->v[b];
        /* never zeroed: counted onto the poison's bits (-1 as an int), or never written */
        unzeroed &= w == 0 ? isnan(g) : g == w - 1;
        short_only &= !isnan(g) && g <= w;
        lost += w - g;
    }
    if (unzeroed) {
        snprintf(hint, len, "bins-not-zeroed: the bins were never zeroed: each count was added to what the output's "
                            "memory held (every bit set, -1 as an int), and the bins no value fell into were never "
                            "written; zero them first, cudaMemset(deviceBins, 0, NUM_BINS * sizeof(unsigned int))");
        return 1;
    }
    if (short_only && lost > 0) {
        snprintf(hint, len, "counts-lost: %.0f counts are missing and no bin has too many: increments that are not "
                            "atomic (bins[v]++ or local[v]++ from many threads at once) overwrite each other; use "
                            "atomicAdd", lost);
        return 1;
    }
    return 0;
}
