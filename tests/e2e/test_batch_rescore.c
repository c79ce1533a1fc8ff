/* test_batch_rescore.c - end to end: `cugrade batch --resume` after a
 * rubric change. Only points, visibility, names or thresholds changed: every
 * submission is re-scored from its measurements.json in the batch process,
 * with nothing built or run (proved: no compiler on PATH and no TMPDIR, under
 * which any grading fails), and the new points show in results.json and
 * gradebook.csv; under a rubric that scores as before the results are the
 * same bytes. Identical copies are re-scored as their own, a rejected archive
 * stays rejected, a stand-in for a submission that could not be graded
 * stays one. A run-affecting change (a time limit) grades everyone again; a
 * corrupt measurements.json is graded again, its file named, and never
 * crashes the batch. */
#include "e2e.h"

#include <sys/stat.h>

typedef struct {
    char dir[64], subs[128], datasets[128], rubric[128], out[128];
} klass_t;

#define RUBRIC                                                                                     \
    "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"name\": \"%s\", \"points\": 0},"       \
    " \"datasets\": {\"points\": %s, \"time_limit_s\": %s, \"visibility\": \"%s\"},"              \
    " \"hidden\": {\"count\": 1},"                                                                 \
    " \"checks\": {\"race-free\": {\"points\": 4}, \"traffic-reduced\": {\"points\": 4,"          \
    " \"max_bytes_per_flop\": %s}}}}}%s"

static void write_rubric(const klass_t *k, const char *compile, const char *points,
                         const char *limit, const char *vis, const char *max_bytes,
                         const char *trailer)
{
    char text[1024];
    snprintf(text, sizeof text, RUBRIC, compile, points, limit, vis, max_bytes, trailer);
    write_text(k->rubric, text);
}

static void sh_in(const char *dir, const char *line)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd %s && (%s) >/dev/null 2>&1", dir, line);
    cr_assert_eq(system(cmd), 0, "fixture failed: %s", line);
}

/* alice: the reference; bob: wrong on a partial tile; carol: does not
 * compile; erin: alice's file (graded once); mallory: an unsafe archive. */
static klass_t make_klass(void)
{
    klass_t k;
    snprintf(k.dir, sizeof k.dir, "/tmp/cugrade-brescore-XXXXXX");
    cr_assert_not_null(mkdtemp(k.dir));
    snprintf(k.subs, sizeof k.subs, "%s/subs", k.dir);
    snprintf(k.datasets, sizeof k.datasets, "%s/datasets", k.dir);
    snprintf(k.rubric, sizeof k.rubric, "%s/rubric.json", k.dir);
    snprintf(k.out, sizeof k.out, "%s/out", k.dir);
    sh_in(k.dir, "mkdir -p subs/alice/lab3 subs/bob/lab3 subs/carol/lab3 subs/erin/lab3 a/b && "
                 "cp $OLDPWD/reference/lab3/matmul.cu subs/alice/lab3/ && "
                 "cp $OLDPWD/reference/lab3/matmul.cu subs/erin/lab3/ && "
                 "cp $OLDPWD/" SUB "intdiv_grid.cu subs/bob/lab3/matmul.cu && "
                 "cp $OLDPWD/" SUB "compile_error.cu subs/carol/lab3/matmul.cu && "
                 "echo x > a/evil && cd a/b && tar czPf ../../subs/mallory.tgz ../evil");
    const char *shapes[] = {"16x16x16", "33x17x9", NULL};
    make_datasets(k.datasets, shapes);
    write_rubric(&k, "compiles", "1", "20", "visible", "1.0", "");
    return k;
}

/* `cugrade batch` on the class (extra options first), with env added. */
static run_result_t batch_env(const klass_t *k, const char *const *extra, char *const *env)
{
    char *argv[40] = {"bin/cugrade", "batch", "--lab", "lab3", "--out", (char *)k->out,
                      "--backend", "emu", "--datasets", (char *)k->datasets, "--rubric",
                      (char *)k->rubric};
    int n = 12;
    for (int i = 0; extra && extra[i]; i++)
        argv[n++] = (char *)extra[i];
    argv[n++] = (char *)k->subs;
    argv[n] = NULL;
    run_spec_t spec = {.argv = argv, .extra_env = env, .timeout_s = 300, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

static const char *const RESUME[] = {"--resume", NULL};
/* No compiler to find and nowhere to build: any grading fails under it. */
static char *const NOTHING_RUNS[] = {"PATH=/nonexistent", "TMPDIR=/nonexistent", NULL};

static void graded_ok(const klass_t *k)
{
    run_result_t r = batch_env(k, NULL, NULL);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "batch: 5 graded, 0 re-scored"), "%s", r.output);
    run_result_free(&r);
}

static char *file_of(const klass_t *k, const char *id, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", k->out, id, name);
    return read_file(path, NULL, NULL, 0);
}

static json_object *results_of(const klass_t *k, const char *id)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/results.json", k->out, id);
    json_object *j = json_object_from_file(path);
    cr_assert_not_null(j, "no results.json for %s", id);
    return j;
}

static json_object *test_of(json_object *results, const char *prefix)
{
    json_object *tests;
    cr_assert(json_object_object_get_ex(results, "tests", &tests));
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        json_object *t = json_object_array_get_idx(tests, i);
        if (strncmp(str(t, "name"), prefix, strlen(prefix)) == 0)
            return t;
    }
    cr_assert_fail("no test named %s", prefix);
    return NULL;
}

Test(batch_rescore, new_points_visibility_names_and_thresholds_re_score_with_nothing_run,
     .timeout = 300)
{
    klass_t k = make_klass();
    graded_ok(&k);
    char *before = file_of(&k, "alice", "results.json");
    write_rubric(&k, "builds", "2.5", "20", "after_published", "1e-6", "");
    run_result_t r = batch_env(&k, RESUME, NOTHING_RUNS);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "0 to grade, 5 to re-score, 0 unchanged (skipped)"), "%s", r.output);
    cr_assert(strstr(r.output, "batch: 0 graded, 5 re-scored, 0 could not grade, 0 skipped"), "%s",
              r.output);
    cr_assert(strstr(r.output, "alice  11.5/15.5  re-scored"), "%s", r.output); /* traffic fails */
    cr_assert_null(strstr(r.output, "canary"), "the canary ran:\n%s", r.output);
    run_result_free(&r);

    json_object *alice = results_of(&k, "alice"), *erin = results_of(&k, "erin");
    cr_assert_float_eq(num(test_of(alice, "dataset 1 "), "score"), 2.5, 1e-9);
    cr_assert_str_eq(str(test_of(alice, "dataset 1 "), "visibility"), "after_published");
    cr_assert(passed(test_of(alice, "builds")));
    cr_assert(!passed(test_of(alice, "traffic-reduced")), "the new threshold was not applied");
    cr_assert_float_eq(num(erin, "score"), num(alice, "score"), 1e-9);
    cr_assert_null(strstr(json_object_to_json_string(erin), "subs\\/alice"), "alice's path in erin's");
    json_object *mallory = results_of(&k, "mallory");
    cr_assert_str_eq(str(test_of(mallory, "submission"), "status"), "failed");
    json_object_put(alice), json_object_put(erin), json_object_put(mallory);

    char path[256];
    snprintf(path, sizeof path, "%s/gradebook.csv", k.out);
    char *csv = read_file(path, NULL, NULL, 0);
    /* mallory's refused archive is not graded: no number, and no column of its own */
    cr_assert(strstr(csv, "id,total,max,builds,dataset 0 (16x16x16),dataset 1 (33x17x9),"
                          "hidden dataset 1 (1x1x1),race-free,traffic-reduced\n"), "%s", csv);
    cr_assert(strstr(csv, "\nalice,11.5,15.5,0,2.5,2.5,2.5,4,0\n"), "%s", csv);
    cr_assert(strstr(csv, "\nbob,6.5,15.5,0,2.5,0,0,4,0\n"), "%s", csv);
    cr_assert(strstr(csv, "\nmallory,,,,,,,,\n"), "%s", csv);
    free(csv);
    char *log = file_of(&k, "alice", "run.log");
    cr_assert(strstr(log, "batch: re-scored from measurements.json under "), "%s", log);
    free(log);

    /* back to the first rubric, written differently: the first grade, byte for byte */
    write_rubric(&k, "compiles", "1", "20", "visible", "1.0", "\n\n");
    r = batch_env(&k, RESUME, NOTHING_RUNS);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "batch: 0 graded, 5 re-scored"), "%s", r.output);
    run_result_free(&r);
    char *after = file_of(&k, "alice", "results.json");
    cr_assert_str_eq(after, before);
    free(before), free(after);
    r = batch_env(&k, RESUME, NOTHING_RUNS); /* and then nothing to do */
    cr_assert(strstr(r.output, "batch: 0 graded, 0 re-scored, 0 could not grade, 5 skipped"), "%s",
              r.output);
    run_result_free(&r);
    rm_rf(k.dir);
}

/* A time limit changes what runs: everyone is graded again (and so the
 * environment above, where nothing can run, fails it). */
Test(batch_rescore, a_run_affecting_change_grades_again, .timeout = 300)
{
    klass_t k = make_klass();
    graded_ok(&k);
    write_rubric(&k, "compiles", "2", "25", "visible", "1.0", "");
    run_result_t r = batch_env(&k, RESUME, NOTHING_RUNS);
    cr_assert(r.exited && r.exit_code == 2, "graded with nothing to grade with:\n%s", r.output);
    cr_assert(strstr(r.output, "5 to grade, 0 to re-score"), "%s", r.output);
    run_result_free(&r);
    r = batch_env(&k, RESUME, NULL);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "batch: 5 graded, 0 re-scored"), "%s", r.output);
    run_result_free(&r);
    json_object *alice = results_of(&k, "alice");
    cr_assert_float_eq(num(test_of(alice, "dataset 0 "), "score"), 2, 1e-9);
    json_object_put(alice);
    rm_rf(k.dir);
}

/* --budget-s decides which dataset runs are cut short: a new one grades again. */
Test(batch_rescore, a_new_budget_grades_again, .timeout = 300)
{
    klass_t k = make_klass();
    graded_ok(&k);
    const char *const budget[] = {"--resume", "--budget-s", "500", NULL};
    run_result_t r = batch_env(&k, budget, NOTHING_RUNS);
    cr_assert(r.exited && r.exit_code == 2, "graded with nothing to grade with:\n%s", r.output);
    cr_assert(strstr(r.output, "5 to grade, 0 to re-score"), "%s", r.output);
    run_result_free(&r);
    r = batch_env(&k, RESUME, NULL);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "0 to grade, 0 to re-score, 5 unchanged"),
              "back to the budget it was graded under: %s", r.output);
    run_result_free(&r);
    rm_rf(k.dir);
}

/* bob's measurements.json is not JSON: he is graded again, the line names
 * the file; the others are re-scored. */
Test(batch_rescore, a_corrupt_measurements_json_is_graded_again, .timeout = 300)
{
    klass_t k = make_klass();
    graded_ok(&k);
    char path[256];
    snprintf(path, sizeof path, "%s/bob/measurements.json", k.out);
    write_text(path, "{\"format\": \"cugrade-measurements\", oops");
    write_rubric(&k, "compiles", "3", "20", "visible", "1.0", "");
    run_result_t r = batch_env(&k, RESUME, NULL);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "cugrade batch: bob: cannot re-score (") &&
                  strstr(r.output, path) && strstr(r.output, "syntax error") &&
                  strstr(r.output, "): grading it again"), "%s", r.output);
    cr_assert(strstr(r.output, "batch: 1 graded, 4 re-scored"), "%s", r.output);
    run_result_free(&r);
    json_object *bob = results_of(&k, "bob");
    cr_assert_float_eq(num(test_of(bob, "dataset 0 "), "score"), 3, 1e-9);
    json_object_put(bob);
    char *text = read_file(path, NULL, NULL, 0);
    cr_assert(text && strstr(text, "\"format\":\"cugrade-measurements\""), "not measured again");
    free(text);
    rm_rf(k.dir);
}

/* A stand-in (a submission that could not be graded) has no measurements
 * and stays what it is under any rubric; an old measurements.json never
 * outlives a grading that replaced its results. */
Test(batch_rescore, a_stand_in_stays_and_keeps_no_stale_measurements, .timeout = 300)
{
    klass_t k = make_klass();
    graded_ok(&k);
    const char *timeout[] = {"--only", "bob", "--timeout-s", "0.05", NULL};
    run_result_t r = batch_env(&k, timeout, NULL);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "bob  could not grade"), "%s", r.output);
    run_result_free(&r);
    char path[256];
    snprintf(path, sizeof path, "%s/bob/measurements.json", k.out);
    cr_assert(!is_file(path), "bob's old measurements outlived his new results");
    write_rubric(&k, "compiles", "2", "20", "visible", "1.0", "");
    r = batch_env(&k, RESUME, NOTHING_RUNS);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "batch: 0 graded, 5 re-scored"), "%s", r.output);
    cr_assert(strstr(r.output, "bob  unchanged (scored by no rubric)  re-scored"), "%s", r.output);
    run_result_free(&r);
    char *row = NULL, *line;
    snprintf(path, sizeof path, "%s/gradebook.csv", k.out);
    char *csv = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(line = strstr(csv, "\nbob,"), "%s", csv);
    row = strndup(line + 1, strcspn(line + 1, "\n"));
    cr_assert(strncmp(row, "bob,0,", 6) == 0, "%s", row);
    free(row), free(csv);
    rm_rf(k.dir);
}
