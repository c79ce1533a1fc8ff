/* gen.c - the JDS sparse matrix-vector lab's datasets (labs/common/gen_lab.h):
 * a rows x cols matrix of nnz nonzeros whose longest row has width of them,
 * in JDS (PMPP 14.6): the rows sorted by their length, longest first
 * (perm[i]: the matrix row of sorted row i; rowLen[i]: its length), and the
 * j-th nonzero of every sorted row that has one stored together, column j of
 * the JDS, from colPtr[j]: sorted row i's j-th nonzero is val[colPtr[j] + i]
 * in column colIdx[colPtr[j] + i] of x. y = A x, in the matrix's row order.
 * One row of width nonzeros, the others skewed; values in eighths (exact).
 * Its classic mistake, named (lab_explain): sums stored in sorted order. */
#define LAB_PARAMS 4
#define LAB_INPUTS 6
#define LAB_EXPLAIN
#include "gen_lab.h"

static const long *sort_lengths;

/* Rows by length, longest first; rows of one length in their own order. */
static int longest_first(const void *a, const void *b)
{
    long i = *(const long *)a, j = *(const long *)b;
    if (sort_lengths[i] != sort_lengths[j])
        return sort_lengths[i] < sort_lengths[j] ? 1 : -1;
    return (i > j) - (i < j);
}

void lab_inputs(const long *p, gen_rng_t *rng, int signed_values, gen_array_t *in)
{
    long rows = p[0], cols = p[1], nnz = p[2], width = p[3];
    long *len = calloc((size_t)rows, sizeof *len), *order = malloc((size_t)rows * sizeof *order);
    len[gen_between(rng, 0, rows - 1)] = width; /* the longest row */
    for (long left = nnz - width; left > 0;) { /* the rest, skewed to a sixteenth of the rows */
        long r = gen_between(rng, 0, 1) ? gen_between(rng, 0, (rows - 1) / 16) : gen_between(rng, 0, rows - 1);
        if (len[r] < width)
            len[r]++, left--;
    }
    for (long i = 0; i < rows; i++)
        order[i] = i;
    sort_lengths = len;
    qsort(order, (size_t)rows, sizeof *order, longest_first); /* stable: ties keep their order */
    double *ptr = gen_alloc(&in[0], width + 1, 1, 1, 1), *col = gen_alloc(&in[1], nnz, 1, 1, 1);
    double *val = gen_alloc(&in[2], nnz, 1, 1, 0), *perm = gen_alloc(&in[3], rows, 1, 1, 1);
    double *rl = gen_alloc(&in[4], rows, 1, 1, 1), *x = gen_alloc(&in[5], cols, 1, 1, 0);
    long at = 0;
    for (long j = 0; j < width; j++) {
        ptr[j] = (double)at;
        for (long i = 0; i < rows && len[order[i]] > j; i++, at++) {
            col[at] = (double)gen_between(rng, 0, cols - 1);
            val[at] = gen_float(rng, signed_values ? -2 : 0, 2);
        }
    }
    ptr[width] = (double)at;
    for (long i = 0; i < rows; i++)
        perm[i] = (double)order[i], rl[i] = (double)len[order[i]];
    for (long c = 0; c < cols; c++)
        x[c] = gen_float(rng, -2, 2);
    free(len);
    free(order);
}

void lab_expected(const long *p, const gen_array_t *in, gen_array_t *out)
{
    double *y = gen_alloc(out, p[0], 1, 1, 0);
    for (long i = 0; i < p[0]; i++) {
        double sum = 0;
        for (long j = 0; j < (long)in[4].v[i]; j++) {
            long k = (long)in[0].v[j] + i;
            sum += in[2].v[k] * in[5].v[(long)in[1].v[k]];
        }
        y[(long)in[3].v[i]] = (double)(float)sum;
    }
}

void lab_params(const gen_array_t *in, long *p)
{
    p[0] = in[3].rows * in[3].cols, p[1] = in[5].rows * in[5].cols, p[2] = in[1].rows * in[1].cols;
    p[3] = in[0].rows * in[0].cols - 1;
}

void lab_hidden_shape(int family, gen_rng_t *rng, char *shape, size_t len)
{
    long rows = family == 0 ? gen_between(rng, 1, 128) : gen_between(rng, 129, 2000);
    long cols = family == 0 ? gen_between(rng, 1, 128) : gen_between(rng, 129, 2000);
    long width = gen_between(rng, 1, family == 0 ? 16 : 64);
    snprintf(shape, len, "%ldx%ldx%ldx%ld", rows, cols, gen_between(rng, width, rows * width), width);
}

/* Each sorted row's sum stored at its place in the sorted order: got[i] is
 * y[perm[i]] for every i, and that differs from y somewhere. */
int lab_explain(const long *p, const gen_array_t *in, const gen_array_t *want, const gen_array_t *got, char *hint,
                size_t len)
{
    long rows = p[0];
    if (got->rows * got->cols != rows)
        return 0;
    int differs = 0;
    for (long i = 0; i < rows; i++) {
        double sum = want->v[(long)in[3].v[i]];
        if (!(fabs(got->v[i] - sum) <= 1e-5 * fabs(sum) + 1e-4))
            return 0;
        differs |= !(fabs(got->v[i] - want->v[i]) <= 1e-5 * fabs(want->v[i]) + 1e-4);
    }
    if (!differs)
        return 0;
    snprintf(hint, len, "unpermuted: the sum of sorted row i was stored at y[i], its place in the sorted order; it "
                        "is the sum of matrix row perm[i]: store it at y[perm[i]]");
    return 1;
}
