/* export_case.h - helpers of the export tests (test_export_*.c): run
 * `cugrade export`, run a shell command in a folder with extra environment,
 * and check a JSON value's type and the keys of an object against a list
 * (the documented fields of Gradescope's and PrairieLearn's results.json). */
#ifndef CUGRADE_EXPORT_CASE_H
#define CUGRADE_EXPORT_CASE_H

#include "e2e.h"

#include <sys/stat.h>

/* Runs `bash -c cmd` in cwd (NULL: here) with env added. */
static inline run_result_t sh(const char *cwd, const char *cmd, char *const *env, double timeout)
{
    char *argv[] = {"/bin/bash", "-c", (char *)cmd, NULL};
    run_spec_t spec = {.argv = argv, .cwd = cwd, .extra_env = env, .timeout_s = timeout,
                       .output_cap = 4 << 20};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

static inline int ok(const run_result_t *r) { return r->exited && r->exit_code == 0; }

/* `bin/cugrade export KIND --lab LAB --out OUT`. */
static inline run_result_t cugrade_export(const char *kind, const char *lab, const char *out)
{
    char *argv[] = {"bin/cugrade", "export", (char *)kind, "--lab", (char *)lab, "--out",
                    (char *)out, NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 120};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

/* A fresh temporary folder (caller rm_rf's it). */
static inline void temp_dir(char *dir, size_t len, const char *name)
{
    snprintf(dir, len, "/tmp/cugrade-%s-XXXXXX", name);
    cr_assert_not_null(mkdtemp(dir));
}

static inline int is_number(json_object *v)
{
    return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int);
}

/* Asserts that every key of obj is in allowed (NULL-ended), naming what. */
static inline void only_keys(json_object *obj, const char *const *allowed, const char *what)
{
    json_object_object_foreach(obj, key, val)
    {
        (void)val;
        int found = 0;
        for (int i = 0; allowed[i] && !found; i++)
            found = strcmp(allowed[i], key) == 0;
        cr_expect(found, "%s: the key \"%s\" is not in the documented format", what, key);
    }
}

/* Asserts obj[key] is a string among one_of (NULL-ended), if present. */
static inline void enum_key(json_object *obj, const char *key, const char *const *one_of)
{
    json_object *v;
    if (!json_object_object_get_ex(obj, key, &v))
        return;
    cr_assert(json_object_is_type(v, json_type_string), "%s is not a string", key);
    int found = 0;
    for (int i = 0; one_of[i] && !found; i++)
        found = strcmp(one_of[i], json_object_get_string(v)) == 0;
    cr_expect(found, "%s: \"%s\" is not an allowed value", key, json_object_get_string(v));
}

/* obj[key], asserted present and of the type (json_type_double means any number). */
static inline json_object *typed(json_object *obj, const char *key, json_type type)
{
    json_object *v = NULL;
    cr_assert(json_object_object_get_ex(obj, key, &v), "\"%s\" is missing", key);
    if (type == json_type_double)
        cr_assert(is_number(v), "\"%s\" is not a number", key);
    else
        cr_assert(json_object_is_type(v, type), "\"%s\" has the wrong type", key);
    return v;
}

static inline int file_mode(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (int)(st.st_mode & 0777) : -1;
}

#endif
