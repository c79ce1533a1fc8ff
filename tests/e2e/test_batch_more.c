/* test_batch_more.c - end to end: `cugrade batch` on submissions that are
 * archives (.tar.gz graded; one with `..` rejected with a results.json that
 * says why), in Gradescope's layout (the student file deep in the tree, named
 * in run.log), and identical (graded once, both get the same grade). */
#include "e2e.h"

static void sh_in(const char *dir, const char *line)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd %s && (%s) >/dev/null 2>&1", dir, line);
    cr_assert_eq(system(cmd), 0, "fixture failed: %s", line);
}

static char *run_log(const batch_class_t *k, const char *id)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/run.log", k->out, id);
    char *text = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(text, "no run.log for %s", id);
    return text;
}

Test(batch_more, a_tar_gz_submission_is_unpacked_and_graded, .timeout = 300)
{
    batch_class_t k = make_batch_class("bmore");
    sh_in(k.dir, "mkdir -p pack/lab3 && cp $OLDPWD/reference/lab3/matmul.cu pack/lab3/ && "
                 "tar czf subs/alice.tar.gz -C pack lab3");
    run_result_t r = run_class_batch(&k);
    cr_assert(strstr(r.output, "alice  2/2"), "%s", r.output);
    json_object *j = class_results(&k, "alice");
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
    batch_class_t k = make_batch_class("bmore");
    sh_in(k.dir, "mkdir -p a/b && echo x > a/evil && cd a/b && tar czPf ../../subs/mallory.tgz ../evil");
    run_result_t r = run_class_batch(&k);
    cr_assert(strstr(r.output, "mallory  rejected"), "%s", r.output);
    json_object *j = class_results(&k, "mallory"), *tests;
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
    batch_class_t k = make_batch_class("bmore");
    sh_in(k.dir, "mkdir -p subs/bob/submission/src subs/bob/__MACOSX/x && "
                 "cp $OLDPWD/" SUB "intdiv_grid.cu subs/bob/submission/src/matmul.cu && "
                 "cp $OLDPWD/reference/lab3/matmul.cu subs/bob/__MACOSX/x/matmul.cu");
    run_result_t r = run_class_batch(&k);
    cr_assert(strstr(r.output, "bob  1/2"), "%s", r.output);
    char *log = run_log(&k, "bob");
    cr_assert(strstr(log, "took submission/src/matmul.cu (the only matmul.cu"), "%s", log);
    free(log);
    run_result_free(&r);
    rm_rf(k.dir);
}

Test(batch_more, identical_students_are_graded_once_with_the_same_grade, .timeout = 300)
{
    batch_class_t k = make_batch_class("bmore");
    sh_in(k.dir, "mkdir -p subs/carl subs/dina/lab3 && cp $OLDPWD/" SUB "intdiv_grid.cu subs/carl/matmul.cu"
                 " && cp $OLDPWD/" SUB "intdiv_grid.cu subs/dina/lab3/matmul.cu");
    run_result_t r = run_class_batch(&k);
    cr_assert(strstr(r.output, "dina  1/2  0.0 s  identical to carl"), "%s", r.output);
    char *log = run_log(&k, "dina");
    cr_assert(strstr(log, "identical to carl, graded once"), "%s", log);
    free(log);
    json_object *a = class_results(&k, "carl"), *b = class_results(&k, "dina"), *ta, *tb;
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
