/* perf.c - read the timing program's results and score them. */
#include "score/perf.h"
#include "course/lab.h"
#include "kinds/kind.h"
#include "score/roofline.h"
#include "util/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "impl NAME median_ms M mean_ms M rse R reps K RATE_KEY X wrong W ...", with
 * RATE_KEY gflops (matmul) or gbs (reduction), and further on "q1_ms Q",
 * the first quartile the rate is computed from, "gated 0|1" and
 * "wrong_reps N", the timed reps found wrong. */
static int parse_impl(const char *line, perf_shape_t *s)
{
    if (s->nimpls == PERF_MAX_IMPLS)
        return -1;
    perf_impl_t *im = &s->impls[s->nimpls];
    memset(im, 0, sizeof *im);
    char key[16];
    int n = sscanf(line, "impl %15s median_ms %lf mean_ms %lf rse %lf reps %d %15s %lf wrong %ld",
                   im->name, &im->median_ms, &im->mean_ms, &im->rse, &im->reps, key, &im->rate,
                   &im->wrong);
    if (n != 8 || (strcmp(key, "gflops") != 0 && strcmp(key, "gbs") != 0))
        return -1;
    const char *q1 = strstr(line, " q1_ms ");
    if (q1 && !(sscanf(q1, " q1_ms %lf", &im->q1_ms) == 1 && im->q1_ms > 0))
        return -1;
    const char *gated = strstr(line, " gated ");
    int g = -1;
    if (gated && !(sscanf(gated, " gated %d", &g) == 1 && (g == 0 || g == 1)))
        return -1;
    im->gate = g == 1 ? PERF_GATED : g == 0 ? PERF_UNGATED : PERF_GATE_UNKNOWN;
    const char *wr = strstr(line, " wrong_reps ");
    if (wr && !(sscanf(wr, " wrong_reps %d", &im->wrong_reps) == 1 && im->wrong_reps >= 0 &&
                im->wrong_reps <= im->reps))
        return -1;
    im->has_wrong_reps = wr != NULL;
    s->nimpls++;
    return 0;
}

static void parse_device_line(const char *key, const char *value, perf_result_t *r)
{
    if (strcmp(key, "device") == 0)
        snprintf(r->device, sizeof r->device, "%s", value);
    else if (strcmp(key, "sm_clock_mhz") == 0)
        r->sm_clock_mhz = atof(value);
    else if (strcmp(key, "bandwidth_gbs") == 0)
        r->bandwidth_gbs = atof(value);
    else if (strcmp(key, "l2_bytes") == 0)
        r->l2_bytes = atol(value);
    else if (strcmp(key, "sms") == 0)
        r->sms = atoi(value);
    else if (strcmp(key, "driver_version") == 0)
        r->driver_version = atoi(value);
    else if (strcmp(key, "runtime_version") == 0)
        r->runtime_version = atoi(value);
    else if (strcmp(key, "compute_capability") == 0)
        perf_set_compute_capability(r, value);
}

/* The implementation the student is measured against. */
static const char *versus_impl(perf_relative_t vs)
{
    return vs == PERF_VS_CUBLAS ? "cublas" : "reference";
}

double perf_shape_ratio(const perf_shape_t *s, perf_relative_t vs)
{
    const perf_impl_t *st = perf_impl(s, "student"), *ref = perf_impl(s, versus_impl(vs));
    if (!st || !ref || !(st->rate > 0) || !(ref->rate > 0) || st->wrong > 0)
        return -1;
    return st->rate / ref->rate;
}

double perf_speed_ratio(const perf_result_t *r, perf_relative_t vs)
{
    double log_sum = 0;
    for (int i = 0; i < r->nshapes; i++) {
        double ratio = perf_shape_ratio(&r->shapes[i], vs);
        if (!(ratio > 0))
            return 0;
        log_sum += log(ratio);
    }
    return r->nshapes > 0 ? exp(log_sum / r->nshapes) : 0;
}

int perf_parse(const char *text, perf_result_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char *copy = strdup(text);
    int line_no = 0, rc = 0;
    for (char *save = NULL, *line = strtok_r(copy, "\n", &save); line && rc == 0;
         line = strtok_r(NULL, "\n", &save)) {
        line_no++;
        char key[32];
        if (sscanf(line, "%31s", key) != 1)
            continue;
        const char *value = line + strlen(key);
        while (*value == ' ')
            value++;
        if (strcmp(key, "shape") == 0) {
            if (out->nshapes == PERF_MAX_SHAPES)
                rc = fail(err, errlen, "timing output line %d: too many shapes", line_no);
            else
                snprintf(out->shapes[out->nshapes++].shape, sizeof out->shapes[0].shape, "%s", value);
        } else if (strcmp(key, "copy_gbs") == 0 && out->nshapes > 0) {
            out->shapes[out->nshapes - 1].copy_gbs = atof(value);
        } else if (strcmp(key, "impl") == 0) {
            if (out->nshapes == 0 || parse_impl(line, &out->shapes[out->nshapes - 1]) != 0)
                rc = fail(err, errlen, "timing output line %d: malformed: %s", line_no, line);
        } else {
            parse_device_line(key, value, out);
        }
    }
    free(copy);
    if (rc == 0 && out->nshapes == 0)
        rc = fail(err, errlen, "the timing program printed no results");
    out->speed_ratio = rc == 0 ? perf_speed_ratio(out, PERF_VS_REFERENCE) : 0;
    return rc;
}

int perf_parse_file(const char *report_path, perf_result_t *out, char *err, size_t errlen)
{
    char why[512];
    char *text = read_file(report_path, NULL, why, sizeof why);
    if (!text) {
        memset(out, 0, sizeof *out);
        return fail(err, errlen, "the timing program wrote no report: %s", why);
    }
    int rc = perf_parse(text, out, err, errlen);
    free(text);
    return rc;
}

/* ", 0.94x cuBLAS FP32 (50178 GFLOP/s)": the student's speed against impl. */
static void versus(const perf_impl_t *st, const perf_impl_t *other, const char *name,
                   const char *unit, strbuf_t *out)
{
    if (other && other->rate > 0)
        sb_appendf(out, ", %.2fx %s (%.0f %s)", st->rate / other->rate, name, other->rate, unit);
}

/* One shape's lines: the student's rate, then against what the score is
 * relative to, the other of the reference and cuBLAS, the baseline. */
static void report_shape(const perf_shape_t *s, const perf_result_t *r, const perf_rule_t *rule,
                         const lab_t *lab, int bound_said, strbuf_t *out)
{
    const perf_impl_t *st = perf_impl(s, "student"), *ref = perf_impl(s, "reference");
    const perf_impl_t *naive = perf_impl(s, "naive"), *blas = perf_impl(s, "cublas");
    const perf_impl_t *vs = perf_impl(s, versus_impl(rule->relative_to));
    const char *unit = lab->kind->rate_unit;
    if (!st || !vs || !(st->rate > 0) || !(vs->rate > 0)) {
        sb_appendf(out, "%s: no usable timing\n", s->shape);
        return;
    }
    sb_appendf(out, "%s: %.0f %s (%s of %d, rse %.2f%%)", s->shape, st->rate, unit,
               st->q1_ms > 0 ? "first quartile" : "median", st->reps, 100 * st->rse);
    int cublas_first = rule->relative_to == PERF_VS_CUBLAS;
    versus(st, cublas_first ? blas : ref, cublas_first ? "cuBLAS FP32" : "the reference", unit,
           out);
    versus(st, cublas_first ? ref : blas, cublas_first ? "the reference" : "cuBLAS FP32", unit,
           out);
    if (naive && naive->rate > 0)
        sb_appendf(out, ", %.2fx the untiled kernel", st->rate / naive->rate);
    const perf_impl_t *lib = perf_impl(s, "library");
    if (lib && lib->rate > 0) /* an array lab's library: its launch function timed whole, median */
        sb_appendf(out, ", %.2fx the library, %s (%.0f %s)", st->rate / lib->rate, lab->array.baseline_name,
                   lib->rate, unit);
    sb_append(out, "\n");
    if (!bound_said)
        lab->kind->perf_bound(lab, r, s, st, out);
    if (st->gate == PERF_UNGATED && ref && ref->gate == PERF_GATED)
        sb_append(out, "  unlike the reference's, its reps were timed without the launch gate: "
                       "its launch function had not returned 20 ms after its call, so it waits "
                       "for the GPU (cudaDeviceSynchronize or a cudaMemcpy in it), works that "
                       "long on the host, or was held off the CPU; its times then also count "
                       "the launch's host time. The harness waits for the GPU itself: a launch "
                       "function needs no synchronization\n");
    if (st->wrong > 0)
        sb_appendf(out, "  FAILED: %ld wrong elements in the timed outputs\n", st->wrong);
    if (st->wrong > 0 && st->has_wrong_reps && st->wrong_reps < st->reps)
        sb_appendf(out, "  wrong in %d of its %d timed rounds, not found wrong in the others: "
                        "what it computes changes from call to call, with the inputs' values "
                        "(new every round), with what earlier calls left (an output kept and "
                        "given back, work skipped when called again) or with timing (a race, "
                        "which the race-free check looks for)\n",
                   st->wrong_reps, st->reps);
}

double perf_score(const perf_rule_t *rule, const perf_result_t *r, const lab_t *lab,
                  const roofline_t *roofline, strbuf_t *out, int *ok)
{
    *ok = 0;
    if (r->sm_clock_mhz > 0 && r->runtime_version > 0) /* the timing program's */
        sb_appendf(out, "on %s (SM clock %.0f MHz, driver %d, CUDA %d):\n", r->device, r->sm_clock_mhz,
                   r->driver_version, r->runtime_version);
    else if (r->sm_clock_mhz > 0) /* a replay's runner: no CUDA runtime in it */
        sb_appendf(out, "on %s (SM clock %.0f MHz, driver %d):\n", r->device, r->sm_clock_mhz, r->driver_version);
    else
        sb_appendf(out, "on %s:\n", r->device);
    for (int i = 0; i < r->nshapes; i++)
        report_shape(&r->shapes[i], r, rule, lab, roofline != NULL, out);
    if (roofline)
        roofline_sentence(roofline, out);
    double speed = perf_speed_ratio(r, rule->relative_to);
    if (!(speed > 0)) {
        sb_append(out, "no performance points: a timed output was wrong or a timing is missing\n");
        return 0;
    }
    double frac = (speed - rule->zero_at) / (rule->full_at - rule->zero_at);
    frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
    double score = round(rule->points * frac * 100) / 100;
    sb_appendf(out, "speed relative to %s (geometric mean): %.2f; 0 points at %.2f, "
                    "full points at %.2f: %g of %g\n",
               rule->relative_to == PERF_VS_CUBLAS ? "cuBLAS FP32" : "the reference", speed,
               rule->zero_at, rule->full_at, score, rule->points);
    *ok = frac >= 1;
    return score;
}

void perf_command(const char *program, const perf_rule_t *rule, double rtol, double atol,
                  const char *impls, perf_command_t *out)
{
    snprintf(out->cap, sizeof out->cap, "%g", rule->time_cap_s);
    snprintf(out->rtol, sizeof out->rtol, "%.9g", rtol);
    snprintf(out->atol, sizeof out->atol, "%.9g", atol);
    int n = 0;
    out->argv[n++] = (char *)program;
    out->argv[n++] = "--time-cap-s";
    out->argv[n++] = out->cap;
    out->argv[n++] = "--rtol";
    out->argv[n++] = out->rtol;
    out->argv[n++] = "--atol";
    out->argv[n++] = out->atol;
    for (int i = 0; i < rule->nshapes; i++) {
        out->argv[n++] = "--shape";
        out->argv[n++] = (char *)rule->shapes[i];
    }
    if (impls) {
        snprintf(out->impls, sizeof out->impls, "%s", impls);
        out->argv[n++] = "--impl";
        out->argv[n++] = out->impls;
    }
    out->argv[n] = NULL;
}

static const perf_shape_t *shape_named(const perf_result_t *r, const char *shape)
{
    for (int i = 0; i < r->nshapes; i++)
        if (strcmp(r->shapes[i].shape, shape) == 0)
            return &r->shapes[i];
    return NULL;
}

int perf_merge_baseline(perf_result_t *r, const perf_result_t *base, char *err, size_t errlen)
{
    if (strcmp(r->device, base->device) != 0)
        return fail(err, errlen, "the baseline was timed on %s, not %s", base->device, r->device);
    for (int i = 0; i < r->nshapes; i++) {
        perf_shape_t *s = &r->shapes[i];
        const perf_shape_t *b = shape_named(base, s->shape);
        if (!b)
            return fail(err, errlen, "the baseline has no timing of shape %s", s->shape);
        for (int k = 0; k < b->nimpls; k++)
            if (!perf_impl(s, b->impls[k].name) && s->nimpls < PERF_MAX_IMPLS)
                s->impls[s->nimpls++] = b->impls[k];
    }
    r->speed_ratio = perf_speed_ratio(r, PERF_VS_REFERENCE);
    return 0;
}
