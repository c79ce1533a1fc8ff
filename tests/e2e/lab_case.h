/* lab_case.h - one-mistake submissions as data, for the end-to-end tests of
 * a lab (test_lab2.c, test_dotprod.c): a case names a submission, the score
 * it must get, the datasets that pass, the failure key (extra_data.failure)
 * and a line of output every other dataset must show, notes for the
 * datasets that fail otherwise or say more, and how many of the hidden
 * datasets (made from the tests' secret, e2e.h) pass. grade_case grades it
 * once on the emu backend and checks all of that. Runs from the repository
 * root. */
#ifndef CUGRADE_LAB_CASE_H
#define CUGRADE_LAB_CASE_H

#include "e2e.h"

#define CASE_MAX_DATASETS 32
#define CASE_MAX_NOTES 8
#define ANY_FAILURE "*" /* a note's failure: any key but a hypothesis (the outcome varies) */

/* The lab the cases belong to. */
typedef struct {
    const char *lab;         /* --lab */
    const char *dir;         /* of its submissions, ending in '/' */
    int ndatasets;
    double points_per_dataset;
    int nhidden;             /* hidden datasets (the rubric's "hidden.count") */
    double hidden_points;    /* each */
} lab_suite_t;

/* What one dataset's verdict says beyond the case's default. */
typedef struct {
    int dataset;
    const char *failure; /* its failure key (or ANY_FAILURE) instead of the default's, or NULL */
    const char *text;    /* in its output (then the default text is not required) */
} note_t;

typedef struct {
    const char *file;
    int checks;                          /* graded with the checks, else --checks none */
    double score;                        /* the whole score */
    int passing[CASE_MAX_DATASETS + 1];  /* the datasets that pass, -1 ended */
    const char *failure;                 /* every other dataset's failure key... */
    const char *text;                    /* ...and a line of its output */
    note_t notes[CASE_MAX_NOTES];        /* datasets that fail otherwise or say more; ends at a 0 one */
    int hidden_passed;                   /* the hidden datasets that pass (their points are in score) */
} lab_case_t;

/* Grades SUBMISSION as the suite's lab (e2e.h's grade() is lab 3's; a later --lab wins). */
static inline graded_t grade_lab(const lab_suite_t *s, const char *submission, int checks)
{
    const char *with[] = {"--lab", s->lab, NULL};
    const char *without[] = {"--lab", s->lab, "--checks", "none", NULL};
    graded_t g = grade(submission, checks ? with : without);
    cr_assert_eq(exit_code(&g), 0, "%s: %s", submission, g.run.output);
    cr_assert_not_null(g.json, "%s: no results.json: %s", submission, g.run.output);
    return g;
}

static inline json_object *dataset_test(const graded_t *g, int d)
{
    char prefix[32];
    snprintf(prefix, sizeof prefix, "dataset %d (", d);
    return test_named(g, prefix);
}

/* The test's extra_data.failure, "" when it has none. */
static inline const char *failure_of(json_object *t)
{
    json_object *extra, *f;
    if (!json_object_object_get_ex(t, "extra_data", &extra) ||
        !json_object_object_get_ex(extra, "failure", &f))
        return "";
    return json_object_get_string(f);
}

static inline int count_passing(const lab_case_t *c)
{
    int n = 0;
    while (n < CASE_MAX_DATASETS && c->passing[n] >= 0)
        n++;
    return n;
}

static inline int expected_to_pass(const lab_case_t *c, int d)
{
    for (int i = 0; i < count_passing(c); i++)
        if (c->passing[i] == d)
            return 1;
    return 0;
}

static inline int note_count(const lab_case_t *c)
{
    int n = 0;
    while (n < CASE_MAX_NOTES && (c->notes[n].failure || c->notes[n].text))
        n++;
    return n;
}

/* Checks a failing dataset's key and output against c's default and notes. */
static inline void expect_failing_dataset(const lab_case_t *c, int d, json_object *t)
{
    const char *out = str(t, "output"), *failure = c->failure, *text = c->text;
    cr_expect(!passed(t), "%s: dataset %d should fail:\n%s", c->file, d, out);
    for (int i = 0; i < note_count(c); i++) {
        const note_t *n = &c->notes[i];
        if (n->dataset != d)
            continue;
        if (n->failure)
            failure = n->failure;
        if (n->text) {
            cr_expect_not_null(strstr(out, n->text), "%s: dataset %d: '%s' missing:\n%s", c->file,
                               d, n->text, out);
            text = NULL;
        }
    }
    if (strcmp(failure, ANY_FAILURE) == 0)
        cr_expect(failure_of(t)[0] && strncmp(failure_of(t), "hypothesis:", 11) != 0,
                  "%s: dataset %d: failure '%s':\n%s", c->file, d, failure_of(t), out);
    else
        /* without an "@CAUSE" the case says nothing of the likely cause beside the key */
        cr_expect(strchr(failure, '@') ? strcmp(failure_of(t), failure) == 0
                                       : strncmp(failure_of(t), failure, strcspn(failure_of(t), "@")) == 0 &&
                                             strlen(failure) == strcspn(failure_of(t), "@"),
                  "%s: dataset %d: failure %s, want %s:\n%s", c->file, d, failure_of(t), failure, out);
    if (text)
        cr_expect_not_null(strstr(out, text), "%s: dataset %d: '%s' missing:\n%s", c->file, d,
                           text, out);
}

/* Grades c's submission and checks the score, the datasets that pass, and
 * the failure key and output of every other. Returns the grade for more. */
static inline graded_t grade_case(const lab_suite_t *s, const lab_case_t *c)
{
    char path[256];
    snprintf(path, sizeof path, "%s%s", s->dir, c->file);
    graded_t g = grade_lab(s, path, c->checks);
    json_object *extra;
    cr_assert(json_object_object_get_ex(g.json, "extra_data", &extra));
    cr_expect_str_eq(str(extra, "lab"), s->lab);
    cr_expect_eq((int)num(extra, "datasets_passed"), count_passing(c), "%s: %d datasets passed",
                 c->file, (int)num(extra, "datasets_passed"));
    cr_expect_eq((int)num(extra, "datasets_total"), s->ndatasets);
    cr_expect_eq((int)num(extra, "hidden_passed"), c->hidden_passed, "%s: %d hidden datasets passed",
                 c->file, (int)num(extra, "hidden_passed"));
    cr_expect_eq((int)num(extra, "hidden_total"), s->nhidden);
    cr_expect_float_eq(num(g.json, "score"), c->score, 1e-9, "%s: score %g, want %g", c->file,
                       num(g.json, "score"), c->score);
    cr_expect(passed(test_named(&g, "compiles")), "%s does not compile", c->file);
    for (int d = 0; d < s->ndatasets; d++) {
        json_object *t = dataset_test(&g, d);
        if (expected_to_pass(c, d)) {
            cr_expect(passed(t), "%s: dataset %d should pass:\n%s", c->file, d, str(t, "output"));
            cr_expect_float_eq(num(t, "score"), s->points_per_dataset, 1e-9);
        } else {
            expect_failing_dataset(c, d, t);
            cr_expect_float_eq(num(t, "score"), 0.0, 1e-9);
        }
    }
    return g;
}

/* Checks a check test's verdict, its points (points when it passes, 0 when
 * not, points at most) and a line of its output (unless text is NULL). */
static inline void expect_check(const graded_t *g, const char *name, int pass, double points,
                                const char *text)
{
    json_object *t = test_named(g, name);
    const char *out = str(t, "output");
    cr_expect_eq(passed(t), pass, "%s should %s:\n%s", name, pass ? "pass" : "fail", out);
    cr_expect_float_eq(num(t, "score"), pass ? points : 0.0, 1e-9, "%s: %s", name, out);
    cr_expect_float_eq(num(t, "max_score"), points, 1e-9);
    if (text)
        cr_expect_not_null(strstr(out, text), "%s: '%s' missing:\n%s", name, text, out);
}

/* Every test passes and the score is the rubric's whole max_score. */
static inline void expect_every_test_passes(const graded_t *g, const char *file, double max)
{
    json_object *tests = tests_of(g);
    double sum = 0;
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        json_object *t = json_object_array_get_idx(tests, i);
        cr_expect(passed(t), "%s: %s failed:\n%s", file, str(t, "name"), str(t, "output"));
        sum += num(t, "max_score");
    }
    cr_expect_float_eq(sum, max, 1e-9, "%s: the tests are worth %g", file, sum);
    cr_expect_float_eq(num(g->json, "score"), max, 1e-9, "%s: %s", file, g->run.output);
}

#endif
