/* measured_parts_json.c - the two larger parts of measurements.json, both
 * ways: the performance timing (a whole perf_result_t, every field, so
 * perf_score gets back what it got when the timing was taken) and the
 * checks' reports (label, findings, statistics and FLOP of each, so
 * evidence_add can be replayed). measured_parts.h says what they look like. */
#include "score/measured_parts.h"
#include "score/jsonio.h"
#include "util/util.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FINDINGS EMU_REPORT_MAX_FINDINGS /* what emu_report_read keeps at most */
#define MAX_STATS EMU_REPORT_MAX_STATS

/* ---- the timing ---------------------------------------------------------------- */

static json_object *impl_json(const perf_impl_t *im)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "name", json_object_new_string(im->name));
    json_object_object_add(o, "median_ms", jio_double(im->median_ms));
    json_object_object_add(o, "mean_ms", jio_double(im->mean_ms));
    json_object_object_add(o, "rse", jio_double(im->rse));
    if (im->q1_ms > 0)
        json_object_object_add(o, "q1_ms", jio_double(im->q1_ms));
    json_object_object_add(o, "rate", jio_double(im->rate));
    json_object_object_add(o, "reps", json_object_new_int(im->reps));
    json_object_object_add(o, "wrong", json_object_new_int64(im->wrong));
    if (im->gate != PERF_GATE_UNKNOWN)
        json_object_object_add(o, "gated", json_object_new_boolean(im->gate == PERF_GATED));
    if (im->has_wrong_reps)
        json_object_object_add(o, "wrong_reps", json_object_new_int(im->wrong_reps));
    return o;
}

static json_object *shape_json(const perf_shape_t *s)
{
    json_object *o = json_object_new_object(), *impls = json_object_new_array();
    json_object_object_add(o, "shape", json_object_new_string(s->shape));
    json_object_object_add(o, "copy_gbs", jio_double(s->copy_gbs));
    for (int i = 0; i < s->nimpls; i++)
        json_object_array_add(impls, impl_json(&s->impls[i]));
    json_object_object_add(o, "impls", impls);
    return o;
}

json_object *perf_result_to_json(const perf_result_t *r)
{
    json_object *o = json_object_new_object(), *shapes = json_object_new_array();
    json_object_object_add(o, "device", json_object_new_string(r->device));
    json_object_object_add(o, "sm_clock_mhz", jio_double(r->sm_clock_mhz));
    json_object_object_add(o, "bandwidth_gbs", jio_double(r->bandwidth_gbs));
    json_object_object_add(o, "l2_bytes", json_object_new_int64(r->l2_bytes));
    json_object_object_add(o, "sms", json_object_new_int(r->sms));
    json_object_object_add(o, "driver_version", json_object_new_int(r->driver_version));
    json_object_object_add(o, "runtime_version", json_object_new_int(r->runtime_version));
    if (r->cc_major > 0) {
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", r->cc_major, r->cc_minor);
        json_object_object_add(o, "compute_capability", json_object_new_string(cc));
    }
    json_object_object_add(o, "speed_ratio", jio_double(r->speed_ratio));
    for (int i = 0; i < r->nshapes; i++)
        json_object_array_add(shapes, shape_json(&r->shapes[i]));
    json_object_object_add(o, "shapes", shapes);
    return o;
}

static int impl_from_json(const cfg_t *c, json_object *o, const char *where, perf_impl_t *im)
{
    static const char *const known[] = {"name", "median_ms", "mean_ms", "rse", "q1_ms", "rate",
                                        "reps", "wrong", "gated", "wrong_reps", NULL};
    long reps, wrong, wrong_reps = 0;
    int gated = 0;
    im->q1_ms = 0; /* absent: measured before the first quartile was */
    if (cfg_require_object(c, o, where) != 0 || cfg_check_keys(c, o, where, known) != 0 ||
        jio_text_of(c, o, where, "name", im->name, sizeof im->name) != 0 ||
        jio_double_of(c, o, where, "median_ms", &im->median_ms) != 0 ||
        jio_double_of(c, o, where, "mean_ms", &im->mean_ms) != 0 ||
        jio_double_of(c, o, where, "rse", &im->rse) != 0 ||
        jio_double_of(c, o, where, "rate", &im->rate) != 0 ||
        jio_long_of(c, o, where, "reps", 0, 1L << 30, &reps) != 0 ||
        jio_long_of(c, o, where, "wrong", 0, 1L << 62, &wrong) != 0 ||
        (json_object_object_get_ex(o, "q1_ms", NULL) &&
         jio_double_of(c, o, where, "q1_ms", &im->q1_ms) != 0) ||
        (json_object_object_get_ex(o, "gated", NULL) &&
         jio_bool_of(c, o, where, "gated", &gated) != 0) ||
        (json_object_object_get_ex(o, "wrong_reps", NULL) &&
         jio_long_of(c, o, where, "wrong_reps", 0, reps, &wrong_reps) != 0))
        return -1;
    im->has_wrong_reps = json_object_object_get_ex(o, "wrong_reps", NULL);
    im->wrong_reps = (int)wrong_reps;
    im->gate = !json_object_object_get_ex(o, "gated", NULL) ? PERF_GATE_UNKNOWN
               : gated                                      ? PERF_GATED
                                                            : PERF_UNGATED;
    im->reps = (int)reps;
    im->wrong = wrong;
    return 0;
}

static int shape_from_json(const cfg_t *c, json_object *o, const char *where, perf_shape_t *s)
{
    static const char *const known[] = {"shape", "copy_gbs", "impls", NULL};
    json_object *impls;
    char at[128];
    if (cfg_require_object(c, o, where) != 0 || cfg_check_keys(c, o, where, known) != 0 ||
        jio_text_of(c, o, where, "shape", s->shape, sizeof s->shape) != 0 ||
        jio_double_of(c, o, where, "copy_gbs", &s->copy_gbs) != 0 ||
        jio_array_of(c, o, where, "impls", PERF_MAX_IMPLS, &impls, &s->nimpls) != 0)
        return -1;
    for (int i = 0; i < s->nimpls; i++)
        if (impl_from_json(c, json_object_array_get_idx(impls, (size_t)i),
                           jio_index(at, sizeof at, where, "impls", i), &s->impls[i]) != 0)
            return -1;
    return 0;
}

int perf_result_from_json(const cfg_t *c, json_object *o, const char *where, perf_result_t *r)
{
    static const char *const known[] = {"device", "sm_clock_mhz", "bandwidth_gbs", "l2_bytes",
                                        "sms", "driver_version", "runtime_version",
                                        "speed_ratio", "shapes", "compute_capability", NULL};
    json_object *shapes;
    long l2, sms, driver, runtime;
    char at[128];
    memset(r, 0, sizeof *r);
    if (cfg_require_object(c, o, where) != 0 || cfg_check_keys(c, o, where, known) != 0 ||
        jio_text_of(c, o, where, "device", r->device, sizeof r->device) != 0 ||
        jio_double_of(c, o, where, "sm_clock_mhz", &r->sm_clock_mhz) != 0 ||
        jio_double_of(c, o, where, "bandwidth_gbs", &r->bandwidth_gbs) != 0 ||
        jio_long_of(c, o, where, "l2_bytes", 0, 1L << 62, &l2) != 0 ||
        jio_long_of(c, o, where, "sms", 0, 1L << 30, &sms) != 0 ||
        jio_long_of(c, o, where, "driver_version", 0, 1L << 30, &driver) != 0 ||
        jio_long_of(c, o, where, "runtime_version", 0, 1L << 30, &runtime) != 0 ||
        jio_double_of(c, o, where, "speed_ratio", &r->speed_ratio) != 0 ||
        jio_array_of(c, o, where, "shapes", PERF_MAX_SHAPES, &shapes, &r->nshapes) != 0)
        return -1;
    json_object *cc;
    if (json_object_object_get_ex(o, "compute_capability", &cc)) { /* written since the roofline */
        perf_set_compute_capability(r, json_object_get_string(cc));
        if (r->cc_major == 0)
            return cfg_fail(c, where, "compute_capability", "must be a text like \"9.0\"");
    }
    r->l2_bytes = l2;
    r->sms = (int)sms;
    r->driver_version = (int)driver;
    r->runtime_version = (int)runtime;
    for (int i = 0; i < r->nshapes; i++)
        if (shape_from_json(c, json_object_array_get_idx(shapes, (size_t)i),
                            jio_index(at, sizeof at, where, "shapes", i), &r->shapes[i]) != 0)
            return -1;
    return 0;
}

/* ---- the checks' reports ----------------------------------------------------------- */

static json_object *report_json(const evidence_run_t *run)
{
    json_object *o = json_object_new_object(), *findings = json_object_new_array();
    json_object *stats = json_object_new_object();
    json_object_object_add(o, "label", json_object_new_string(run->label));
    json_object_object_add(o, "flop", jio_double(run->flop));
    for (int i = 0; i < run->report.nfindings; i++) {
        const emu_finding_t *f = &run->report.findings[i];
        json_object *fo = json_object_new_object();
        json_object_object_add(fo, "severity", json_object_new_string(f->severity));
        json_object_object_add(fo, "kind", json_object_new_string(f->kind));
        json_object_object_add(fo, "message", json_object_new_string(f->message));
        json_object_array_add(findings, fo);
    }
    for (int i = 0; i < run->report.nstats; i++)
        json_object_object_add(stats, run->report.stats[i].key, jio_double(run->report.stats[i].value));
    json_object_object_add(o, "findings", findings);
    json_object_object_add(o, "stats", stats);
    if (run->report.refused)
        json_object_object_add(o, "refused", json_object_new_string(run->report.refused_why));
    return o;
}

json_object *evidence_log_to_json(const evidence_log_t *log)
{
    json_object *a = json_object_new_array();
    for (int i = 0; i < log->n; i++)
        json_object_array_add(a, report_json(&log->runs[i]));
    return a;
}

static int finding_from_json(const cfg_t *c, json_object *o, const char *where, emu_finding_t *f)
{
    static const char *const known[] = {"severity", "kind", "message", NULL};
    return cfg_require_object(c, o, where) != 0 || cfg_check_keys(c, o, where, known) != 0 ||
                   jio_text_of(c, o, where, "severity", f->severity, sizeof f->severity) != 0 ||
                   jio_text_of(c, o, where, "kind", f->kind, sizeof f->kind) != 0 ||
                   jio_strdup_of(c, o, where, "message", 0, &f->message) != 0
               ? -1
               : 0;
}

static int stats_from_json(const cfg_t *c, json_object *o, const char *where, emu_report_t *r)
{
    json_object *stats;
    if (jio_object_of(c, o, where, "stats", 0, &stats) != 0)
        return -1;
    int n = json_object_object_length(stats);
    if (n > MAX_STATS)
        return cfg_fail(c, where, "stats", "more than %d entries", MAX_STATS);
    char at[256];
    snprintf(at, sizeof at, "%s.stats", where);
    json_object_object_foreach(stats, key, value)
    {
        (void)value;
        double v;
        if (strlen(key) >= sizeof r->stats[0].key)
            return cfg_fail(c, at, key, "name longer than %zu characters",
                            sizeof r->stats[0].key - 1);
        if (jio_double_of(c, stats, at, key, &v) != 0)
            return -1;
        emu_report_add_stat(r, key, v); /* n <= MAX_STATS: never refused */
    }
    return 0;
}

/* A refused report's "refused": why (emureport.h); it keeps nothing else. */
static int refusal_from_json(const cfg_t *c, json_object *o, const char *where, emu_report_t *r)
{
    char why[sizeof r->refused_why];
    if (jio_text_of(c, o, where, "refused", why, sizeof why) != 0)
        return -1;
    emu_report_refuse(r, why);
    return 0;
}

/* One report into run (which the caller frees, whole or half read). */
static int report_from_json(const cfg_t *c, json_object *o, const char *where, evidence_run_t *run)
{
    static const char *const known[] = {"label", "flop", "findings", "stats", "refused", NULL};
    json_object *findings;
    int n;
    char at[256];
    if (cfg_require_object(c, o, where) != 0 || cfg_check_keys(c, o, where, known) != 0 ||
        jio_strdup_of(c, o, where, "label", 0, &run->label) != 0 ||
        jio_double_of(c, o, where, "flop", &run->flop) != 0 ||
        jio_array_of(c, o, where, "findings", MAX_FINDINGS, &findings, &n) != 0)
        return -1;
    run->report.findings = calloc((size_t)n + 1, sizeof *run->report.findings);
    if (!run->report.findings)
        return cfg_fail(c, where, "findings", "out of memory");
    run->report.findings_cap = n + 1;
    for (int i = 0; i < n; i++) {
        run->report.nfindings++; /* freed with the report even when half read */
        if (finding_from_json(c, json_object_array_get_idx(findings, (size_t)i),
                              jio_index(at, sizeof at, where, "findings", i),
                              &run->report.findings[i]) != 0)
            return -1;
    }
    if (stats_from_json(c, o, where, &run->report) != 0)
        return -1;
    return json_object_object_get_ex(o, "refused", NULL) ? refusal_from_json(c, o, where, &run->report)
                                                         : 0;
}

int evidence_log_from_json(const cfg_t *c, json_object *arr, const char *where, evidence_log_t *log)
{
    char at[128];
    memset(log, 0, sizeof *log);
    if (!json_object_is_type(arr, json_type_array))
        return cfg_fail(c, where, NULL, "must be an array [ ... ]");
    int n = (int)json_object_array_length(arr);
    log->runs = calloc((size_t)n + 1, sizeof *log->runs);
    if (!log->runs)
        return cfg_fail(c, where, NULL, "out of memory");
    log->cap = n + 1;
    for (int i = 0; i < n; i++) {
        log->n++;
        snprintf(at, sizeof at, "%s[%d]", where, i);
        if (report_from_json(c, json_object_array_get_idx(arr, (size_t)i), at, &log->runs[i]) != 0)
            return -1;
    }
    return 0;
}
