/* slurm_record.c - RESULTS_DIR/.slurm/slurm.json, what `cugrade batch
 * --slurm` submitted: the batch options every task got ("batch": lab,
 * submissions, backend, ... as absolute paths), and one entry per
 * submission to Slurm ("submits": the job ids, the shards, the command, the
 * time). --status and --merge read the class from it; a rerun of --slurm
 * appends to it. Written to a temporary file and renamed. */
#include "batch/slurm.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static void record_path(const char *out_dir, char *path, size_t len)
{
    snprintf(path, len, "%s/" SLURM_DIR "/" SLURM_RECORD, out_dir);
}

json_object *slurm_record_load(const char *out_dir, char *err, size_t errlen)
{
    char path[PATH_MAX];
    record_path(out_dir, path, sizeof path);
    if (err && errlen)
        err[0] = '\0';
    if (!is_file(path))
        return NULL;
    json_object *rec = json_object_from_file(path);
    if (!rec || !json_object_is_type(rec, json_type_object)) {
        json_object_put(rec);
        fail(err, errlen, "%s: not a cugrade Slurm record (%s)", path, json_util_get_last_err());
        return NULL;
    }
    return rec;
}

int slurm_record_save(const char *out_dir, json_object *rec, char *err, size_t errlen)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/" SLURM_DIR, out_dir);
    if (mkdir_p(path, err, errlen) != 0)
        return -1;
    record_path(out_dir, path, sizeof path);
    const char *text =
        json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
    return write_file_atomic(path, text, strlen(text), err, errlen);
}

static json_object *str_or_null(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

json_object *slurm_record_batch(const batch_opts_t *o)
{
    json_object *b = json_object_new_object(), *only = json_object_new_array();
    json_object_object_add(b, "lab", json_object_new_string(o->lab));
    json_object_object_add(b, "submissions", json_object_new_string(o->submissions_dir));
    json_object_object_add(b, "out", json_object_new_string(o->out_dir));
    json_object_object_add(b, "backend", json_object_new_string(o->backend));
    json_object_object_add(b, "checks", json_object_new_string(o->checks ? "all" : "none"));
    json_object_object_add(b, "timeout_s", json_object_new_double(o->timeout_s));
    json_object_object_add(b, "budget_s", json_object_new_double(o->budget_s));
    json_object_object_add(b, "perf_retime_s", json_object_new_double(o->perf_retime_s));
    json_object_object_add(b, "jobs", json_object_new_int(o->jobs));
    json_object_object_add(b, "datasets", str_or_null(o->datasets_dir));
    json_object_object_add(b, "rubric", str_or_null(o->rubric_path));
    json_object_object_add(b, "hidden_seed", str_or_null(o->hidden_seed));
    json_object_object_add(b, "gpu_queue", str_or_null(o->gpu_queue));
    for (int i = 0; i < o->nonly; i++)
        json_object_array_add(only, json_object_new_string(o->only[i]));
    json_object_object_add(b, "only", only);
    return b;
}

const char *slurm_json_str(json_object *obj, const char *key)
{
    json_object *v;
    if (!obj || !json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

static double num_or(json_object *obj, const char *key, double dflt)
{
    json_object *v;
    return json_object_object_get_ex(obj, key, &v) && v ? json_object_get_double(v) : dflt;
}

static void read_only(json_object *b, batch_opts_t *o)
{
    json_object *only;
    o->nonly = 0;
    if (!json_object_object_get_ex(b, "only", &only) || !json_object_is_type(only, json_type_array))
        return;
    for (size_t i = 0; i < json_object_array_length(only) && o->nonly < BATCH_MAX_ONLY; i++) {
        const char *id = json_object_get_string(json_object_array_get_idx(only, i));
        if (id)
            o->only[o->nonly++] = id;
    }
}

int slurm_record_opts(json_object *rec, batch_opts_t *o, char *err, size_t errlen)
{
    json_object *b;
    if (!json_object_object_get_ex(rec, "batch", &b) || !slurm_json_str(b, "lab") ||
        !slurm_json_str(b, "submissions") || !slurm_json_str(b, "backend"))
        return fail(err, errlen, "the record has no batch options (lab, submissions, backend)");
    o->lab = slurm_json_str(b, "lab");
    o->submissions_dir = slurm_json_str(b, "submissions");
    o->backend = slurm_json_str(b, "backend");
    const char *checks = slurm_json_str(b, "checks");
    o->checks = !checks || strcmp(checks, "none") != 0;
    o->timeout_s = num_or(b, "timeout_s", o->timeout_s);
    o->budget_s = num_or(b, "budget_s", 0);
    o->perf_retime_s = num_or(b, "perf_retime_s", 0);
    o->jobs = (int)num_or(b, "jobs", 0);
    o->datasets_dir = slurm_json_str(b, "datasets");
    o->rubric_path = slurm_json_str(b, "rubric");
    o->hidden_seed = slurm_json_str(b, "hidden_seed");
    o->gpu_queue = slurm_json_str(b, "gpu_queue");
    read_only(b, o);
    return 0;
}

json_object *slurm_record_last(json_object *rec)
{
    json_object *subs;
    if (!rec || !json_object_object_get_ex(rec, "submits", &subs) ||
        !json_object_is_type(subs, json_type_array) || json_object_array_length(subs) == 0)
        return NULL;
    return json_object_array_get_idx(subs, json_object_array_length(subs) - 1);
}
