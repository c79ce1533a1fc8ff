/* rubric.c - loads one lab's grading rubric (points, visibility, time limits)
 * from rubric.json and validates it strictly: a typo in a key or a value
 * must stop the grader with a message naming the field, never silently
 * change a grade. */
#include "course/rubric.h"

#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course/config.h"
#include "util/util.h"

#define DEFAULT_COMPILE_NAME "compiles"
#define MAX_TIME_LIMIT_S 3600.0
#define VISIBILITY_CHOICES "visible, hidden, after_due_date or after_published"

static const char *const visibility_names[] = {"visible", "hidden", "after_due_date",
                                               "after_published"};

const char *visibility_name(visibility_t v)
{
    if ((int)v < 0 || v > VIS_AFTER_PUBLISHED)
        return "visible";
    return visibility_names[v];
}

int visibility_parse(const char *s, visibility_t *out)
{
    for (int v = VIS_VISIBLE; v <= VIS_AFTER_PUBLISHED; v++) {
        if (strcmp(s, visibility_names[v]) == 0) {
            *out = (visibility_t)v;
            return 0;
        }
    }
    return -1;
}

/* ---- rubric fields ---------------------------------------------------------------- */

/* dst = where "." key; a path too long for dst is cut short (it only
 * appears in messages). */
static void subpath(char *dst, size_t len, const char *where, const char *key)
{
    int n = snprintf(dst, len, "%s%s%s", where, *where ? "." : "", key);
    if (n < 0 || (size_t)n >= len)
        dst[len - 1] = '\0';
}

static int read_points(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                       double *out)
{
    struct json_object *v = cfg_member(obj, key);
    if (v && (!cfg_number(v, out) || !(*out >= 0)))
        return cfg_fail(c, where, key, "must be a non-negative number");
    return 0;
}

static int read_visibility(const cfg_t *c, struct json_object *obj, const char *where,
                           visibility_t *out)
{
    struct json_object *v = cfg_member(obj, "visibility");
    if (!v)
        return 0;
    if (!json_object_is_type(v, json_type_string))
        return cfg_fail(c, where, "visibility", "must be a string: " VISIBILITY_CHOICES);
    if (visibility_parse(json_object_get_string(v), out) != 0)
        return cfg_fail(c, where, "visibility",
                        "unknown visibility '%s' (use " VISIBILITY_CHOICES ")",
                        json_object_get_string(v));
    return 0;
}

static int read_time_limit(const cfg_t *c, struct json_object *obj, const char *where, double *out)
{
    struct json_object *v = cfg_member(obj, "time_limit_s");
    if (v && (!cfg_number(v, out) || !(*out > 0 && *out <= MAX_TIME_LIMIT_S)))
        return cfg_fail(c, where, "time_limit_s", "must be a number of seconds > 0 and <= %g",
                        MAX_TIME_LIMIT_S);
    return 0;
}

static int read_seconds(const cfg_t *c, struct json_object *obj, const char *where,
                        const char *key, double max, double *out)
{
    struct json_object *v = cfg_member(obj, key);
    if (v && (!cfg_number(v, out) || !(*out > 0 && *out <= max)))
        return cfg_fail(c, where, key, "must be a number of seconds > 0 and <= %g", max);
    return 0;
}

/* "timeouts_max": a whole number from 0 (never) up. */
static int read_timeouts_max(const cfg_t *c, struct json_object *obj, const char *where, int *out)
{
    struct json_object *v = cfg_member(obj, "timeouts_max");
    if (!v)
        return 0;
    if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0 ||
        json_object_get_int64(v) > RUBRIC_TIMEOUTS_MAX_LIMIT)
        return cfg_fail(c, where, "timeouts_max", "must be a whole number from 0 (every dataset "
                        "runs, however many time out) to %d", RUBRIC_TIMEOUTS_MAX_LIMIT);
    *out = (int)json_object_get_int64(v);
    return 0;
}

static int read_budget(const cfg_t *c, struct json_object *obj, const char *where,
                       lab_rubric_t *out)
{
    return read_seconds(c, obj, where, "budget_s", 20 * MAX_TIME_LIMIT_S, &out->budget_s) ||
           read_seconds(c, obj, where, "gpu_time_limit_s", MAX_TIME_LIMIT_S,
                        &out->gpu_time_limit_s) ||
           read_seconds(c, obj, where, "gpu_budget_s", 20 * MAX_TIME_LIMIT_S, &out->gpu_budget_s) ||
           read_timeouts_max(c, obj, where, &out->timeouts_max)
               ? -1
               : 0;
}

static int parse_compile(const cfg_t *c, struct json_object *obj, const char *where,
                         lab_rubric_t *out)
{
    static const char *const known[] = {"name", "points", "visibility", NULL};
    if (cfg_require_object(c, obj, where) != 0 || cfg_check_keys(c, obj, where, known) != 0)
        return -1;
    if (cfg_string(c, obj, where, "name", out->compile_name, sizeof out->compile_name) < 0 ||
        read_points(c, obj, where, "points", &out->compile_points) != 0 ||
        read_visibility(c, obj, where, &out->compile_visibility) != 0)
        return -1;
    return 0;
}

/* points / visibility / time_limit_s of a dataset rule, over the defaults
 * already in *rule. */
static int parse_rule(const cfg_t *c, struct json_object *obj, const char *where,
                      dataset_rule_t *rule)
{
    if (read_points(c, obj, where, "points", &rule->points) != 0 ||
        read_visibility(c, obj, where, &rule->visibility) != 0 ||
        read_time_limit(c, obj, where, &rule->time_limit_s) != 0)
        return -1;
    return 0;
}

static int parse_override(const cfg_t *c, const char *name, struct json_object *obj,
                          const char *where, lab_rubric_t *out)
{
    static const char *const known[] = {"points", "visibility", "time_limit_s", NULL};
    char path[256];
    subpath(path, sizeof path, where, name);
    if (cfg_require_object(c, obj, path) != 0 || cfg_check_keys(c, obj, path, known) != 0)
        return -1;
    if (strlen(name) == 0 || strlen(name) >= sizeof out->overrides[0].name)
        return cfg_fail(c, path, NULL, "dataset name must be 1 to %zu characters",
                        sizeof out->overrides[0].name - 1);
    if (out->datasets_total_given && cfg_member(obj, "points"))
        return cfg_fail(c, path, "points",
                        "not allowed with datasets.total (the total is split evenly)");
    dataset_override_t *o = &out->overrides[out->noverrides];
    snprintf(o->name, sizeof o->name, "%s", name);
    o->rule = out->datasets;
    if (parse_rule(c, obj, path, &o->rule) != 0)
        return -1;
    out->noverrides++;
    return 0;
}

static int parse_overrides(const cfg_t *c, struct json_object *obj, const char *where,
                           lab_rubric_t *out)
{
    if (cfg_require_object(c, obj, where) != 0)
        return -1;
    size_t n = (size_t)json_object_object_length(obj);
    out->overrides = calloc(n ? n : 1, sizeof *out->overrides);
    if (!out->overrides)
        return cfg_fail(c, where, NULL, "out of memory");
    json_object_object_foreach(obj, name, val)
    {
        if (parse_override(c, name, val, where, out) != 0)
            return -1;
    }
    return 0;
}

/* Exactly one of "points" (per dataset) and "total" (split evenly). */
static int parse_points_or_total(const cfg_t *c, struct json_object *obj, const char *where,
                                 lab_rubric_t *out)
{
    int has_points = cfg_member(obj, "points") != NULL;
    int has_total = cfg_member(obj, "total") != NULL;
    if (has_points && has_total)
        return cfg_fail(c, where, NULL,
                        "give either \"points\" (per dataset) or \"total\", not both");
    if (!has_points && !has_total)
        return cfg_fail(c, where, NULL, "needs \"points\" (per dataset) or \"total\"");
    out->datasets_total_given = has_total;
    return has_total ? read_points(c, obj, where, "total", &out->datasets_total)
                     : read_points(c, obj, where, "points", &out->datasets.points);
}

static int parse_datasets(const cfg_t *c, struct json_object *obj, const char *where,
                          lab_rubric_t *out)
{
    static const char *const known[] = {"points",    "total",     "visibility", "time_limit_s",
                                        "budget_s", "gpu_time_limit_s", "gpu_budget_s",
                                        "timeouts_max", "overrides", NULL};
    if (cfg_require_object(c, obj, where) != 0 || cfg_check_keys(c, obj, where, known) != 0 ||
        parse_points_or_total(c, obj, where, out) != 0 ||
        read_visibility(c, obj, where, &out->datasets.visibility) != 0 ||
        read_time_limit(c, obj, where, &out->datasets.time_limit_s) != 0 ||
        read_budget(c, obj, where, out) != 0)
        return -1;
    struct json_object *ov = cfg_member(obj, "overrides");
    if (ov) {
        char path[256];
        subpath(path, sizeof path, where, "overrides");
        return parse_overrides(c, ov, path, out);
    }
    return 0;
}

/* In check_id_t order; NULL-terminated for cfg_check_keys. */
static const char *const check_names[CHECK_COUNT + 1] = {
    "race-free", "barriers-uniform", "memory-safe", "uses-shared-memory", "traffic-reduced", "uses-constant-memory",
    NULL};

const char *check_name(check_id_t id)
{
    return (int)id >= 0 && id < CHECK_COUNT ? check_names[id] : "?";
}

static int parse_check(const cfg_t *c, struct json_object *obj, const char *where, check_id_t id,
                       check_rule_t *rule)
{
    static const char *const known[] = {"points", "visibility", NULL};
    static const char *const known_traffic[] = {"points", "visibility", "max_bytes_per_flop", NULL};
    int traffic = id == CHECK_TRAFFIC_REDUCED;
    if (cfg_require_object(c, obj, where) != 0 ||
        cfg_check_keys(c, obj, where, traffic ? known_traffic : known) != 0 ||
        read_points(c, obj, where, "points", &rule->points) != 0 ||
        read_visibility(c, obj, where, &rule->visibility) != 0)
        return -1;
    if (traffic) {
        struct json_object *v = cfg_member(obj, "max_bytes_per_flop");
        if (!v)
            return cfg_fail(c, where, "max_bytes_per_flop", "missing (required)");
        if (!cfg_number(v, &rule->max_bytes_per_flop) || !(rule->max_bytes_per_flop > 0))
            return cfg_fail(c, where, "max_bytes_per_flop", "must be a number > 0");
    }
    rule->present = 1;
    return 0;
}

static int parse_checks(const cfg_t *c, struct json_object *obj, const char *where,
                        lab_rubric_t *out)
{
    if (cfg_require_object(c, obj, where) != 0 || cfg_check_keys(c, obj, where, check_names) != 0)
        return -1;
    for (int id = 0; id < CHECK_COUNT; id++) {
        struct json_object *v = cfg_member(obj, check_names[id]);
        char path[256];
        subpath(path, sizeof path, where, check_names[id]);
        if (v && parse_check(c, v, path, (check_id_t)id, &out->checks[id]) != 0)
            return -1;
    }
    return 0;
}

/* "4096x4096x4096", "67108864": positive integers joined by "x"; what the
 * numbers mean is the lab kind's timing program's. */
static int is_shape(const char *s)
{
    for (;;) {
        if (*s < '1' || *s > '9')
            return 0;
        s += strspn(s, "0123456789");
        if (*s == '\0')
            return 1;
        if (*s++ != 'x')
            return 0;
    }
}

static int parse_perf_shapes(const cfg_t *c, struct json_object *obj, const char *where,
                             perf_rule_t *rule)
{
    struct json_object *v = cfg_member(obj, "shapes");
    if (!v || !json_object_is_type(v, json_type_array) || json_object_array_length(v) == 0 ||
        json_object_array_length(v) > PERF_MAX_SHAPES)
        return cfg_fail(c, where, "shapes", "must be a list of 1 to %d shapes (\"MxKxN\", \"N\")",
                        PERF_MAX_SHAPES);
    for (size_t i = 0; i < json_object_array_length(v); i++) {
        struct json_object *e = json_object_array_get_idx(v, i);
        const char *text = json_object_is_type(e, json_type_string) ? json_object_get_string(e) : "";
        if (!is_shape(text) || strlen(text) >= sizeof rule->shapes[0])
            return cfg_fail(c, where, "shapes", "entry %zu is not a shape (positive integers "
                            "joined by x: \"MxKxN\" for matmul, \"N\" for a reduction)", i);
        snprintf(rule->shapes[rule->nshapes++], sizeof rule->shapes[0], "%s", text);
    }
    return 0;
}

static int read_positive(const cfg_t *c, struct json_object *obj, const char *where,
                         const char *key, double *out)
{
    struct json_object *v = cfg_member(obj, key);
    if (!v)
        return cfg_fail(c, where, key, "missing (required)");
    if (!cfg_number(v, out) || !(*out > 0))
        return cfg_fail(c, where, key, "must be a number > 0");
    return 0;
}

const char *perf_relative_name(perf_relative_t r)
{
    return r == PERF_VS_CUBLAS ? "cublas" : "reference";
}

/* "relative_to": "reference" (default) or "cublas". */
static int read_relative_to(const cfg_t *c, struct json_object *obj, const char *where,
                            perf_rule_t *rule)
{
    char name[16];
    int rc = cfg_string(c, obj, where, "relative_to", name, sizeof name);
    rule->relative_to = PERF_VS_REFERENCE;
    if (rc <= 0)
        return rc;
    if (strcmp(name, "cublas") == 0)
        rule->relative_to = PERF_VS_CUBLAS;
    else if (strcmp(name, "reference") != 0)
        return cfg_fail(c, where, "relative_to", "must be \"reference\" (the lab's reference "
                        "kernel) or \"cublas\" (cuBLAS FP32), not '%s'", name);
    return 0;
}

static int parse_performance(const cfg_t *c, struct json_object *obj, const char *where,
                             perf_rule_t *rule)
{
    static const char *const known[] = {"points", "visibility", "shapes", "zero_at", "full_at",
                                        "time_cap_s", "relative_to", NULL};
    if (cfg_require_object(c, obj, where) != 0)
        return -1;
    if (json_object_object_length(obj) == 0)
        return 0; /* {} : no performance test */
    rule->time_cap_s = 30;
    if (cfg_check_keys(c, obj, where, known) != 0 ||
        read_points(c, obj, where, "points", &rule->points) != 0 ||
        read_visibility(c, obj, where, &rule->visibility) != 0 ||
        parse_perf_shapes(c, obj, where, rule) != 0 ||
        read_positive(c, obj, where, "zero_at", &rule->zero_at) != 0 ||
        read_positive(c, obj, where, "full_at", &rule->full_at) != 0 ||
        read_relative_to(c, obj, where, rule) != 0)
        return -1;
    if (cfg_member(obj, "time_cap_s") && read_positive(c, obj, where, "time_cap_s", &rule->time_cap_s) != 0)
        return -1;
    if (!(rule->zero_at < rule->full_at))
        return cfg_fail(c, where, "full_at", "must be greater than zero_at");
    rule->present = 1;
    return 0;
}

/* "hidden": { "count": 8, "points": 2.5 | "total": 20, "visibility": ... } */
static int parse_hidden(const cfg_t *c, struct json_object *obj, const char *where,
                        hidden_rule_t *rule)
{
    static const char *const known[] = {"count", "points", "total", "visibility", NULL};
    if (cfg_require_object(c, obj, where) != 0 || cfg_check_keys(c, obj, where, known) != 0)
        return -1;
    struct json_object *count = cfg_member(obj, "count");
    if (count && (!json_object_is_type(count, json_type_int) ||
                  json_object_get_int64(count) < 0 ||
                  json_object_get_int64(count) > HIDDEN_MAX_COUNT))
        return cfg_fail(c, where, "count", "must be a whole number from 0 (no hidden datasets) "
                        "to %d", HIDDEN_MAX_COUNT);
    if (count)
        rule->count = (int)json_object_get_int64(count);
    rule->points_given = cfg_member(obj, "points") != NULL;
    rule->total_given = cfg_member(obj, "total") != NULL;
    if (rule->points_given && rule->total_given)
        return cfg_fail(c, where, NULL, "give either \"points\" (per hidden dataset) or "
                        "\"total\", not both");
    if (read_points(c, obj, where, "points", &rule->points) != 0 ||
        read_points(c, obj, where, "total", &rule->total) != 0)
        return -1;
    rule->visibility_given = cfg_member(obj, "visibility") != NULL;
    return read_visibility(c, obj, where, &rule->visibility);
}

static int parse_lab(const cfg_t *c, struct json_object *obj, const char *where, lab_rubric_t *out)
{
    static const char *const known[] = {"compile", "datasets", "hidden", "checks", "performance",
                                        NULL};
    if (cfg_require_object(c, obj, where) != 0 || cfg_check_keys(c, obj, where, known) != 0)
        return -1;
    char path[256];
    struct json_object *compile = cfg_member(obj, "compile");
    subpath(path, sizeof path, where, "compile");
    if (compile && parse_compile(c, compile, path, out) != 0)
        return -1;
    struct json_object *datasets = cfg_member(obj, "datasets");
    if (!datasets)
        return cfg_fail(c, where, "datasets", "missing (required)");
    subpath(path, sizeof path, where, "datasets");
    if (parse_datasets(c, datasets, path, out) != 0)
        return -1;
    struct json_object *hidden = cfg_member(obj, "hidden");
    subpath(path, sizeof path, where, "hidden");
    if (hidden && parse_hidden(c, hidden, path, &out->hidden) != 0)
        return -1;
    struct json_object *checks = cfg_member(obj, "checks");
    subpath(path, sizeof path, where, "checks");
    if (checks && parse_checks(c, checks, path, out) != 0)
        return -1;
    struct json_object *perf = cfg_member(obj, "performance");
    subpath(path, sizeof path, where, "performance");
    if (perf && parse_performance(c, perf, path, &out->performance) != 0)
        return -1;
    return 0;
}

static int check_version(const cfg_t *c, struct json_object *root)
{
    struct json_object *v = cfg_member(root, "version");
    if (v && !(json_object_is_type(v, json_type_int) && json_object_get_int64(v) == 1))
        return cfg_fail(c, NULL, "version", "must be 1 (the only format this grader reads)");
    return 0;
}

static int missing_lab(const cfg_t *c, struct json_object *labs, const char *lab)
{
    strbuf_t names = {0};
    json_object_object_foreach(labs, name, val)
    {
        (void)val;
        sb_appendf(&names, "%s%s", names.len ? ", " : "", name);
    }
    cfg_fail(c, NULL, NULL, "no rubric for lab '%s' (%s%s)", lab,
             names.len ? "labs has: " : "labs is empty", sb_str(&names));
    sb_free(&names);
    return -1;
}

static int parse_root(const cfg_t *c, struct json_object *root, const char *lab, lab_rubric_t *out)
{
    static const char *const known[] = {"version", "labs", NULL};
    if (cfg_require_object(c, root, "top level") != 0 || cfg_check_keys(c, root, "", known) != 0 ||
        check_version(c, root) != 0)
        return -1;
    struct json_object *labs = cfg_member(root, "labs");
    if (!labs)
        return cfg_fail(c, NULL, "labs", "missing (required)");
    if (cfg_require_object(c, labs, "labs") != 0)
        return -1;
    struct json_object *entry = cfg_member(labs, lab);
    if (!entry)
        return missing_lab(c, labs, lab);
    char where[128];
    subpath(where, sizeof where, "labs", lab);
    return parse_lab(c, entry, where, out);
}

static void set_defaults(lab_rubric_t *out, const char *lab)
{
    memset(out, 0, sizeof *out);
    snprintf(out->lab, sizeof out->lab, "%s", lab);
    snprintf(out->compile_name, sizeof out->compile_name, "%s", DEFAULT_COMPILE_NAME);
    out->compile_visibility = VIS_VISIBLE;
    out->datasets.visibility = VIS_VISIBLE;
    out->datasets.time_limit_s = 0; /* not set: the lab manifest's limit applies */
    out->hidden.count = HIDDEN_DEFAULT_COUNT;
    out->timeouts_max = RUBRIC_TIMEOUTS_UNSET;
}

int rubric_load(const char *path, const char *lab, lab_rubric_t *out, char *err, size_t errlen)
{
    set_defaults(out, lab);
    if (strlen(lab) == 0 || strlen(lab) >= sizeof out->lab)
        return fail(err, errlen, "%s: bad lab name '%s'", path, lab);
    size_t len = 0;
    char *text = read_file(path, &len, err, errlen);
    struct json_object *root = text ? cfg_parse_text(path, text, len, err, errlen) : NULL;
    if (!root) {
        free(text);
        return -1;
    }
    cfg_t c = {path, err, errlen, text};
    int rc = parse_root(&c, root, lab, out);
    json_object_put(root);
    free(text);
    if (rc != 0)
        rubric_free(out);
    return rc;
}

dataset_rule_t rubric_dataset_rule(const lab_rubric_t *r, const char *dataset_name, int ndatasets)
{
    dataset_rule_t rule = r->datasets;
    for (int i = 0; i < r->noverrides; i++)
        if (strcmp(r->overrides[i].name, dataset_name) == 0)
            rule = r->overrides[i].rule;
    if (r->datasets_total_given)
        rule.points = ndatasets > 0 ? r->datasets_total / ndatasets : 0;
    return rule;
}

dataset_rule_t rubric_hidden_rule(const lab_rubric_t *r, int npublic)
{
    const hidden_rule_t *h = &r->hidden;
    dataset_rule_t rule = r->datasets;
    if (r->datasets_total_given)
        rule.points = npublic > 0 ? r->datasets_total / npublic : 0;
    if (h->points_given)
        rule.points = h->points;
    else if (h->total_given)
        rule.points = h->count > 0 ? h->total / h->count : 0;
    if (h->visibility_given)
        rule.visibility = h->visibility;
    return rule;
}

void rubric_free(lab_rubric_t *r)
{
    free(r->overrides);
    r->overrides = NULL;
    r->noverrides = 0;
}

int rubric_has_checks(const lab_rubric_t *rub)
{
    for (int id = 0; id < CHECK_COUNT; id++)
        if (rub->checks[id].present)
            return 1;
    return 0;
}
