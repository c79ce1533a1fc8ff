/* gen.c - the sparse matrix-vector lab's datasets (labs/common/gen_lab.h):
 * a rows x cols matrix of nnz nonzeros in CSR (row pointers, column indices,
 * values) and a vector x of cols floats; y = A x. Rows of very different
 * lengths: half the nonzeros fall in the first sixteenth of the rows, the
 * rest anywhere, so some rows are long and many are short or empty. Values
 * in eighths from -2 to 2, so every sum is exact in float. The hidden
 * families: a matrix within one block of rows, and uneven ones over many.
 * Its classic mistake, named (lab_explain): a row's loop run one past its
 * end, into the next row's first nonzero. */
#define LAB_PARAMS 3
#define LAB_INPUTS 4
#define LAB_EXPLAIN
#include "gen_lab.h"

static int by_row(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

void lab_inputs(const long *p, gen_rng_t *rng, int signed_values, gen_array_t *in)
{
    long rows = p[0], cols = p[1], nnz = p[2];
    double *ptr = gen_alloc(&in[0], rows + 1, 1, 1, 1), *col = gen_alloc(&in[1], nnz, 1, 1, 1);
    double *val = gen_alloc(&in[2], nnz, 1, 1, 0), *x = gen_alloc(&in[3], cols, 1, 1, 0);
    long *row_of = malloc((size_t)nnz * sizeof *row_of);
    for (long k = 0; k < nnz; k++) /* half in the first sixteenth of the rows: long rows beside short ones */
        row_of[k] = gen_between(rng, 0, 1) ? gen_between(rng, 0, (rows - 1) / 16) : gen_between(rng, 0, rows - 1);
    qsort(row_of, (size_t)nnz, sizeof *row_of, by_row);
    for (long k = 0; k < nnz; k++) {
        ptr[row_of[k] + 1]++;
        col[k] = (double)gen_between(rng, 0, cols - 1);
        val[k] = gen_float(rng, signed_values ? -2 : 0, 2);
    }
    for (long r = 0; r < rows; r++)
        ptr[r + 1] += ptr[r];
    for (long c = 0; c < cols; c++)
        x[c] = gen_float(rng, -2, 2);
    free(row_of);
}

void lab_expected(const long *p, const gen_array_t *in, gen_array_t *out)
{
    double *y = gen_alloc(out, p[0], 1, 1, 0);
    for (long r = 0; r < p[0]; r++) {
        double sum = 0;
        for (long k = (long)in[0].v[r]; k < (long)in[0].v[r + 1]; k++)
            sum += in[2].v[k] * in[3].v[(long)in[1].v[k]];
        y[r] = (double)(float)sum;
    }
}

void lab_params(const gen_array_t *in, long *p)
{
    p[0] = in[0].rows * in[0].cols - 1, p[1] = in[3].rows * in[3].cols, p[2] = in[1].rows * in[1].cols;
}

void lab_hidden_shape(int family, gen_rng_t *rng, char *shape, size_t len)
{
    long rows = family == 0 ? gen_between(rng, 1, 128) : gen_between(rng, 129, 3000);
    long cols = family == 0 ? gen_between(rng, 1, 128) : gen_between(rng, 129, 3000);
    snprintf(shape, len, "%ldx%ldx%ld", rows, cols, gen_between(rng, 1, rows * 8));
}

/* Each row's loop run to rowPtr[row + 1] inclusive: got is, on every row
 * whose next nonzero exists, its sum plus that nonzero's product (the last
 * row's reads past the arrays, whatever they held, are not looked at), and
 * that differs from y somewhere. */
int lab_explain(const long *p, const gen_array_t *in, const gen_array_t *want, const gen_array_t *got, char *hint,
                size_t len)
{
    long rows = p[0], nnz = p[2];
    if (got->rows * got->cols != rows)
        return 0;
    int differs = 0;
    for (long r = 0; r < rows; r++) {
        long end = (long)in[0].v[r + 1];
        if (end >= nnz)
            continue;
        double sum = want->v[r] + in[2].v[end] * in[3].v[(long)in[1].v[end]];
        if (!(fabs(got->v[r] - sum) <= 1e-5 * fabs(sum) + 1e-4))
            return 0;
        differs |= !(fabs(got->v[r] - want->v[r]) <= 1e-5 * fabs(want->v[r]) + 1e-4);
    }
    if (!differs)
        return 0;
    snprintf(hint, len, "row-end-inclusive: each row's sum includes the next row's first nonzero: the loop over a "
                        "row's nonzeros runs to rowPtr[row + 1] inclusive; it ends before it "
                        "(k < rowPtr[row + 1])");
    return 1;
}
