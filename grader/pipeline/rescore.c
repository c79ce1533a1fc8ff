/* rescore.c - the end of every grading and all of a re-score: a
 * measurement scored under a rubric into a grade_run_t (grade_run_score),
 * and stored measurements read back and scored without building or running
 * anything (rescore.h). */
#include "pipeline/rescore.h"
#include "score/score.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void grade_run_score(grade_run_t *run, const lab_rubric_t *rub, const lab_t *lab)
{
    const measured_t *m = &run->measured;
    grade_free(&run->grade);
    score_measured(m, rub, lab, &run->grade);
    measured_counts_t k = measured_counts(m);
    run->datasets_passed = k.datasets_passed;
    run->datasets_total = k.datasets_total;
    run->hidden_passed = k.hidden_passed;
    run->hidden_total = k.hidden_total;
    run->backend = m->backend;
    snprintf(run->backend_why, sizeof run->backend_why, "%s", m->backend_why);
    snprintf(run->student_file, sizeof run->student_file, "%s", m->student_file);
    snprintf(run->rule_broken, sizeof run->rule_broken, "%s", m->rule_broken);
    run->cannot_grade = m->cannot_grade != NULL;
    if (m->cannot_grade)
        snprintf(run->error, sizeof run->error, "%s", m->cannot_grade);
}

int rescore_open(const char *root, const char *lab, const char *rubric_path, rescore_ctx_t *c,
                 char *err, size_t errlen)
{
    char path[PATH_MAX];
    memset(c, 0, sizeof *c);
    if (rubric_path)
        snprintf(path, sizeof path, "%s", rubric_path);
    else
        snprintf(path, sizeof path, "%s/rubric.json", root);
    if (lab_load(root, lab, &c->lab, err, errlen) != 0 ||
        rubric_load(path, lab, &c->rub, err, errlen) != 0)
        return -1;
    c->run_fields = rubric_run_fields(&c->rub);
    return 0;
}

void rescore_close(rescore_ctx_t *c)
{
    rubric_free(&c->rub);
    free(c->run_fields);
    c->run_fields = NULL;
}

/* The first line where two renderings of run fields differ, into buf. */
static void first_difference(const char *a, const char *b, char *buf, size_t len)
{
    while (*a && *b) {
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || strncmp(a, b, la) != 0) {
            snprintf(buf, len, "%.*s, now %.*s", (int)la, a, (int)lb, b);
            return;
        }
        a += la + (a[la] == '\n');
        b += lb + (b[lb] == '\n');
    }
    snprintf(buf, len, "%.120s, now %.120s", *a ? a : "(nothing)", *b ? b : "(nothing)");
}

int rescore_file(const rescore_ctx_t *c, const char *path, grade_run_t *run, char *err,
                 size_t errlen)
{
    memset(run, 0, sizeof *run);
    measured_t *m = &run->measured;
    if (measured_read(path, m, err, errlen) != 0)
        return -1;
    if (strcmp(m->lab, c->lab.name) != 0)
        return fail(err, errlen, "%s: measured for lab %s, not %s", path, m->lab, c->lab.name);
    if (strcmp(m->rubric_run_fields, c->run_fields) != 0) {
        char diff[512];
        first_difference(m->rubric_run_fields, c->run_fields, diff, sizeof diff);
        return fail(err, errlen, "%s: measured under other run-affecting rubric fields (%s): "
                    "only a new grading can score it under this rubric", path, diff);
    }
    grade_run_score(run, &c->rub, &c->lab);
    return 0;
}
