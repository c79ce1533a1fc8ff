/* gen.c - generate and verify matrix-multiplication datasets. */
#include "dataset/gen.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int value_kind_parse(const char *s, value_kind_t *out)
{
    if (strcmp(s, "course") == 0)
        *out = VALUES_COURSE;
    else if (strcmp(s, "signed") == 0)
        *out = VALUES_SIGNED;
    else
        return -1;
    return 0;
}

int parse_shape(const char *s, int *m, int *k, int *n)
{
    char tail;
    if (sscanf(s, "%dx%dx%d%c", m, k, n, &tail) != 3)
        return -1;
    if (*m < 1 || *k < 1 || *n < 1 || *m > RAW_MAX_DIM || *k > RAW_MAX_DIM || *n > RAW_MAX_DIM)
        return -1;
    return 0;
}

/* splitmix64: small, fast, and the same numbers on every platform. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static float random_value(uint64_t *state, value_kind_t kind)
{
    /* tenths: 0..40 or -40..40, so every value has one decimal like "2.7" */
    int span = kind == VALUES_SIGNED ? 81 : 41;
    int tenths = (int)(next_random(state) % (uint64_t)span);
    if (kind == VALUES_SIGNED)
        tenths -= 40;
    return (float)tenths / 10.0f;
}

static void fill_random(matrix_t *mat, int rows, int cols, uint64_t *state, value_kind_t kind)
{
    mat->rows = rows;
    mat->cols = cols;
    size_t count = (size_t)rows * cols;
    mat->data = malloc(count * sizeof(float));
    int any_nonzero = 0;
    for (size_t i = 0; i < count; i++) {
        mat->data[i] = random_value(state, kind);
        any_nonzero |= mat->data[i] != 0.0f;
    }
    if (!any_nonzero)
        mat->data[0] = 1.0f; /* a dataset of zeros would let a do-nothing kernel pass */
}

void matmul_double(const matrix_t *a, const matrix_t *b, double *c, double *mag)
{
    int m = a->rows, k = a->cols, n = b->cols;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
            double sum = 0.0, abs_sum = 0.0;
            for (int p = 0; p < k; p++) {
                double prod = (double)a->data[(size_t)i * k + p] * (double)b->data[(size_t)p * n + j];
                sum += prod;
                abs_sum += fabs(prod);
            }
            c[(size_t)i * n + j] = sum;
            if (mag)
                mag[(size_t)i * n + j] = abs_sum;
        }
    }
}

void gen_matmul(int m, int k, int n, uint64_t seed, value_kind_t kind, matrix_t *a, matrix_t *b,
                matrix_t *c)
{
    uint64_t state = seed;
    fill_random(a, m, k, &state, kind);
    fill_random(b, k, n, &state, kind);
    size_t count = (size_t)m * n;
    double *exact = malloc(count * sizeof(double));
    matmul_double(a, b, exact, NULL);
    c->rows = m;
    c->cols = n;
    c->data = malloc(count * sizeof(float));
    for (size_t i = 0; i < count; i++)
        c->data[i] = (float)exact[i];
    free(exact);
}

int dataset_write(const char *dir, const matrix_t *inputs, int ninputs, const matrix_t *output,
                  char *err, size_t errlen)
{
    char tmp[PATH_MAX], old[PATH_MAX], path[PATH_MAX], name[32];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", dir, (long)getpid());
    snprintf(old, sizeof old, "%s.old.%ld", dir, (long)getpid());
    rm_rf(tmp);
    if (mkdir_p(tmp, err, errlen) != 0)
        return -1;
    for (int i = 0; i <= ninputs; i++) {
        if (i < ninputs)
            snprintf(name, sizeof name, "input%d.raw", i);
        else
            snprintf(name, sizeof name, "output.raw");
        path_join(path, sizeof path, tmp, name);
        if (raw_write(path, i < ninputs ? &inputs[i] : output, err, errlen) != 0) {
            rm_rf(tmp);
            return -1;
        }
    }
    int had_old = is_dir(dir);
    if (had_old && rename(dir, old) != 0) {
        rm_rf(tmp);
        return fail(err, errlen, "%s: cannot replace: %s", dir, strerror(errno));
    }
    if (rename(tmp, dir) != 0) {
        int e = errno;
        if (had_old)
            rename(old, dir);
        rm_rf(tmp);
        return fail(err, errlen, "%s: cannot create: %s", dir, strerror(e));
    }
    if (had_old)
        rm_rf(old);
    return 0;
}

int check_matmul(const dataset_ref_t *ref, const dataset_t *d, char *err, size_t errlen)
{
    if (dataset_check_matmul(ref, d, err, errlen) != 0)
        return -1;
    const matrix_t *a = &d->inputs[0], *b = &d->inputs[1], *c = &d->expected;
    size_t count = (size_t)c->rows * c->cols;
    double *exact = malloc(count * sizeof(double)), *mag = malloc(count * sizeof(double));
    matmul_double(a, b, exact, mag);
    long bad = 0;
    size_t first = 0;
    for (size_t i = 0; i < count; i++) {
        double tol = 1e-5 * mag[i] + 1e-6;
        if (!(fabs((double)c->data[i] - exact[i]) <= tol)) {
            if (bad++ == 0)
                first = i;
        }
    }
    int rc = 0;
    if (bad) {
        int row = (int)(first / (size_t)c->cols), col = (int)(first % (size_t)c->cols);
        rc = fail(err, errlen,
                  "%s/output.raw: %ld of %zu elements disagree with input0.raw x input1.raw; the "
                  "first is row %d, col %d: the file has %.9g, the inputs give %.9g. Is an input "
                  "transposed, or from another dataset?",
                  ref->dir, bad, count, row, col, (double)c->data[first], exact[first]);
    }
    free(exact);
    free(mag);
    return rc;
}
