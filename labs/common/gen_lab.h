/* gen_lab.h - the frame of an array lab's dataset generator and validator
 * (labs/<lab>/gen.c; docs/array-labs.md). The lab writes four functions;
 * this header gives them the seeded stream, the arrays and the libwb .raw
 * files, and main():
 *
 *   gen --shape SHAPE --seed N --values course|signed --out DIR
 *       DIR/input0.raw .. and DIR/output.raw for the shape (its params'
 *       values joined by x), the inputs from the seed, the output computed
 *       from them on the host (in double where it matters)
 *   gen --check DIR      the output recomputed from DIR's inputs: exit 0 when
 *                        output.raw agrees, else 1 with the first difference
 *   gen --hidden F --seed N   prints a shape of hidden family F (0: small,
 *                        under a block; 1: uneven sizes past several blocks)
 *   gen --explain DIR GOT   a wrong output GOT (the driver's matbin) of DIR's
 *                        dataset: prints "ID: hint" when the lab's lab_explain
 *                        recognises its classic mistake in it, else nothing
 *
 * Before including it the lab defines LAB_PARAMS (how many params a shape
 * has) and LAB_INPUTS; then it defines:
 *
 *   void lab_inputs(const long *p, gen_rng_t *rng, int signed_values, gen_array_t *in);
 *       sizes (gen_alloc) and fills in[0 .. LAB_INPUTS)
 *   void lab_expected(const long *p, const gen_array_t *in, gen_array_t *out);
 *       sizes and computes the output
 *   void lab_params(const gen_array_t *in, long *p);
 *       a dataset's params from its inputs (for --check)
 *   void lab_hidden_shape(int family, gen_rng_t *rng, char *shape, size_t len);
 *
 * and, with LAB_EXPLAIN defined, the classic mistake its output shows:
 *
 *   int lab_explain(const long *p, const gen_array_t *in, const gen_array_t *want,
 *                   const gen_array_t *got, char *hint, size_t len);
 *       1 with "ID: what it is and the fix" in hint when got is what the mistake
 *       makes of the inputs (never written elements are NaN in got), else 0
 *
 * Values are kept in double; an input is rounded to float (gen_float) when
 * made, so what is computed from it is what the kernel is given. The
 * output is written to 9 significant digits; --check allows 1e-5 relative
 * (floats) and nothing for an int array. */
#ifndef CUGRADE_GEN_LAB_H
#define CUGRADE_GEN_LAB_H

#include <math.h>
#include <stdint.h>

#include "matbin.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t state;
} gen_rng_t;

typedef struct {
    long rows, cols; /* a vector: rows = n, cols = 1, vector = 1 */
    int vector, is_int;
    double *v;
} gen_array_t;

/* splitmix64 */
static inline uint64_t gen_next(gen_rng_t *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A whole number from lo to hi. */
static inline long gen_between(gen_rng_t *r, long lo, long hi)
{
    return lo + (long)(gen_next(r) % (uint64_t)(hi - lo + 1));
}

/* A float (rounded as a float holds it) from lo to hi, in steps of 1/8 so
 * sums stay exact for a while. */
static inline double gen_float(gen_rng_t *r, double lo, double hi)
{
    long steps = (long)((hi - lo) * 8);
    return (double)(float)(lo + (double)gen_between(r, 0, steps > 0 ? steps : 0) / 8);
}

/* Sizes a as rows x cols (a vector when vector), zeroed. */
static inline double *gen_alloc(gen_array_t *a, long rows, long cols, int vector, int is_int)
{
    a->rows = rows, a->cols = cols, a->vector = vector, a->is_int = is_int;
    a->v = (double *)calloc((size_t)(rows * cols > 0 ? rows * cols : 1), sizeof(double));
    if (!a->v) {
        fprintf(stderr, "gen: out of memory for %ld x %ld\n", rows, cols);
        exit(2);
    }
    return a->v;
}

static inline int gen_write(const char *dir, const char *name, const gen_array_t *a)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    if (a->vector)
        fprintf(f, "%ld\n", a->rows);
    else
        fprintf(f, "%ld %ld\n", a->rows, a->cols);
    for (long i = 0; i < a->rows * a->cols; i++)
        fprintf(f, a->is_int ? "%.0f\n" : "%.9g\n", a->v[i]);
    return fclose(f) == 0 ? 0 : -1;
}

static inline int gen_read(const char *dir, const char *name, gen_array_t *a)
{
    char path[4096], line[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    long r = 0, c = 1;
    if (!f || !fgets(line, sizeof line, f)) {
        if (f)
            fclose(f);
        return -1;
    }
    int two = sscanf(line, "%ld %ld", &r, &c) == 2;
    gen_alloc(a, r, two ? c : 1, !two, 0);
    for (long i = 0; i < r * (two ? c : 1); i++)
        if (fscanf(f, "%lf", &a->v[i]) != 1) {
            fclose(f);
            return -1;
        }
    fclose(f);
    return 0;
}

#ifndef GEN_LAB_NO_MAIN
void lab_inputs(const long *p, gen_rng_t *rng, int signed_values, gen_array_t *in);
void lab_expected(const long *p, const gen_array_t *in, gen_array_t *out);
void lab_params(const gen_array_t *in, long *p);
void lab_hidden_shape(int family, gen_rng_t *rng, char *shape, size_t len);

#ifdef LAB_EXPLAIN
int lab_explain(const long *p, const gen_array_t *in, const gen_array_t *want, const gen_array_t *got, char *hint,
                size_t len);
#endif

static int gen_shape(const char *s, long *p)
{
    for (int i = 0; i < LAB_PARAMS; i++) {
        char *end;
        p[i] = strtol(s, &end, 10);
        if (end == s || p[i] < 1 || (i + 1 < LAB_PARAMS ? *end != 'x' : *end != '\0'))
            return -1;
        s = end + 1;
    }
    return 0;
}

static int gen_make(const char *shape, uint64_t seed, int signed_values, const char *dir)
{
    long p[LAB_PARAMS];
    gen_array_t in[LAB_INPUTS], out;
    memset(in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    if (gen_shape(shape, p) != 0) {
        fprintf(stderr, "gen: bad shape '%s' (%d whole numbers from 1, joined by x)\n", shape, LAB_PARAMS);
        return 2;
    }
    gen_rng_t rng = {seed};
    lab_inputs(p, &rng, signed_values, in);
    lab_expected(p, in, &out);
    for (int i = 0; i < LAB_INPUTS; i++) {
        char name[32];
        snprintf(name, sizeof name, "input%d.raw", i);
        if (gen_write(dir, name, &in[i]) != 0) {
            fprintf(stderr, "gen: cannot write %s/%s\n", dir, name);
            return 2;
        }
    }
    if (gen_write(dir, "output.raw", &out) != 0) {
        fprintf(stderr, "gen: cannot write %s/output.raw\n", dir);
        return 2;
    }
    return 0;
}

static int gen_check(const char *dir)
{
    gen_array_t in[LAB_INPUTS], out, want;
    memset(&want, 0, sizeof want);
    for (int i = 0; i < LAB_INPUTS; i++) {
        char name[32];
        snprintf(name, sizeof name, "input%d.raw", i);
        if (gen_read(dir, name, &in[i]) != 0) {
            fprintf(stderr, "%s/%s: missing or malformed\n", dir, name);
            return 1;
        }
    }
    if (gen_read(dir, "output.raw", &out) != 0) {
        fprintf(stderr, "%s/output.raw: missing or malformed\n", dir);
        return 1;
    }
    long p[LAB_PARAMS];
    lab_params(in, p);
    lab_expected(p, in, &want);
    if (want.rows * want.cols != out.rows * out.cols) {
        fprintf(stderr, "%s/output.raw: %ld elements, the inputs make %ld\n", dir, out.rows * out.cols,
                want.rows * want.cols);
        return 1;
    }
    for (long i = 0; i < want.rows * want.cols; i++) {
        double tol = want.is_int ? 0 : 1e-5 * fabs(want.v[i]) + 1e-6;
        if (!(fabs(out.v[i] - want.v[i]) <= tol)) {
            fprintf(stderr, "%s/output.raw: element %ld is %.9g, the inputs make %.9g\n", dir, i, out.v[i],
                    want.v[i]);
            return 1;
        }
    }
    return 0;
}

/* A wrong output, told by the lab's lab_explain (nothing without it). */
static int gen_explain(const char *dir, const char *got_path)
{
#ifdef LAB_EXPLAIN
    gen_array_t in[LAB_INPUTS], want, got;
    for (int i = 0; i < LAB_INPUTS; i++) {
        char name[32];
        snprintf(name, sizeof name, "input%d.raw", i);
        if (gen_read(dir, name, &in[i]) != 0)
            return 1;
    }
    float *data = NULL;
    matbin_header_t hdr;
    if (gen_read(dir, "output.raw", &want) != 0 || matbin_read(got_path, &data, &hdr) != 0)
        return 1;
    gen_alloc(&got, hdr.rows, hdr.cols, 0, want.is_int);
    for (long i = 0; i < (long)hdr.rows * hdr.cols; i++)
        got.v[i] = matbin_is_poison(data[i]) ? NAN : (double)data[i];
    long p[LAB_PARAMS];
    lab_params(in, p);
    char hint[1024] = "";
    if (lab_explain(p, in, &want, &got, hint, sizeof hint))
        printf("%s\n", hint);
#else
    (void)dir, (void)got_path;
#endif
    return 0;
}

int main(int argc, char **argv)
{
    const char *shape = NULL, *dir = NULL, *check = NULL, *explain_dir = NULL, *explain_got = NULL;
    uint64_t seed = 1;
    int signed_values = 0, hidden = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--shape") == 0 && i + 1 < argc)
            shape = argv[++i];
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--values") == 0 && i + 1 < argc)
            signed_values = strcmp(argv[++i], "signed") == 0;
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--check") == 0 && i + 1 < argc)
            check = argv[++i];
        else if (strcmp(argv[i], "--hidden") == 0 && i + 1 < argc)
            hidden = atoi(argv[++i]);
        else if (strcmp(argv[i], "--explain") == 0 && i + 2 < argc)
            explain_dir = argv[i + 1], explain_got = argv[i + 2], i += 2;
        else {
            fprintf(stderr, "usage: gen --shape SHAPE --seed N --values course|signed --out DIR | --check DIR | "
                            "--hidden FAMILY --seed N\n");
            return 2;
        }
    }
    if (check)
        return gen_check(check);
    if (explain_dir)
        return gen_explain(explain_dir, explain_got);
    if (hidden >= 0) {
        char out[128];
        gen_rng_t rng = {seed};
        lab_hidden_shape(hidden, &rng, out, sizeof out);
        printf("%s\n", out);
        return 0;
    }
    if (!shape || !dir)
        return fprintf(stderr, "gen: --shape and --out are needed\n"), 2;
    return gen_make(shape, seed, signed_values, dir);
}
#endif

#endif
