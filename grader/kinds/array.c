/* array.c - the array kind (issue 41; docs/array-labs.md): a lab of array
 * kernels whose arrays, shapes, tolerance and launch function lab.json
 * declares (course/array_spec.h). Its datasets come from the lab's own
 * generator and validator (dataset/labgen.h); a dataset's params are read
 * from its arrays' sizes; the comparison is element by element, with the
 * generic feedback every lab has (never-written elements, the error map,
 * the launch's coverage, the checks). No grader C for a lab of this sort. */
#include "kinds/kind.h"
#include "course/lab.h"
#include "dataset/labgen.h"
#include "util/tmpdir.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The size of dimension dim of declared array d as matrix m holds it: a
 * one-dimensional array is all of m's elements (a libwb vector is n x 1). */
static long dim_of(const array_decl_t *d, int dim, const matrix_t *m)
{
    if (d->ndims == 1)
        return (long)m->rows * m->cols;
    return dim == 0 ? m->rows : m->cols;
}

/* The params' values from a dataset's arrays: each from the first input
 * (else the output) it sizes. 0, or -1 with err. */
static int params_of(const lab_t *lab, const dataset_t *d, long *p, char *err, size_t errlen)
{
    const array_spec_t *s = &lab->array;
    for (int k = 0; k < s->nparams; k++) {
        p[k] = -1;
        for (int i = 0; i <= s->ninputs && p[k] < 0; i++) {
            const array_decl_t *decl = i < s->ninputs ? &s->inputs[i] : &s->outputs[0];
            const matrix_t *m = i < s->ninputs ? &d->inputs[i] : &d->expected;
            for (int dim = 0; dim < decl->ndims && p[k] < 0; dim++)
                if (decl->dims[dim].param == k)
                    p[k] = dim_of(decl, dim, m) - decl->dims[dim].offset;
        }
        if (p[k] < 1)
            return fail(err, errlen, "param %s: no array of the dataset gives it", s->params[k]);
    }
    return 0;
}

/* Whether matrix m has declared array d's shape under params p. */
static int shaped(const array_decl_t *d, const long *p, const matrix_t *m)
{
    if (d->ndims == 1)
        return (long)m->rows * m->cols == array_elements(d, p) && (m->rows == 1 || m->cols == 1);
    for (int dim = 0; dim < 2; dim++)
        if (dim_of(d, dim, m) !=
            (d->dims[dim].param >= 0 ? p[d->dims[dim].param] + d->dims[dim].offset : d->dims[dim].value))
            return 0;
    return 1;
}

static int check_shapes(const struct lab *lab, const dataset_ref_t *ref, const dataset_t *d, char *err,
                        size_t errlen)
{
    const array_spec_t *s = &lab->array;
    long p[ARRAY_MAX_PARAMS];
    if (d->ninputs != s->ninputs)
        return fail(err, errlen, "%s: %d inputs, the lab declares %d", ref->dir, d->ninputs, s->ninputs);
    if (params_of(lab, d, p, err, errlen) != 0)
        return -1;
    for (int i = 0; i <= s->ninputs; i++) {
        const array_decl_t *decl = i < s->ninputs ? &s->inputs[i] : &s->outputs[0];
        const matrix_t *m = i < s->ninputs ? &d->inputs[i] : &d->expected;
        if (!shaped(decl, p, m)) {
            char file[32];
            snprintf(file, sizeof file, i < s->ninputs ? "input%d.raw" : "output.raw", i);
            return fail(err, errlen, "%s/%s: %s is %d x %d, not the %ld elements its shape gives", ref->dir, file,
                        decl->name, m->rows, m->cols, array_elements(decl, p));
        }
    }
    return 0;
}

/* "n=1000"; several params: "height=480 width=640 mask=5" */
static void shape_text(const struct lab *lab, const dataset_t *d, char *buf, size_t len)
{
    long p[ARRAY_MAX_PARAMS];
    char why[256];
    buf[0] = '\0';
    if (params_of(lab, d, p, why, sizeof why) != 0)
        return;
    for (int k = 0, used = 0; k < lab->array.nparams && (size_t)used < len; k++)
        used += snprintf(buf + used, len - (size_t)used, "%s%s=%ld", k ? " " : "", lab->array.params[k], p[k]);
}

/* The work a dataset asks for (lab.json "work"; else an operation an
 * output element), which orders and sizes the datasets and gives a rate. */
static double flop(const struct lab *lab, const dataset_t *d)
{
    long p[ARRAY_MAX_PARAMS];
    char why[256];
    double f, bytes;
    if (params_of(lab, d, p, why, sizeof why) != 0)
        return (double)d->expected.rows * d->expected.cols;
    array_work(&lab->array, p, &f, &bytes);
    return f;
}

/* A timing shape's arithmetic and compulsory traffic (its arrays read or
 * written once): the rate's GB/s and the roofline's. */
static int shape_work(const struct lab *lab, const char *shape, double *flop_out, double *compulsory_bytes)
{
    long p[ARRAY_MAX_PARAMS];
    char why[256];
    if (array_shape_params(&lab->array, shape, p, why, sizeof why) != 0)
        return -1;
    array_work(&lab->array, p, flop_out, compulsory_bytes);
    return 0;
}

static int generate(const struct lab *lab, const char *shape, uint64_t seed, value_kind_t values, dataset_t *out,
                    char *err, size_t errlen)
{
    char dir[PATH_MAX];
    memset(out, 0, sizeof *out);
    if (tmp_dir_make("labgen", dir, sizeof dir, err, errlen) != 0)
        return -1;
    dataset_ref_t ref = {.name = "generated"};
    snprintf(ref.dir, sizeof ref.dir, "%s", dir);
    int rc = labgen_make(lab, shape, seed, values, dir, err, errlen) == 0 &&
                     dataset_load(&ref, lab->inputs, out, err, errlen) == 0
                 ? 0
                 : -1;
    rm_rf(dir);
    return rc;
}

/* A timing shape's dataset: the lab's generator makes it as any other
 * (its expected output too: an array lab's host computation is linear in
 * its arrays, cheap beside writing them). */
static int timing_inputs(const struct lab *lab, const char *shape, uint64_t seed, dataset_t *out, char *err,
                         size_t errlen)
{
    return generate(lab, shape, seed, VALUES_COURSE, out, err, errlen);
}

static int verify(const struct lab *lab, const dataset_ref_t *ref, const dataset_t *d, char *err, size_t errlen)
{
    (void)d;
    return labgen_check(lab, ref->dir, err, errlen);
}

static const char *const family_names[] = {"small", "uneven"};

/* A shape the lab's generator draws for the family; "" when it cannot (the
 * generation then fails, naming the shape). */
static void hidden_shape(const struct lab *lab, int family, int tile, uint64_t *st, char *shape, size_t len)
{
    (void)tile;
    char why[256];
    if (labgen_hidden_shape(lab, family, gen_next(st), shape, len, why, sizeof why) != 0)
        shape[0] = '\0';
}

/* A one-dimensional array as 1 x n, however a file or the driver laid it out. */
static matrix_t flat(const matrix_t *m, int one_dimensional)
{
    matrix_t f = *m;
    if (one_dimensional)
        f.rows = 1, f.cols = m->rows * m->cols, f.vector = 0;
    return f;
}

/* The declared tolerance on dataset d: a float bound that grows with a
 * param is a sum of that many terms' */
static tolerance_t tolerance_of(const struct lab *lab, const dataset_t *d)
{
    tolerance_t tol = lab->tol;
    long p[ARRAY_MAX_PARAMS];
    char why[256];
    if (lab->array.grows_with >= 0 && params_of(lab, d, p, why, sizeof why) == 0)
        tol.atol *= (double)p[lab->array.grows_with];
    return tol;
}

static void compare(const struct lab *lab, const dataset_t *d, const matrix_t *got, compare_result_t *r)
{
    int one = lab->array.outputs[0].ndims == 1;
    matrix_t exp = flat(&d->expected, one), g = flat(got, one && (got->rows == 1 || got->cols == 1));
    compare_matrices(&exp, &g, tolerance_of(lab, d), lab->tile_width, NULL, r);
}

/* A timed output against the reference's on the same inputs, element by
 * element: each within the tolerance of the exact one, so within twice it
 * of each other (exact stays exact). */
static void timing_compare(const struct lab *lab, const dataset_t *d, int *sum, double *rtol, double *atol)
{
    tolerance_t tol = tolerance_of(lab, d);
    *sum = 0;
    *rtol = 2 * tol.rtol;
    *atol = 2 * tol.atol;
}

/* The lab's own name for the mistake ("no-block-sums: ..."), as a hypothesis the output fits. */
static void explain_output(const struct lab *lab, const char *dataset_dir, const char *output_path,
                           compare_result_t *r)
{
    char hint[1024];
    if (r->passed || !labgen_explain(lab, dataset_dir, output_path, hint, sizeof hint))
        return;
    size_t id = strcspn(hint, ":");
    const char *text = hint + id + (hint[id] == ':') + (hint[id] == ':' && hint[id + 1] == ' ');
    snprintf(r->hypothesis, sizeof r->hypothesis, "%.*s", (int)(id < 60 ? id : 60), hint);
    r->nhypotheses = 1;
    r->hint = HINT_HYPOTHESIS;
    snprintf(r->hint_text, sizeof r->hint_text, "%s", text);
    snprintf(r->hint_hidden, sizeof r->hint_hidden, "%s", text);
}

static int sanitize_tier(const dataset_t *d, int tile_width)
{
    long n = (long)d->expected.rows * d->expected.cols;
    return tile_width > 0 && n % tile_width != 0 ? 1 : 0; /* a partial block shows a missing bounds check */
}

static void perf_bound(const struct lab *lab, const perf_result_t *r, const perf_shape_t *s,
                       const perf_impl_t *student, strbuf_t *out)
{
    (void)lab, (void)r, (void)s, (void)student, (void)out; /* the roofline says it (score/roofline.h) */
}

const lab_kind_t kind_array = {
    .name = "array",
    .inputs = 0, /* lab.json's "array" declares them */
    .check_shapes = check_shapes,
    .shape_text = shape_text,
    .flop = flop,
    .generate = generate,
    .timing_inputs = timing_inputs,
    .shape_work = shape_work,
    .timing_compare = timing_compare,
    .verify = verify,
    .hidden_families = 2,
    .hidden_family_names = family_names,
    .hidden_shape = hidden_shape,
    .compare = compare,
    .explain_output = explain_output,
    .sanitize_tier = sanitize_tier,
    .vgpu_main = "labs/kinds/array/vgpu_main.cu",
    .default_driver = "labs/kinds/array/driver.cu",
    .rate_unit = "GB/s", /* of the compulsory traffic: the labs of the kind are memory-bound */
    .perf_bound = perf_bound,
};
