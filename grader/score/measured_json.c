/* measured_json.c - measurements.json: a grading's measurement (measured.h)
 * written with json-c and read back with every field checked, so a file
 * that was cut short, edited or written by another format is refused with
 * a message naming it, never half believed. The layout:
 *   {"format": "cugrade-measurements", "version": 1, "cugrade_version",
 *    "lab", "backend", "backend_why", "sandbox", "student_file",
 *    "rubric_run_fields",
 *    "compile": {"compiled", "message", "rule_broken"},
 *    "datasets": [{"name", "folder", "hidden_index", "passed", "message",
 *                  "failure", "error_map" (or null)}],
 *    "cannot_grade": null or why,
 *    "checks": {"measured", "not_run" (null: they ran), "reports": [...]},
 *    "performance": {"measured", "timed", "text", "timing" (or null), and
 *                    when counted "reference_traffic": {"flop", "global_bytes",
 *                    "shared_load_bytes"}},
 *    "notes": [{"key", "text"}], "phase_times", "phases": {"build": 2.1, ...},
 *    "execution_time"}
 * (the reports and the timing: measured_parts.h). */
#include "score/measured.h"
#include "score/jsonio.h"
#include "score/measured_parts.h"
#include "report/results.h"
#include "util/util.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DATASETS 100000

/* ---- writing ------------------------------------------------------------------- */

static json_object *dataset_json(const measured_dataset_t *d)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "name", json_object_new_string(d->name));
    json_object_object_add(o, "folder", json_object_new_string(d->folder));
    json_object_object_add(o, "hidden_index", json_object_new_int(d->hidden_index));
    json_object_object_add(o, "passed", json_object_new_boolean(d->passed));
    json_object_object_add(o, "message", json_object_new_string(d->message ? d->message : ""));
    json_object_object_add(o, "failure", json_object_new_string(d->failure));
    json_object_object_add(o, "error_map", d->error_map ? error_map_to_json(d->error_map) : NULL);
    return o;
}

static json_object *checks_json(const measured_t *m)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "measured", json_object_new_boolean(m->checks_measured));
    json_object_object_add(o, "not_run", jio_string(m->checks_not_run));
    json_object_object_add(o, "reports", evidence_log_to_json(&m->evidence));
    return o;
}

static json_object *perf_json(const measured_perf_t *p)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "measured", json_object_new_boolean(p->measured));
    json_object_object_add(o, "timed", json_object_new_boolean(p->timed));
    if (p->on_gpu)
        json_object_object_add(o, "on_gpu", json_object_new_boolean(1));
    json_object_object_add(o, "text", jio_string(p->text));
    json_object_object_add(o, "timing", p->timed ? perf_result_to_json(&p->result) : NULL);
    if (p->reference_traffic.flop > 0) { /* written only when counted */
        const roofline_traffic_t *t = &p->reference_traffic;
        json_object *r = json_object_new_object();
        json_object_object_add(r, "flop", jio_double(t->flop));
        json_object_object_add(r, "global_bytes", jio_double(t->global_bytes));
        json_object_object_add(r, "shared_load_bytes", jio_double(t->shared_load_bytes));
        json_object_object_add(o, "reference_traffic", r);
    }
    return o;
}

static void add_text(json_object *o, const char *key, const char *s)
{
    json_object_object_add(o, key, json_object_new_string(s ? s : ""));
}

char *measured_to_json(const measured_t *m)
{
    json_object *o = json_object_new_object(), *datasets = json_object_new_array();
    json_object *compile = json_object_new_object(), *notes = json_object_new_array();
    add_text(o, "format", MEASURED_FORMAT);
    json_object_object_add(o, "version", json_object_new_int(MEASURED_VERSION));
    add_text(o, "cugrade_version", m->cugrade_version);
    add_text(o, "lab", m->lab);
    add_text(o, "backend", backend_name(m->backend));
    add_text(o, "backend_why", m->backend_why);
    add_text(o, "sandbox", m->sandbox);
    add_text(o, "student_file", m->student_file);
    add_text(o, "rubric_run_fields", m->rubric_run_fields);
    json_object_object_add(compile, "compiled", json_object_new_boolean(m->compiled));
    add_text(compile, "message", m->compile_message);
    add_text(compile, "rule_broken", m->rule_broken);
    json_object_object_add(o, "compile", compile);
    for (int i = 0; i < m->ndatasets; i++)
        json_object_array_add(datasets, dataset_json(&m->datasets[i]));
    json_object_object_add(o, "datasets", datasets);
    json_object_object_add(o, "cannot_grade", jio_string(m->cannot_grade));
    json_object_object_add(o, "checks", checks_json(m));
    json_object_object_add(o, "performance", perf_json(&m->perf));
    for (int i = 0; i < m->nnotes; i++) {
        json_object *n = json_object_new_object();
        add_text(n, "key", m->notes[i].key);
        add_text(n, "text", m->notes[i].text);
        json_object_array_add(notes, n);
    }
    json_object_object_add(o, "notes", notes);
    add_text(o, "phase_times", m->phase_times);
    json_object *phases = json_object_new_object();
    for (int i = 0; i < m->nphases; i++)
        json_object_object_add(phases, m->phases[i].name, jio_double(m->phases[i].seconds));
    json_object_object_add(o, "phases", phases);
    json_object_object_add(o, "execution_time", jio_double(m->execution_time));
    strbuf_t sb = {0};
    sb_append(&sb, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
                                                         JSON_C_TO_STRING_NOSLASHESCAPE));
    sb_append(&sb, "\n");
    json_object_put(o);
    return sb_detach(&sb);
}

int measured_write(const measured_t *m, const char *path, char *err, size_t errlen)
{
    char *text = measured_to_json(m);
    int rc = write_file_atomic(path, text, strlen(text), err, errlen);
    free(text);
    return rc;
}

/* ---- reading ------------------------------------------------------------------- */

static int dataset_from_json(const cfg_t *c, json_object *o, const char *where, measured_t *m)
{
    static const char *const known[] = {"name", "folder", "hidden_index", "passed", "message",
                                        "failure", "error_map", NULL};
    char name[128], folder[64], failure[128];
    long hidden;
    int passed;
    json_object *map_json;
    if (cfg_require_object(c, o, where) != 0 || cfg_check_keys(c, o, where, known) != 0 ||
        jio_text_of(c, o, where, "name", name, sizeof name) != 0 ||
        jio_text_of(c, o, where, "folder", folder, sizeof folder) != 0 ||
        jio_long_of(c, o, where, "hidden_index", 0, 1L << 20, &hidden) != 0 ||
        jio_bool_of(c, o, where, "passed", &passed) != 0 ||
        jio_text_of(c, o, where, "failure", failure, sizeof failure) != 0 ||
        jio_object_of(c, o, where, "error_map", 1, &map_json) != 0)
        return -1;
    char *message;
    if (jio_strdup_of(c, o, where, "message", 0, &message) != 0)
        return -1;
    error_map_t *map = NULL;
    if (map_json && ((map = malloc(sizeof *map)) == NULL || error_map_from_json(map_json, map) != 0)) {
        free(map);
        free(message);
        return cfg_fail(c, where, "error_map", "malformed");
    }
    measured_add_dataset(m, name, folder, (int)hidden, passed, message, failure, map);
    free(message);
    return 0;
}

static int datasets_from_json(const cfg_t *c, json_object *o, measured_t *m)
{
    json_object *arr;
    int n;
    char at[64];
    if (jio_array_of(c, o, "", "datasets", MAX_DATASETS, &arr, &n) != 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (dataset_from_json(c, json_object_array_get_idx(arr, (size_t)i),
                              jio_index(at, sizeof at, "", "datasets", i), m) != 0)
            return -1;
    return 0;
}

static int compile_from_json(const cfg_t *c, json_object *o, measured_t *m)
{
    static const char *const known[] = {"compiled", "message", "rule_broken", NULL};
    json_object *compile;
    return jio_object_of(c, o, "", "compile", 0, &compile) != 0 ||
                   cfg_check_keys(c, compile, "compile", known) != 0 ||
                   jio_bool_of(c, compile, "compile", "compiled", &m->compiled) != 0 ||
                   jio_strdup_of(c, compile, "compile", "message", 0, &m->compile_message) != 0 ||
                   jio_text_of(c, compile, "compile", "rule_broken", m->rule_broken,
                               sizeof m->rule_broken) != 0
               ? -1
               : 0;
}

static int checks_from_json(const cfg_t *c, json_object *o, measured_t *m)
{
    static const char *const known[] = {"measured", "not_run", "reports", NULL};
    json_object *checks, *reports;
    if (jio_object_of(c, o, "", "checks", 0, &checks) != 0 ||
        cfg_check_keys(c, checks, "checks", known) != 0 ||
        jio_bool_of(c, checks, "checks", "measured", &m->checks_measured) != 0 ||
        jio_strdup_of(c, checks, "checks", "not_run", 1, &m->checks_not_run) != 0)
        return -1;
    if (!json_object_object_get_ex(checks, "reports", &reports))
        return cfg_fail(c, "checks", "reports", "missing");
    return evidence_log_from_json(c, reports, "checks.reports", &m->evidence);
}

static int perf_from_json(const cfg_t *c, json_object *o, measured_t *m)
{
    static const char *const known[] = {"measured", "timed", "on_gpu", "text", "timing",
                                        "reference_traffic", NULL};
    static const char *const traffic_keys[] = {"flop", "global_bytes", "shared_load_bytes", NULL};
    json_object *perf, *timing, *on_gpu, *traffic;
    measured_perf_t *p = &m->perf;
    if (jio_object_of(c, o, "", "performance", 0, &perf) != 0 ||
        cfg_check_keys(c, perf, "performance", known) != 0 ||
        jio_bool_of(c, perf, "performance", "measured", &p->measured) != 0 ||
        jio_bool_of(c, perf, "performance", "timed", &p->timed) != 0 ||
        jio_strdup_of(c, perf, "performance", "text", 1, &p->text) != 0 ||
        jio_object_of(c, perf, "performance", "timing", 1, &timing) != 0)
        return -1;
    if (json_object_object_get_ex(perf, "on_gpu", &on_gpu) && /* written only when set */
        jio_bool_of(c, perf, "performance", "on_gpu", &p->on_gpu) != 0)
        return -1;
    roofline_traffic_t *t = &p->reference_traffic;
    if (json_object_object_get_ex(perf, "reference_traffic", &traffic) && /* written only when counted */
        (cfg_require_object(c, traffic, "performance.reference_traffic") != 0 ||
         cfg_check_keys(c, traffic, "performance.reference_traffic", traffic_keys) != 0 ||
         jio_double_of(c, traffic, "performance.reference_traffic", "flop", &t->flop) != 0 ||
         jio_double_of(c, traffic, "performance.reference_traffic", "global_bytes", &t->global_bytes) != 0 ||
         jio_double_of(c, traffic, "performance.reference_traffic", "shared_load_bytes",
                       &t->shared_load_bytes) != 0))
        return -1;
    if (p->timed != (timing != NULL))
        return cfg_fail(c, "performance", "timing", "must be an object when timed, else null");
    return timing ? perf_result_from_json(c, timing, "performance.timing", &p->result) : 0;
}

static int notes_from_json(const cfg_t *c, json_object *o, measured_t *m)
{
    static const char *const known[] = {"key", "text", NULL};
    json_object *arr;
    int n;
    char at[64], key[32];
    if (jio_array_of(c, o, "", "notes", MEASURED_MAX_NOTES, &arr, &n) != 0)
        return -1;
    for (int i = 0; i < n; i++) {
        json_object *note = json_object_array_get_idx(arr, (size_t)i);
        char *text;
        jio_index(at, sizeof at, "", "notes", i);
        if (cfg_require_object(c, note, at) != 0 || cfg_check_keys(c, note, at, known) != 0 ||
            jio_text_of(c, note, at, "key", key, sizeof key) != 0 ||
            jio_strdup_of(c, note, at, "text", 0, &text) != 0)
            return -1;
        measured_add_note(m, key, text);
        free(text);
    }
    return 0;
}

static int phases_from_json(const cfg_t *c, json_object *o, measured_t *m)
{
    json_object *phases;
    if (jio_object_of(c, o, "", "phases", 0, &phases) != 0)
        return -1;
    if (json_object_object_length(phases) > MEASURED_MAX_PHASES)
        return cfg_fail(c, "", "phases", "more than %d entries", MEASURED_MAX_PHASES);
    json_object_object_foreach(phases, name, value)
    {
        (void)value;
        double seconds;
        if (strlen(name) >= sizeof m->phases[0].name)
            return cfg_fail(c, "phases", name, "name longer than %zu characters",
                            sizeof m->phases[0].name - 1);
        if (jio_double_of(c, phases, "phases", name, &seconds) != 0)
            return -1;
        measured_add_phase(m, name, seconds);
    }
    return 0;
}

/* Who measured what, where: the top-level facts. */
static int facts_from_json(const cfg_t *c, json_object *o, measured_t *m)
{
    char format[64], backend[16];
    long version;
    if (jio_text_of(c, o, "", "format", format, sizeof format) != 0)
        return -1;
    if (strcmp(format, MEASURED_FORMAT) != 0)
        return cfg_fail(c, "", "format", "must be \"%s\", not \"%s\"", MEASURED_FORMAT, format);
    if (jio_long_of(c, o, "", "version", 1, 1000, &version) != 0)
        return -1;
    if (version != MEASURED_VERSION)
        return cfg_fail(c, "", "version", "%ld: this cugrade reads version %d (grade again to "
                        "measure with it)", version, MEASURED_VERSION);
    if (jio_text_of(c, o, "", "cugrade_version", m->cugrade_version, sizeof m->cugrade_version) ||
        jio_text_of(c, o, "", "lab", m->lab, sizeof m->lab) ||
        jio_text_of(c, o, "", "backend", backend, sizeof backend) ||
        jio_text_of(c, o, "", "backend_why", m->backend_why, sizeof m->backend_why) ||
        jio_text_of(c, o, "", "sandbox", m->sandbox, sizeof m->sandbox) ||
        jio_text_of(c, o, "", "student_file", m->student_file, sizeof m->student_file) ||
        jio_strdup_of(c, o, "", "rubric_run_fields", 0, &m->rubric_run_fields) ||
        jio_strdup_of(c, o, "", "cannot_grade", 1, &m->cannot_grade) ||
        jio_strdup_of(c, o, "", "phase_times", 0, &m->phase_times) ||
        jio_double_of(c, o, "", "execution_time", &m->execution_time))
        return -1;
    if (backend_parse(backend, &m->backend) != 0 || m->backend == BACKEND_AUTO)
        return cfg_fail(c, "", "backend", "must be \"emu\", \"vgpu\" or \"native\", not \"%s\"", backend);
    if (m->backend == BACKEND_GPU) /* written before "gpu" meant the executor replayed: the program's */
        m->backend = BACKEND_NATIVE;
    return 0;
}

int measured_parse(const char *name, const char *text, measured_t *m, char *err, size_t errlen)
{
    static const char *const known[] = {
        "format", "version", "cugrade_version", "lab", "backend", "backend_why", "sandbox",
        "student_file", "rubric_run_fields", "compile", "datasets", "cannot_grade", "checks",
        "performance", "notes", "phase_times", "phases", "execution_time", NULL};
    memset(m, 0, sizeof *m);
    json_object *o = cfg_parse_text(name, text, strlen(text), err, errlen);
    if (!o)
        return -1;
    cfg_t c = {.file = name, .err = err, .errlen = errlen};
    int rc = cfg_require_object(&c, o, "") != 0 || cfg_check_keys(&c, o, "", known) != 0 ||
                     facts_from_json(&c, o, m) != 0 || compile_from_json(&c, o, m) != 0 ||
                     datasets_from_json(&c, o, m) != 0 || checks_from_json(&c, o, m) != 0 ||
                     perf_from_json(&c, o, m) != 0 || notes_from_json(&c, o, m) != 0 ||
                     phases_from_json(&c, o, m) != 0
                 ? -1
                 : 0;
    json_object_put(o);
    if (rc != 0)
        measured_free(m);
    return rc;
}

int measured_read(const char *path, measured_t *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    char *text = read_file(path, NULL, err, errlen);
    if (!text)
        return -1;
    int rc = measured_parse(path, text, m, err, errlen);
    free(text);
    return rc;
}
