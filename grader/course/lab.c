/* lab.c - loads and validates a lab manifest, labs/<name>/lab.json: what
 * the student writes, which driver owns the host side, how many inputs a
 * dataset has and how outputs are compared. Every rejection names the file
 * and the field, with its line, in the same form as rubric.json errors. */
#include "course/lab.h"

#include <dirent.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build/rules.h"
#include "course/config.h"
#include "kinds/kind.h"
#include "util/util.h"

#define DEFAULT_TIME_LIMIT_S 30.0
#define MAX_TIME_LIMIT_S 3600.0
#define MAX_INPUTS 8
#define MAX_TILE_WIDTH 1024

/* A single path component: no "/", not "." or "..". */
static int is_plain_name(const char *s)
{
    return *s && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

static int read_int(const cfg_t *c, struct json_object *obj, const char *key, int lo, int hi,
                    int *out)
{
    struct json_object *v = cfg_member(obj, key);
    if (!v)
        return cfg_fail(c, NULL, key, "missing (required)");
    int64_t n = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : lo - 1;
    if (n < lo || n > hi)
        return cfg_fail(c, NULL, key, "must be an integer from %d to %d", lo, hi);
    *out = (int)n;
    return 0;
}

static int read_required_string(const cfg_t *c, struct json_object *obj, const char *key, char *dst,
                                size_t dstlen)
{
    int rc = cfg_string(c, obj, NULL, key, dst, dstlen);
    if (rc == 0)
        return cfg_fail(c, NULL, key, "missing (required)");
    return rc < 0 ? -1 : 0;
}

static int read_names(const cfg_t *c, struct json_object *obj, const char *folder, lab_t *out)
{
    if (read_required_string(c, obj, "name", out->name, sizeof out->name) != 0)
        return -1;
    if (strcmp(out->name, folder) != 0)
        return cfg_fail(c, NULL, "name", "'%s' does not match the lab folder '%s'", out->name,
                        folder);
    int rc = cfg_string(c, obj, NULL, "title", out->title, sizeof out->title);
    if (rc == 0)
        snprintf(out->title, sizeof out->title, "%s", out->name);
    return rc < 0 ? -1 : 0;
}

static int read_style(const cfg_t *c, struct json_object *obj, lab_t *out)
{
    if (read_required_string(c, obj, "style", out->style, sizeof out->style) != 0)
        return -1;
    if (strcmp(out->style, "kernel") != 0 && strcmp(out->style, "program") != 0)
        return cfg_fail(c, NULL, "style", "must be \"kernel\" or \"program\", not '%s'",
                        out->style);
    return 0;
}

/* "kind": what the lab computes (kinds/kind.h); "inputs", when given, must
 * be the kind's. */
static int read_kind(const cfg_t *c, struct json_object *obj, lab_t *out)
{
    char name[32], known[128];
    lab_kind_names(known, sizeof known);
    int rc = cfg_string(c, obj, NULL, "kind", name, sizeof name);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return cfg_fail(c, NULL, "kind", "missing (required: one of %s)", known);
    if (!(out->kind = lab_kind_find(name)))
        return cfg_fail(c, NULL, "kind", "unknown kind '%s' (known: %s)", name, known);
    if (out->kind->inputs == 0) /* declared by lab.json (the array kind): read_array */
        return cfg_member(obj, "inputs") ? cfg_fail(c, NULL, "inputs", "a \"%s\" lab's inputs are its "
                                                    "\"array\" block's", name) : 0;
    if (!cfg_member(obj, "inputs"))
        out->inputs = out->kind->inputs;
    else if (read_int(c, obj, "inputs", 1, MAX_INPUTS, &out->inputs) != 0)
        return -1;
    else if (out->inputs != out->kind->inputs)
        return cfg_fail(c, NULL, "inputs", "a \"%s\" lab has %d inputs, not %d", name,
                        out->kind->inputs, out->inputs);
    return 0;
}

static int read_student_file(const cfg_t *c, struct json_object *obj, lab_t *out)
{
    if (read_required_string(c, obj, "student_file", out->student_file, sizeof out->student_file) !=
        0)
        return -1;
    if (!is_plain_name(out->student_file))
        return cfg_fail(c, NULL, "student_file",
                        "must be a plain file name (no \"/\" or \"..\"), not '%s'",
                        out->student_file);
    return 0;
}

/* The driver, relative to the lab folder; required for "kernel" labs, where
 * the harness owns the host side. */
static int read_driver(const cfg_t *c, struct json_object *obj, const char *tree, lab_t *out)
{
    char driver[PATH_MAX];
    int rc = cfg_string(c, obj, NULL, "driver", driver, sizeof driver);
    if (rc < 0)
        return -1;
    if (rc == 0 && out->kind->default_driver && strcmp(out->style, "kernel") == 0) { /* the kind's own */
        int n = snprintf(out->driver_path, sizeof out->driver_path, "%s%s%s", *tree ? tree : ".", "/",
                         out->kind->default_driver);
        return n > 0 && (size_t)n < sizeof out->driver_path ? 0 : cfg_fail(c, NULL, "driver", "path too long");
    }
    if (rc == 0) {
        out->driver_path[0] = '\0';
        return strcmp(out->style, "kernel") == 0
                   ? cfg_fail(c, NULL, "driver", "missing (required for \"kernel\" labs)")
                   : 0;
    }
    if (driver[0] == '/')
        snprintf(out->driver_path, sizeof out->driver_path, "%s", driver);
    else if (path_join(out->driver_path, sizeof out->driver_path, out->dir, driver) != 0)
        return cfg_fail(c, NULL, "driver", "path too long");
    return 0;
}

static int is_identifier(const char *s)
{
    return *s && !(*s >= '0' && *s <= '9') &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(s);
}

/* "launch": the function the driver and the timing program call (compiled
 * in as -DCUGRADE_LAUNCH=name); required for "kernel" labs. */
static int read_launch(const cfg_t *c, struct json_object *obj, lab_t *out)
{
    int rc = cfg_string(c, obj, NULL, "launch", out->launch, sizeof out->launch);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return strcmp(out->style, "kernel") == 0
                   ? cfg_fail(c, NULL, "launch", "missing (required for \"kernel\" labs: the "
                              "function the driver calls, e.g. \"launchMatrixMultiplyShared\")")
                   : 0;
    if (!is_identifier(out->launch))
        return cfg_fail(c, NULL, "launch", "'%s' is not a C identifier", out->launch);
    return 0;
}

/* "launch_args": the launch function's parameters in a matmul lab,
 * "rows-cols" (default) or "m-n-k" (labs/kinds/matmul/launch.h). */
static int read_launch_args(const cfg_t *c, struct json_object *obj, lab_t *out)
{
    char args[16];
    int rc = cfg_string(c, obj, NULL, "launch_args", args, sizeof args);
    out->launch_args = LAUNCH_ROWS_COLS;
    if (rc <= 0)
        return rc;
    if (strcmp(out->style, "kernel") != 0 || strcmp(out->kind->name, "matmul") != 0)
        return cfg_fail(c, NULL, "launch_args", "only a \"kernel\" lab of kind \"matmul\" "
                        "chooses its launch function's parameters");
    if (strcmp(args, "m-n-k") == 0)
        out->launch_args = LAUNCH_M_N_K;
    else if (strcmp(args, "rows-cols") != 0)
        return cfg_fail(c, NULL, "launch_args", "must be \"rows-cols\" ((A, B, C, numARows, "
                        "numAColumns, numBRows, numBColumns, numCRows, numCColumns)) or "
                        "\"m-n-k\" ((A, B, C, M, N, K)), not '%s'", args);
    return 0;
}

/* "rules": names of the rules the lab enforces (build/rules.h), each once. */
static int read_rules(const cfg_t *c, struct json_object *obj, lab_t *out)
{
    struct json_object *v = cfg_member(obj, "rules");
    char known[128];
    rule_names(known, sizeof known);
    out->rules = 0;
    if (!v)
        return 0;
    if (!json_object_is_type(v, json_type_array))
        return cfg_fail(c, NULL, "rules", "must be a list of rule names (known: %s)", known);
    for (size_t i = 0; i < json_object_array_length(v); i++) {
        struct json_object *e = json_object_array_get_idx(v, i);
        const char *name = json_object_is_type(e, json_type_string) ? json_object_get_string(e) : "";
        rule_id_t id;
        if (rule_parse(name, &id) != 0)
            return cfg_fail(c, NULL, "rules", "entry %zu: unknown rule '%.64s' (known: %s)", i,
                            name, known);
        if (out->rules & (1u << id))
            return cfg_fail(c, NULL, "rules", "entry %zu: '%s' is listed twice", i, name);
        out->rules |= 1u << id;
    }
    return 0;
}

static int read_tolerance_value(const cfg_t *c, struct json_object *cmp, const char *key,
                                double *out)
{
    struct json_object *v = cfg_member(cmp, key);
    if (!v)
        return cfg_fail(c, "compare", key, "missing (required)");
    if (!cfg_number(v, out) || !(*out >= 0))
        return cfg_fail(c, "compare", key, "must be a finite number >= 0");
    return 0;
}

static int read_compare(const cfg_t *c, struct json_object *obj, lab_t *out)
{
    static const char *const known[] = {"rtol", "atol", NULL};
    struct json_object *cmp = cfg_member(obj, "compare");
    if (out->kind->inputs == 0) /* an array lab: its "array" block's tolerance */
        return cmp ? cfg_fail(c, NULL, "compare", "an array lab's tolerance is \"array\".\"tolerance\"") : 0;
    if (!cmp)
        return cfg_fail(c, NULL, "compare", "missing (required: { \"rtol\": ..., \"atol\": ... })");
    if (cfg_require_object(c, cmp, "compare") != 0 ||
        cfg_check_keys(c, cmp, "compare", known) != 0 ||
        read_tolerance_value(c, cmp, "rtol", &out->tol.rtol) != 0 ||
        read_tolerance_value(c, cmp, "atol", &out->tol.atol) != 0)
        return -1;
    return 0;
}

static int read_time_limit(const cfg_t *c, struct json_object *obj, lab_t *out)
{
    struct json_object *v = cfg_member(obj, "time_limit_s");
    out->time_limit_s = DEFAULT_TIME_LIMIT_S;
    if (v && (!cfg_number(v, &out->time_limit_s) ||
              !(out->time_limit_s > 0 && out->time_limit_s <= MAX_TIME_LIMIT_S)))
        return cfg_fail(c, NULL, "time_limit_s", "must be a number of seconds > 0 and <= %g",
                        MAX_TIME_LIMIT_S);
    return 0;
}

static int read_timing_symbols(const cfg_t *c, struct json_object *obj, lab_t *out)
{
    struct json_object *v = cfg_member(obj, "symbols");
    if (!v || !json_object_is_type(v, json_type_array) || json_object_array_length(v) == 0 ||
        json_object_array_length(v) > 4)
        return cfg_fail(c, "timing", "symbols", "must be a list of 1 to 4 function names");
    for (size_t i = 0; i < json_object_array_length(v); i++) {
        struct json_object *e = json_object_array_get_idx(v, i);
        const char *name = json_object_is_type(e, json_type_string) ? json_object_get_string(e) : "";
        if (strlen(name) >= sizeof out->timing_symbols[0] || !is_identifier(name))
            return cfg_fail(c, "timing", "symbols", "entry %zu is not a C identifier", i);
        snprintf(out->timing_symbols[out->ntiming_symbols++], sizeof out->timing_symbols[0], "%s",
                 name);
    }
    return 0;
}

/* "timing": the program (relative to the lab folder), the lab's reference
 * kernel it times beside the student's, and optionally a baseline, both
 * under reference/<lab>/. */
static int read_timing(const cfg_t *c, struct json_object *obj, const char *root, lab_t *out)
{
    static const char *const known[] = {"program", "reference", "baseline", "symbols", NULL};
    struct json_object *t = cfg_member(obj, "timing");
    if (!t)
        return 0;
    char files[3][128];
    const char *keys[3] = {"program", "reference", "baseline"};
    if (cfg_require_object(c, t, "timing") != 0 || cfg_check_keys(c, t, "timing", known) != 0)
        return -1;
    for (int i = 0; i < 3; i++) {
        int got = cfg_string(c, t, "timing", keys[i], files[i], sizeof files[i]);
        if (got < 0)
            return -1;
        if (got == 0 && i < 2)
            return cfg_fail(c, "timing", keys[i], "missing (required)");
        if (got == 0)
            files[i][0] = '\0';
    }
    const char *program = files[0], *reference = files[1], *baseline = files[2];
    if (program[0] == '/' || !is_plain_name(reference) || (baseline[0] && !is_plain_name(baseline)))
        return cfg_fail(c, "timing", NULL, "program is a path relative to the lab folder; "
                        "reference and baseline are plain file names");
    /* reference/<lab>/ beside labs/, like lab_dir: relative when root is "" or "." */
    int here = !*root || strcmp(root, ".") == 0;
    const char *prefix = here ? "" : root, *sep = here || root[strlen(root) - 1] == '/' ? "" : "/";
    int n1 = snprintf(out->timing_program, sizeof out->timing_program, "%s/%s", out->dir, program);
    int n2 = snprintf(out->timing_reference, sizeof out->timing_reference, "%s%sreference/%s/%s",
                      prefix, sep, out->name, reference);
    int n3 = baseline[0] ? snprintf(out->timing_baseline, sizeof out->timing_baseline,
                                    "%s%sreference/%s/%s", prefix, sep, out->name, baseline)
                         : 0;
    if (n1 >= (int)sizeof out->timing_program || n2 >= (int)sizeof out->timing_reference ||
        n3 >= (int)sizeof out->timing_baseline)
        return cfg_fail(c, "timing", NULL, "path too long");
    out->has_timing = 1;
    return read_timing_symbols(c, t, out);
}

/* "wb_type": what a program-style lab passes as `-t TYPE` (libwb's dataset
 * type, e.g. "matrix", "vector"); default "matrix". */
static int read_wb_type(const cfg_t *c, struct json_object *obj, lab_t *out)
{
    int rc = cfg_string(c, obj, NULL, "wb_type", out->wb_type, sizeof out->wb_type);
    if (rc < 0)
        return -1;
    if (rc == 0)
        snprintf(out->wb_type, sizeof out->wb_type, "matrix");
    else if (!is_plain_name(out->wb_type))
        return cfg_fail(c, NULL, "wb_type", "must be a plain word like \"matrix\"");
    return 0;
}

/* "datasets": the folder under datasets/ (default: the lab's name), so a
 * variant of a lab (lab3-wb) grades on the same datasets. */
static int read_datasets_name(const cfg_t *c, struct json_object *obj, lab_t *out)
{
    int rc = cfg_string(c, obj, NULL, "datasets", out->datasets, sizeof out->datasets);
    if (rc < 0)
        return -1;
    if (rc == 0)
        snprintf(out->datasets, sizeof out->datasets, "%s", out->name);
    else if (!is_plain_name(out->datasets))
        return cfg_fail(c, NULL, "datasets", "must be a folder name under datasets/");
    return 0;
}

/* "instruction_budget_factor": optional, LAB_BUDGET_FACTOR_DEFAULT. */
static int read_budget_factor(const cfg_t *c, struct json_object *root, lab_t *out)
{
    out->budget_factor = LAB_BUDGET_FACTOR_DEFAULT;
    if (!cfg_member(root, "instruction_budget_factor"))
        return 0;
    return read_int(c, root, "instruction_budget_factor", 1, 100000, &out->budget_factor);
}

/* Appends name to a comma-separated list in dst. */
static void sb_cat_name(char *dst, size_t len, const char *name)
{
    size_t used = strlen(dst);
    snprintf(dst + used, len - used, "%s%s", used ? "," : "", name);
}

/* "array": what an array lab declares (course/array_spec.h), required for
 * the array kind and refused elsewhere; with it, the inputs, the tolerance
 * and the executor's call. Another kind's executor strings are its own. */
static int read_array(const cfg_t *c, struct json_object *obj, lab_t *out)
{
    struct json_object *a = cfg_member(obj, "array");
    const lab_kind_t *k = out->kind;
    if (k->inputs != 0) {
        if (a)
            return cfg_fail(c, NULL, "array", "only an \"array\" lab declares its arrays");
        snprintf(out->vgpu_call, sizeof out->vgpu_call, "%s", k->vgpu_call ? k->vgpu_call : "");
        snprintf(out->vgpu_out_shape, sizeof out->vgpu_out_shape, "%s", k->vgpu_out_shape ? k->vgpu_out_shape : "");
        snprintf(out->input_names, sizeof out->input_names, "%s", k->input_names ? k->input_names : "");
        snprintf(out->output_name, sizeof out->output_name, "%s", k->output_name ? k->output_name : "");
        return 0;
    }
    if (!a)
        return cfg_fail(c, NULL, "array", "missing (required for an \"array\" lab: docs/array-labs.md)");
    char why[256];
    if (array_spec_read(c, a, "array", out->launch, &out->array) != 0)
        return -1;
    if (array_spec_vgpu(&out->array, out->vgpu_call, sizeof out->vgpu_call, out->vgpu_out_shape,
                        sizeof out->vgpu_out_shape, why, sizeof why) != 0)
        return cfg_fail(c, NULL, "array", "%s", why);
    out->inputs = out->array.ninputs;
    array_spec_types(&out->array, out->vgpu_in_types, sizeof out->vgpu_in_types, &out->vgpu_out_int);
    for (int i = 0; i < out->array.ninputs; i++)
        sb_cat_name(out->input_names, sizeof out->input_names, out->array.inputs[i].name);
    snprintf(out->output_name, sizeof out->output_name, "%s", out->array.outputs[0].name);
    out->tol.rtol = out->array.rtol, out->tol.atol = out->array.atol;
    return 0;
}

static int parse_manifest(const cfg_t *c, struct json_object *root, const char *folder,
                          const char *tree, lab_t *out)
{
    static const char *const known[] = {"name",   "title",      "style",   "student_file", "driver",
                                        "inputs", "tile_width", "compare", "time_limit_s",
                                        "kind", "timing", "wb_type", "datasets", "launch",
                                        "launch_args", "rules", "instruction_budget_factor", "array", NULL};
    if (cfg_require_object(c, root, "top level") != 0 || cfg_check_keys(c, root, "", known) != 0 ||
        read_names(c, root, folder, out) != 0 || read_style(c, root, out) != 0 ||
        read_student_file(c, root, out) != 0 || read_launch(c, root, out) != 0 ||
        read_kind(c, root, out) != 0 || read_driver(c, root, tree, out) != 0 ||
        read_array(c, root, out) != 0 || read_launch_args(c, root, out) != 0 ||
        read_rules(c, root, out) != 0 ||
        read_int(c, root, "tile_width", 1, MAX_TILE_WIDTH, &out->tile_width) != 0 ||
        read_compare(c, root, out) != 0 || read_time_limit(c, root, out) != 0 ||
        read_timing(c, root, tree, out) != 0 ||
        read_wb_type(c, root, out) != 0 || read_datasets_name(c, root, out) != 0 ||
        read_budget_factor(c, root, out) != 0)
        return -1;
    return 0;
}

/* <root>/labs/<name>, or labs/<name> when root is "" or ".". */
static int lab_dir(const char *root, const char *name, char *dst, size_t len)
{
    int n = (!*root || strcmp(root, ".") == 0)
                ? snprintf(dst, len, "labs/%s", name)
                : snprintf(dst, len, "%s%slabs/%s", root, root[strlen(root) - 1] == '/' ? "" : "/",
                           name);
    return (n < 0 || (size_t)n >= len) ? -1 : 0;
}

/* The folders of labs_dir holding a lab.json, sorted, for "no such lab". */
static void list_labs(const char *labs_dir, strbuf_t *names)
{
    struct dirent **entries = NULL;
    int n = scandir(labs_dir, &entries, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        char manifest[PATH_MAX];
        const char *lab = entries[i]->d_name;
        int len = snprintf(manifest, sizeof manifest, "%s/%s/lab.json", labs_dir, lab);
        if (lab[0] != '.' && len > 0 && (size_t)len < sizeof manifest && is_file(manifest))
            sb_appendf(names, "%s%s", names->len ? ", " : "", lab);
        free(entries[i]);
    }
    free(entries);
}

static int no_such_lab(const char *dir, const char *name, char *err, size_t errlen)
{
    char labs_dir[PATH_MAX];
    snprintf(labs_dir, sizeof labs_dir, "%.*s", (int)(strlen(dir) - strlen(name) - 1), dir);
    strbuf_t names = {0};
    list_labs(labs_dir, &names);
    fail(err, errlen, "%s: no such lab '%s' (%s%s)", dir, name,
         names.len ? "labs has: " : "no labs found", sb_str(&names));
    sb_free(&names);
    return -1;
}

int lab_load(const char *root, const char *name, lab_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!is_plain_name(name) || strlen(name) >= sizeof out->name)
        return fail(err, errlen, "bad lab name '%s' (a folder name under labs/)", name);
    char path[PATH_MAX];
    if (lab_dir(root, name, out->dir, sizeof out->dir) != 0 ||
        path_join(path, sizeof path, out->dir, "lab.json") != 0)
        return fail(err, errlen, "%s: path too long", root);
    if (!is_dir(out->dir))
        return no_such_lab(out->dir, name, err, errlen);
    size_t len = 0;
    char *text = read_file(path, &len, err, errlen);
    struct json_object *manifest = text ? cfg_parse_text(path, text, len, err, errlen) : NULL;
    if (!manifest) {
        free(text);
        return -1;
    }
    cfg_t c = {path, err, errlen, text}; /* with the text, messages name the field's line */
    int rc = parse_manifest(&c, manifest, name, root, out);
    json_object_put(manifest);
    free(text);
    return rc;
}

int lab_is_program(const lab_t *lab) { return strcmp(lab->style, "program") == 0; }
