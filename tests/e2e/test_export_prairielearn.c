/* test_export_prairielearn.c - `cugrade export prairielearn`: the question
 * folder's info.json and question.html, and its grading script run against a
 * temporary root that mimics /grade (PL_GRADE_ROOT; CUGRADE_HOME is this
 * built tree, standing in for the image's /opt/cugrade) for the reference,
 * the stub, a compile error (not gradable, the compiler's message) and a
 * buggy kernel, each results.json checked against PrairieLearn's documented
 * result format (externalGrading, "Grading results"). The image's Dockerfile
 * is built with docker where docker works. */
#include "export_case.h"

#include <ctype.h>

typedef struct {
    char tmp[64];
    char dir[128]; /* the question folder */
} pl_t;

static void export_question(pl_t *p)
{
    temp_dir(p->tmp, sizeof p->tmp, "prairielearn");
    snprintf(p->dir, sizeof p->dir, "%s/question", p->tmp);
    run_result_t r = cugrade_export("prairielearn", "lab3", p->dir);
    cr_assert(ok(&r), "export: %s", r.output);
    run_result_free(&r);
}

static void check_result_test(json_object *t)
{
    static const char *const keys[] = {"name", "description", "points", "max_points", "output",
                                       "message", NULL};
    only_keys(t, keys, "tests[]");
    typed(t, "name", json_type_string);
    typed(t, "points", json_type_double);
    typed(t, "max_points", json_type_double);
    typed(t, "output", json_type_string);
    typed(t, "message", json_type_string);
    cr_expect_leq(json_object_get_double(json_object_object_get(t, "points")),
                  json_object_get_double(json_object_object_get(t, "max_points")));
}

static json_object *check_results(json_object *r)
{
    static const char *const keys[] = {"gradable", "score", "message", "output", "tests",
                                       "images", "format_errors", NULL};
    cr_assert_not_null(r, "no results.json");
    only_keys(r, keys, "results.json");
    typed(r, "gradable", json_type_boolean);
    double score = json_object_get_double(typed(r, "score", json_type_double));
    cr_expect(score >= 0 && score <= 1, "score %g is not in 0..1", score);
    typed(r, "message", json_type_string);
    typed(r, "output", json_type_string);
    typed(r, "format_errors", json_type_object);
    json_object *tests = typed(r, "tests", json_type_array);
    for (size_t i = 0; i < json_object_array_length(tests); i++)
        check_result_test(json_object_array_get_idx(tests, i));
    return r;
}

/* Grades file (a path in this tree) as /grade/student/matmul.cu or, with
 * in_data, only as data.json's submitted_answers._files. */
static json_object *grade_pl_as(const pl_t *p, const char *file, int in_data)
{
    char cmd[2048], env0[256], env1[PATH_MAX + 32], home[PATH_MAX], results[256];
    cr_assert_not_null(realpath(".", home));
    snprintf(cmd, sizeof cmd,
             "set -e; g=%s/grade; rm -rf $g; mkdir -p $g/student $g/data $g/results; "
             "cp -r %s/tests $g/tests; f=%s; "
             "if [ %d = 1 ]; then printf '{\"submitted_answers\": {\"_files\": "
             "[{\"name\": \"matmul.cu\", \"contents\": \"%%s\"}]}}' "
             "\"$(base64 -w0 $f)\" > $g/data/data.json; "
             "else echo '{}' > $g/data/data.json; cp $f $g/student/matmul.cu; fi; "
             "$g/tests/run.sh",
             p->tmp, p->dir, file, in_data);
    snprintf(env0, sizeof env0, "PL_GRADE_ROOT=%s/grade", p->tmp);
    snprintf(env1, sizeof env1, "CUGRADE_HOME=%s", home);
    char *env[] = {env0, env1, NULL};
    run_result_t r = sh(NULL, cmd, env, 600);
    cr_assert(ok(&r), "run.sh: %s", r.output);
    run_result_free(&r);
    snprintf(results, sizeof results, "%s/grade/results/results.json", p->tmp);
    return check_results(json_object_from_file(results));
}

static json_object *grade_pl(const pl_t *p, const char *file)
{
    return grade_pl_as(p, file, 0);
}

static int gradable(json_object *r)
{
    return json_object_get_boolean(json_object_object_get(r, "gradable"));
}

Test(export_prairielearn, grades_reference_stub_compile_error_and_buggy, .timeout = 1200)
{
    pl_t p;
    export_question(&p);
    json_object *r = grade_pl(&p, "reference/lab3/matmul.cu");
    cr_expect(gradable(r));
    cr_expect_eq(num(r, "score"), 1.0, "the reference gets full marks: %g", num(r, "score"));
    cr_expect_gt(json_object_array_length(json_object_object_get(r, "tests")), 3);
    json_object_put(r);

    r = grade_pl(&p, "student/lab3/matmul.cu");
    cr_expect(gradable(r));
    cr_expect_eq(num(r, "score"), 0.0);
    json_object_put(r);

    r = grade_pl(&p, SUB "compile_error.cu");
    cr_expect(!gradable(r), "a compile error is not gradable");
    cr_expect(strstr(str(r, "message"), "error:") != NULL, "the compiler's message: %s",
              str(r, "message"));
    json_object *fe = json_object_object_get(json_object_object_get(r, "format_errors"),
                                             "matmul.cu");
    cr_expect(fe && strstr(json_object_get_string(fe), "error:"));
    json_object_put(r);

    r = grade_pl_as(&p, "reference/lab3/matmul.cu", 1);
    cr_expect(gradable(r));
    cr_expect_eq(num(r, "score"), 1.0, "the file from data.json: %g", num(r, "score"));
    json_object_put(r);

    r = grade_pl(&p, SUB "missing_second_barrier.cu");
    cr_expect(gradable(r));
    cr_expect(num(r, "score") > 0 && num(r, "score") < 1, "part marks: %g", num(r, "score"));
    json_object_put(r);
    rm_rf(p.tmp);
}

static int is_uuid(const char *s)
{
    static const char form[] = "xxxxxxxx-xxxx-4xxx-xxxx-xxxxxxxxxxxx";
    if (strlen(s) != sizeof form - 1)
        return 0;
    for (size_t i = 0; form[i]; i++)
        if (form[i] == 'x' ? !isxdigit((unsigned char)s[i]) : s[i] != form[i])
            return 0;
    return 1;
}

Test(export_prairielearn, writes_info_json_question_html_and_the_grader)
{
    pl_t p;
    export_question(&p);
    char path[256];
    snprintf(path, sizeof path, "%s/info.json", p.dir);
    json_object *info = json_object_from_file(path);
    cr_assert_not_null(info);
    cr_expect(is_uuid(json_object_get_string(typed(info, "uuid", json_type_string))));
    cr_expect_str_eq(json_object_get_string(typed(info, "title", json_type_string)),
                     "Tiled matrix multiplication with shared memory");
    typed(info, "topic", json_type_string);
    typed(info, "tags", json_type_array);
    cr_expect_str_eq(str(info, "type"), "v3");
    cr_expect_str_eq(str(info, "gradingMethod"), "External");
    cr_expect(json_object_get_boolean(typed(info, "singleVariant", json_type_boolean)));
    json_object *ext = typed(info, "externalGradingOptions", json_type_object);
    cr_expect(json_object_get_boolean(typed(ext, "enabled", json_type_boolean)));
    cr_expect_str_eq(json_object_get_string(typed(ext, "image", json_type_string)),
                     "cugrade-pl-lab3");
    cr_expect_str_eq(json_object_get_string(typed(ext, "entrypoint", json_type_string)),
                     "/grade/tests/run.sh");
    cr_expect_gt(json_object_get_int(typed(ext, "timeout", json_type_int)), 90);
    json_object_put(info);

    snprintf(path, sizeof path, "%s/question.html", p.dir);
    char *html = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(html);
    const char *want[] = {"<pl-question-panel>", "Tiled matrix multiplication",
                          "<strong>C = A · B</strong>", "<code>",
                          "<pl-file-editor file-name=\"matmul.cu\"",
                          "source-file-name=\"matmul.cu\"", "<pl-submission-panel>",
                          "<pl-external-grader-results>", NULL};
    for (int i = 0; want[i]; i++)
        cr_expect(strstr(html, want[i]) != NULL, "question.html lacks %s", want[i]);
    /* the file as the editor names it: there is no student/lab3/ in PrairieLearn */
    cr_expect(strstr(html, "<code>matmul.cu</code>"), "%s", html);
    cr_expect_null(strstr(html, "student/"), "question.html names the checkout's path: %s", html);
    free(html);

    run_result_t r;
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "set -e; q=%s; cmp $q/matmul.cu student/lab3/matmul.cu; test -x $q/tests/run.sh; "
             "cmp $q/tests/hidden-seed " HIDDEN_SEED "; test -f $q/tests/reference/lab3/matmul.cu; "
             "test ! -e $q/image/cugrade/reference/lab3; test -f $q/image/cugrade/Makefile; "
             "grep -q '^FROM debian' $q/Dockerfile; grep -q 'COPY image/cugrade' $q/Dockerfile",
             p.dir);
    r = sh(NULL, cmd, NULL, 60);
    cr_expect(ok(&r), "the folder's files: %s", r.output);
    run_result_free(&r);
    snprintf(path, sizeof path, "%s/tests/hidden-seed", p.dir);
    cr_expect_eq(file_mode(path), 0600);
    rm_rf(p.tmp);
}

Test(export_prairielearn, an_unknown_lab_or_unwritable_out_is_refused)
{
    pl_t p;
    temp_dir(p.tmp, sizeof p.tmp, "prairielearn");
    snprintf(p.dir, sizeof p.dir, "%s/question", p.tmp);
    run_result_t r = cugrade_export("prairielearn", "nolab", p.dir);
    cr_expect(r.exited && r.exit_code == 2);
    cr_expect(strstr(r.output, "unknown lab 'nolab'") != NULL, "%s", r.output);
    cr_expect(!is_dir(p.dir));
    run_result_free(&r);
    r = cugrade_export("prairielearn", "lab3", "/proc/cugrade-question");
    cr_expect(r.exited && r.exit_code == 2);
    cr_expect(strstr(r.output, "/proc/cugrade-question") != NULL, "%s", r.output);
    run_result_free(&r);
    rm_rf(p.tmp);
}

Test(export_prairielearn, the_grader_image_builds_with_docker, .timeout = 1200)
{
    run_result_t r = sh(NULL, "docker info >/dev/null 2>&1", NULL, 60);
    int docker = ok(&r);
    run_result_free(&r);
    if (!docker)
        cr_skip_test("docker does not work here (docker info fails): the image is not built");
    pl_t p;
    export_question(&p);
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "docker build -q -t cugrade-pl-lab3-test %s && "
             "docker run --rm cugrade-pl-lab3-test test -x /opt/cugrade/bin/cugrade; "
             "rc=$?; docker rmi cugrade-pl-lab3-test >/dev/null; exit $rc",
             p.dir);
    r = sh(NULL, cmd, NULL, 1100);
    cr_expect(ok(&r), "docker build: %s", r.output);
    run_result_free(&r);
    rm_rf(p.tmp);
}
