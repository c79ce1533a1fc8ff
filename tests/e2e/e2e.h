/* e2e.h - helpers of the end-to-end tests: run bin/cugrade as a child
 * process (as a TA would), read back its results.json with json-c, make
 * small dataset folders with the project's own generator, and a scratch
 * class for `cugrade batch` (batch_class_t). Every grading of
 * the tests gets its hidden datasets from the committed secret
 * tests/fixtures/hidden/seed (CUGRADE_HIDDEN_SEED_FILE, set when the test
 * program starts), so they are the same on every run and no test makes a
 * .cugrade/hidden-seed. Runs from the repository root. */
#ifndef CUGRADE_E2E_H
#define CUGRADE_E2E_H

#include <criterion/criterion.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/runner.h"
#include "util/util.h"

#define SUB "tests/submissions/lab3/"
#define HIDDEN_SEED "tests/fixtures/hidden/seed"
#define OTHER_HIDDEN_SEED "tests/fixtures/hidden/other-seed"

__attribute__((constructor)) static void use_the_tests_hidden_seed(void)
{
    char path[PATH_MAX];
    if (realpath(HIDDEN_SEED, path))
        setenv("CUGRADE_HIDDEN_SEED_FILE", path, 1);
}

typedef struct {
    run_result_t run;
    json_object *json; /* NULL if no results.json was written */
    char dir[64];
} graded_t;

static inline graded_t grade_on(const char *backend, const char *submission,
                                const char *const *extra, char *const *env);

static inline graded_t grade(const char *submission, const char *const *extra)
{
    return grade_on("emu", submission, extra, NULL);
}

/* Runs `bin/cugrade run --backend B --json <tmp>/r.json [extra...] SUBMISSION`. */
static inline graded_t grade_on(const char *backend, const char *submission, const char *const *extra,
                         char *const *env)
{
    graded_t g;
    memset(&g, 0, sizeof g);
    snprintf(g.dir, sizeof g.dir, "/tmp/cugrade-e2e-XXXXXX");
    cr_assert_not_null(mkdtemp(g.dir));
    char json_path[128];
    snprintf(json_path, sizeof json_path, "%s/r.json", g.dir);
    char *argv[32] = {"bin/cugrade", "run", "--lab", "lab3", "--backend", (char *)backend, "--color",
                      "never", "--json", json_path};
    int n = 10;
    for (int i = 0; extra && extra[i]; i++)
        argv[n++] = (char *)extra[i];
    argv[n++] = (char *)submission;
    argv[n] = NULL;
    run_spec_t spec = {.argv = argv, .extra_env = env, .timeout_s = 300, .output_cap = 1 << 20};
    run_one(&spec, &g.run);
    if (is_file(json_path))
        g.json = json_object_from_file(json_path);
    return g;
}

/* bin/emucc -O2 -Ilabs/common ARGS...: must succeed (the test fails with
 * its messages if not). */
static inline void emucc_ok(const char *const *args)
{
    char *argv[32] = {"bin/emucc", "-O2", "-Ilabs/common"};
    int n = 3;
    for (int i = 0; args[i] && n < 31; i++)
        argv[n++] = (char *)args[i];
    argv[n] = NULL;
    run_spec_t spec = {.argv = argv, .timeout_s = 120};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "emucc failed: %s", r.output);
    run_result_free(&r);
}

static inline void release(graded_t *g)
{
    json_object_put(g->json);
    run_result_free(&g->run);
    rm_rf(g->dir);
}

static inline int exit_code(const graded_t *g) { return g->run.exited ? g->run.exit_code : -1; }

static inline double num(json_object *o, const char *key)
{
    json_object *v;
    cr_assert(json_object_object_get_ex(o, key, &v), "missing key %s", key);
    return json_object_get_double(v);
}

static inline const char *str(json_object *o, const char *key)
{
    json_object *v;
    cr_assert(json_object_object_get_ex(o, key, &v), "missing key %s", key);
    return json_object_get_string(v);
}

static inline json_object *tests_of(const graded_t *g)
{
    json_object *t;
    cr_assert_not_null(g->json, "no results.json; output:\n%s", g->run.output);
    cr_assert(json_object_object_get_ex(g->json, "tests", &t));
    return t;
}

static inline json_object *test_named(const graded_t *g, const char *prefix)
{
    json_object *tests = tests_of(g);
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        json_object *t = json_object_array_get_idx(tests, i);
        if (strncmp(str(t, "name"), prefix, strlen(prefix)) == 0)
            return t;
    }
    cr_assert_fail("no test named %s", prefix);
    return NULL;
}

static inline int passed(json_object *t) { return strcmp(str(t, "status"), "passed") == 0; }

/* A failing test's failure key (extra_data "failure"), "" when none. */
static inline const char *failure_key(json_object *t)
{
    json_object *extra, *f;
    return json_object_object_get_ex(t, "extra_data", &extra) && json_object_object_get_ex(extra, "failure", &f)
               ? json_object_get_string(f)
               : "";
}

/* LAB's grading of file on backend, with env (NULL: none), asserted to exit 0. */
static inline graded_t grade_lab_on(const char *backend, const char *lab, const char *file, char *const *env)
{
    const char *extra[] = {"--lab", lab, NULL};
    graded_t g = grade_on(backend, file, extra, env);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    return g;
}

/* The grading exited 0, compiled, and passed every public dataset. */
static inline void expect_every_dataset_passed(const graded_t *g)
{
    cr_assert_eq(exit_code(g), 0, "%s", g->run.output);
    cr_expect(passed(test_named(g, "compiles")), "%s", g->run.output);
    json_object *extra = NULL;
    cr_assert(json_object_object_get_ex(g->json, "extra_data", &extra), "%s", g->run.output);
    cr_expect_gt(num(extra, "datasets_total"), 0);
    cr_expect_eq(num(extra, "datasets_passed"), num(extra, "datasets_total"), "%s",
                 g->run.output);
}

/* Makes a small dataset set with the project's own generator. */
static inline void make_datasets(const char *dir, const char *const *shapes)
{
    for (int i = 0; shapes[i]; i++) {
        char out[256];
        snprintf(out, sizeof out, "%s/%d", dir, i);
        char *argv[] = {"bin/cugrade", "dataset", "--lab", "lab3", "--shape", (char *)shapes[i],
                        "--seed", "7", "--out", out, NULL};
        run_spec_t spec = {.argv = argv, .timeout_s = 60};
        run_result_t r;
        run_one(&spec, &r);
        cr_assert(r.exited && r.exit_code == 0, "dataset generation failed: %s", r.output);
        run_result_free(&r);
    }
}

static inline void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* A class for `cugrade batch`, in a scratch folder of its own,
 * /tmp/cugrade-NAME-XXXXXX: subs/ (SUBMISSIONS_DIR, made empty; the test
 * puts the students in), datasets/ (two small ones, made by make_datasets),
 * rubric.json (lab3: a point a dataset, no hidden one) and out/ (RESULTS_DIR,
 * made by the batch). rm_rf(dir) removes it all. */
typedef struct {
    char dir[64], subs[128], datasets[128], rubric[128], out[128];
} batch_class_t;

/* The same with `hidden` hidden datasets in its rubric. */
static inline batch_class_t make_batch_class_with(const char *name, int hidden)
{
    batch_class_t k;
    snprintf(k.dir, sizeof k.dir, "/tmp/cugrade-%s-XXXXXX", name);
    cr_assert_not_null(mkdtemp(k.dir));
    snprintf(k.subs, sizeof k.subs, "%s/subs", k.dir);
    snprintf(k.datasets, sizeof k.datasets, "%s/datasets", k.dir);
    snprintf(k.rubric, sizeof k.rubric, "%s/rubric.json", k.dir);
    snprintf(k.out, sizeof k.out, "%s/out", k.dir);
    cr_assert_eq(mkdir_p(k.subs, NULL, 0), 0);
    const char *shapes[] = {"16x16x16", "33x17x9", NULL};
    make_datasets(k.datasets, shapes);
    char rubric[320];
    snprintf(rubric, sizeof rubric,
             "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"name\": \"compiles\","
             " \"points\": 0}, \"datasets\": {\"points\": 1, \"time_limit_s\": 20},"
             " \"hidden\": {\"count\": %d}}}}", hidden);
    write_text(k.rubric, rubric);
    return k;
}

static inline batch_class_t make_batch_class(const char *name)
{
    return make_batch_class_with(name, 0);
}

/* A dataset of lab's generator of shape into out (asserted). */
static inline void make_dataset(const char *lab, const char *shape, const char *out)
{
    char *gen[] = {"bin/cugrade", "dataset", "--lab", (char *)lab, "--shape", (char *)shape, "--out", (char *)out,
                   NULL};
    run_spec_t spec = {.argv = gen, .timeout_s = 60};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    run_result_free(&r);
}

/* Copies the file at from to to (asserted). */
static inline void copy_file_to(const char *from, const char *to)
{
    size_t len;
    char *text = read_file(from, &len, NULL, 0);
    cr_assert_not_null(text, "cannot read %s", from);
    cr_assert_eq(write_file_atomic(to, text, len, NULL, 0), 0);
    free(text);
}

/* Student id of class k hands in file as lab 3's matmul.cu. */
static inline void class_add_student(const batch_class_t *k, const char *id, const char *file)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s/lab3", k->subs, id);
    cr_assert_eq(mkdir_p(path, NULL, 0), 0);
    snprintf(path, sizeof path, "%s/%s/lab3/matmul.cu", k->subs, id);
    copy_file_to(file, path);
}

/* Runs `cugrade batch` on the class on the emu backend, without the
 * checking mode, and asserts it exits 0; the caller frees the result. */
static inline run_result_t run_class_batch(const batch_class_t *k)
{
    char *argv[] = {"bin/cugrade", "batch", "--lab", "lab3", "--out", (char *)k->out, "--backend", "emu",
                    "--checks", "none", "--datasets", (char *)k->datasets, "--rubric",
                    (char *)k->rubric, (char *)k->subs, NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 300, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "batch failed:\n%s", r.output);
    return r;
}

/* The results.json the batch wrote for student id (asserted to exist); the
 * caller puts it. */
static inline json_object *class_results(const batch_class_t *k, const char *id)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/results.json", k->out, id);
    json_object *j = json_object_from_file(path);
    cr_assert_not_null(j, "no results.json for %s", id);
    return j;
}

#endif
