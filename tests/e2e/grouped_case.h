/* grouped_case.h - what the end-to-end tests of grouped dataset runs share
 * (test_grouped.c, test_grouped_crashes.c): a grading in either mode on
 * datasets of given shapes, and the checks that grouped runs give the
 * verdicts of separate runs. Runs from the repository root. */
#ifndef CUGRADE_GROUPED_CASE_H
#define CUGRADE_GROUPED_CASE_H

#include "e2e.h"

static const char *const four_shapes[] = {"16x16x16", "33x17x9", "20x10x30", "9x9x9", NULL};

/* `cugrade run --dataset-runs MODE --datasets DIR [--rubric R]` on the emulator. */
static inline graded_t grade_mode(const char *mode, const char *submission, const char *dir,
                           const char *rubric)
{
    const char *extra[] = {"--dataset-runs", mode, "--datasets", dir,
                           rubric ? "--rubric" : NULL, rubric, NULL};
    return grade(submission, extra);
}

/* Same tests, in the same order, with the same status and score. */
static inline void expect_same_verdicts(const graded_t *grouped, const graded_t *separate)
{
    json_object *tg = tests_of(grouped), *ts = tests_of(separate);
    cr_assert_eq(json_object_array_length(tg), json_object_array_length(ts));
    for (size_t i = 0; i < json_object_array_length(tg); i++) {
        json_object *a = json_object_array_get_idx(tg, i), *b = json_object_array_get_idx(ts, i);
        cr_expect_str_eq(str(a, "name"), str(b, "name"));
        cr_expect_str_eq(str(a, "status"), str(b, "status"), "%s grouped:\n%s\nseparate:\n%s",
                         str(a, "name"), str(a, "output"), str(b, "output"));
        cr_expect_float_eq(num(a, "score"), num(b, "score"), 1e-9, "%s", str(a, "name"));
    }
    cr_expect_float_eq(num(grouped->json, "score"), num(separate->json, "score"), 1e-9);
}

/* dir (23 bytes): a new folder /tmp/cugrade-ds-XXXXXX of datasets of the
 * given shapes; the caller removes it. */
static inline void temp_datasets(char *dir, const char *const *shapes)
{
    strcpy(dir, "/tmp/cugrade-ds-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    make_datasets(dir, shapes);
}

/* Grades submission both ways on datasets of the given shapes. */
static inline void compare_modes(const char *submission, const char *const *shapes)
{
    char dir[23];
    temp_datasets(dir, shapes);
    graded_t g = grade_mode("grouped", submission, dir, NULL);
    graded_t s = grade_mode("separate", submission, dir, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert_eq(exit_code(&s), 0, "%s", s.run.output);
    expect_same_verdicts(&g, &s);
    release(&g);
    release(&s);
    rm_rf(dir);
}

static inline const char *dataset_output(const graded_t *g, int i)
{
    char name[32];
    snprintf(name, sizeof name, "dataset %d ", i);
    return str(test_named(g, name), "output");
}

#endif
