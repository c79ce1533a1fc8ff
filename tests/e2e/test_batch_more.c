/* test_batch_more.c - end to end: `cugrade batch` on submissions that are
 * archives (.tar.gz graded; one with `..` rejected with a results.json that
 * says why), in Gradescope's layout (the student file deep in the tree, named
 * in run.log), and identical (graded once, both get the same grade). */
#include "e2e.h"

typedef struct {
    char dir[64], subs[128], datasets[128], rubric[128], out[128];
} klass_t;

static void sh_in(const char *dir, const char *line)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd %s && (%s) >/dev/null 2>&1", dir, line);
    cr_assert_eq(system(cmd), 0, "fixture failed: %s", line);
}

static klass_t make_klass(void)
{
    klass_t k;
    snprintf(k.dir, sizeof k.dir, "/tmp/cugrade-bmore-XXXXXX");
    cr_assert_not_null(mkdtemp(k.dir));
    snprintf(k.subs, sizeof k.subs, "%s/subs", k.dir);
    snprintf(k.datasets, sizeof k.datasets, "%s/datasets", k.dir);
    snprintf(k.rubric, sizeof k.rubric, "%s/rubric.json", k.dir);
    snprintf(k.out, sizeof k.out, "%s/out", k.dir);
    cr_assert_eq(mkdir_p(k.subs, NULL, 0), 0);
    const char *shapes[] = {"16x16x16", "33x17x9", NULL};
    make_datasets(k.datasets, shapes);
    write_text(k.rubric, "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"name\": \"compiles\","
                         " \"points\": 0}, \"datasets\": {\"points\": 1, \"time_limit_s\": 20},"
                       " \"hidden\": {\"count\": 0}}}}");
    return k;
}

static run_result_t run_batch(const klass_t *k)
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

static json_object *results(const klass_t *k, const char *id)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/results.json", k->out, id);
    json_object *j = json_object_from_file(path);
    cr_assert_not_null(j, "no results.json for %s", id);
    return j;
}

static char *run_log(const klass_t *k, const char *id)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/run.log", k->out, id);
    char *text = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(text, "no run.log for %s", id);
    return text;
}

Test(batch_more, a_tar_gz_submission_is_unpacked_and_graded, .timeout = 300)
{
    klass_t k = make_klass();
    sh_in(k.dir, "mkdir -p pack/lab3 && cp $OLDPWD/reference/lab3/matmul.cu pack/lab3/ && "
                 "tar czf subs/alice.tar.gz -C pack lab3");
    run_result_t r = run_batch(&k);
    cr_assert(strstr(r.output, "alice  2/2"), "%s", r.output);
    json_object *j = results(&k, "alice");
    cr_assert_float_eq(num(j, "score"), 2.0, 1e-9);
    json_object_put(j);
    char *log = run_log(&k, "alice");
    cr_assert(strstr(log, "unpacked alice.tar.gz"), "%s", log);
    free(log);
    run_result_free(&r);
    rm_rf(k.dir);
}

Test(batch_more, an_unsafe_archive_gets_a_results_json_saying_why, .timeout = 300)
{
    klass_t k = make_klass();
    sh_in(k.dir, "mkdir -p a/b && echo x > a/evil && cd a/b && tar czPf ../../subs/mallory.tgz ../evil");
    run_result_t r = run_batch(&k);
    cr_assert(strstr(r.output, "mallory  rejected"), "%s", r.output);
    json_object *j = results(&k, "mallory"), *tests;
    cr_assert_float_eq(num(j, "score"), 0.0, 1e-9);
    cr_assert(json_object_object_get_ex(j, "tests", &tests));
    json_object *t = json_object_array_get_idx(tests, 0);
    cr_assert_str_eq(str(t, "name"), "submission");
    cr_assert(strstr(str(t, "output"), "'..'"), "%s", str(t, "output"));
    json_object_put(j);
    run_result_free(&r);
    rm_rf(k.dir);
}

Test(batch_more, gradescope_layout_is_found_and_named_in_run_log, .timeout = 300)
{
    klass_t k = make_klass();
    sh_in(k.dir, "mkdir -p subs/bob/submission/src subs/bob/__MACOSX/x && "
                 "cp $OLDPWD/" SUB "intdiv_grid.cu subs/bob/submission/src/matmul.cu && "
                 "cp $OLDPWD/reference/lab3/matmul.cu subs/bob/__MACOSX/x/matmul.cu");
    run_result_t r = run_batch(&k);
    cr_assert(strstr(r.output, "bob  1/2"), "%s", r.output);
    char *log = run_log(&k, "bob");
    cr_assert(strstr(log, "took submission/src/matmul.cu (the only matmul.cu"), "%s", log);
    free(log);
    run_result_free(&r);
    rm_rf(k.dir);
}

Test(batch_more, identical_students_are_graded_once_with_the_same_grade, .timeout = 300)
{
    klass_t k = make_klass();
    sh_in(k.dir, "mkdir -p subs/carl subs/dina/lab3 && cp $OLDPWD/" SUB "intdiv_grid.cu subs/carl/matmul.cu"
                 " && cp $OLDPWD/" SUB "intdiv_grid.cu subs/dina/lab3/matmul.cu");
    run_result_t r = run_batch(&k);
    cr_assert(strstr(r.output, "dina  1/2  0.0 s  identical to carl"), "%s", r.output);
    char *log = run_log(&k, "dina");
    cr_assert(strstr(log, "identical to carl, graded once"), "%s", log);
    free(log);
    json_object *a = results(&k, "carl"), *b = results(&k, "dina"), *ta, *tb;
    cr_assert_float_eq(num(a, "score"), num(b, "score"), 1e-9);
    cr_assert(json_object_object_get_ex(a, "tests", &ta) && json_object_object_get_ex(b, "tests", &tb));
    cr_assert_eq(json_object_array_length(ta), json_object_array_length(tb));
    for (size_t i = 0; i < json_object_array_length(ta); i++) {
        json_object *x = json_object_array_get_idx(ta, i), *y = json_object_array_get_idx(tb, i);
        cr_assert_str_eq(str(x, "name"), str(y, "name"));
        cr_assert_str_eq(str(x, "status"), str(y, "status"));
        cr_assert_float_eq(num(x, "score"), num(y, "score"), 1e-9);
    }
    const char *text = json_object_to_json_string(b);
    cr_assert_null(strstr(text, "subs/carl") ? text : NULL, "carl's path leaked into dina's results");
    cr_assert_null(strstr(text, "subs\\/carl") ? text : NULL, "carl's path leaked into dina's results");
    json_object_put(a), json_object_put(b);
    run_result_free(&r);
    rm_rf(k.dir);
}
