/* test_make_grade.c - the README's `make grade` with what a student or TA
 * types: a SUBMISSION whose path has a space or a quote in it is graded as
 * it is, not split into words (issue 38 item 2: it printed the usage text
 * and exited 64). */
#include <sys/stat.h>

#include "e2e.h"
#include "export_case.h"

/* `make grade SUBMISSION=<folder>/matmul.cu`, the folder named name. */
static void expect_graded_in(const char *name)
{
    char dir[256], file[320], cmd[1024];
    snprintf(dir, sizeof dir, "/tmp/cugrade-make-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char inner[300];
    snprintf(inner, sizeof inner, "%s/%s", dir, name);
    cr_assert_eq(mkdir(inner, 0755), 0);
    snprintf(file, sizeof file, "%s/matmul.cu", inner);
    copy_file_to("reference/lab3/matmul.cu", file);
    /* the shell's own quoting of the value, as a user types it: '...' with ' as '\'' */
    char quoted[800] = "'";
    size_t q = 1;
    for (const char *p = file; *p && q < sizeof quoted - 8; p++) {
        if (*p == '\'') {
            memcpy(quoted + q, "'\\''", 4);
            q += 4;
        } else {
            quoted[q++] = *p;
        }
    }
    quoted[q++] = '\'';
    quoted[q] = '\0';
    snprintf(cmd, sizeof cmd, "CUGRADE_SKIP_DEPS=1 make -s grade SUBMISSION=%s 2>&1", quoted);
    run_result_t r = sh(NULL, cmd, NULL, 600);
    cr_expect(ok(&r), "make grade with \"%s\": %s", file, r.output);
    cr_expect(strstr(r.output, "Score: 110 / 110"), "%s", r.output);
    cr_expect(strstr(r.output, name), "the report names the file as given: %s", r.output);
    run_result_free(&r);
    rm_rf(dir);
}

Test(make_grade, a_submission_path_with_a_space_is_one_argument, .timeout = 600)
{
    expect_graded_in("with space");
}

Test(make_grade, a_submission_path_with_a_quote_is_one_argument, .timeout = 600)
{
    expect_graded_in("it's mine");
}

/* Warnings are errors in development and CI, but the exported autograders
 * build on whatever compiler their image has, with WERROR= (issue 38 item
 * 18): a newer compiler's new warning must not break a course. */
Test(make_grade, warnings_are_errors_here_but_not_in_an_exported_build)
{
    run_result_t r = sh(NULL, "CUGRADE_SKIP_DEPS=1 make -n -B build/grader/util/fds.o 2>&1", NULL, 60);
    cr_expect(ok(&r) && strstr(r.output, "-Werror"), "%s", r.output);
    run_result_free(&r);
    r = sh(NULL, "CUGRADE_SKIP_DEPS=1 make -n -B WERROR= build/grader/util/fds.o 2>&1", NULL, 60);
    cr_expect(ok(&r) && strstr(r.output, "fds.c") && !strstr(r.output, "-Werror"), "%s", r.output);
    run_result_free(&r);
    const char *exported[] = {"grader/export/templates/gradescope/setup.sh",
                              "grader/export/templates/prairielearn/Dockerfile",
                              "grader/export/templates/classroom/grade.yml", NULL};
    for (int i = 0; exported[i]; i++) {
        char *text = read_file(exported[i], NULL, NULL, 0);
        cr_assert_not_null(text, "%s", exported[i]);
        for (const char *m = strstr(text, "make "); m; m = strstr(m + 1, "make ")) {
            size_t line = strcspn(m, "\n");
            if (strstr(m, " all") && (size_t)(strstr(m, " all") - m) < line)
                cr_expect(memmem(m, line, "WERROR=", 7), "%s builds with -Werror: %.*s",
                          exported[i], (int)line, m);
        }
        free(text);
    }
}
