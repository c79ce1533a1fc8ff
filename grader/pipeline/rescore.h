/* rescore.h - re-scoring stored measurements (score/measured.h) under a
 * rubric, with nothing built or run: `cugrade rescore` and `cugrade batch
 * --resume` after a rubric change. The grade comes from score_measured,
 * as a fresh grading's does (grade.h grade_run_score). */
#ifndef CUGRADE_RESCORE_H
#define CUGRADE_RESCORE_H

#include <limits.h>
#include <stddef.h>

#include "course/lab.h"
#include "course/rubric.h"
#include "pipeline/grade.h"

/* A lab and its rubric, loaded once for any number of re-scores. */
typedef struct {
    lab_t lab;
    lab_rubric_t rub;
    char *run_fields; /* rubric_run_fields(&rub) */
} rescore_ctx_t;

/* Loads root's lab and the rubric (rubric_path, NULL: <root>/rubric.json).
 * -1 with err naming the file that is wrong. */
int rescore_open(const char *root, const char *lab, const char *rubric_path, rescore_ctx_t *c,
                 char *err, size_t errlen);
void rescore_close(rescore_ctx_t *c);

/* Reads the measurements at path and scores them into run (zeroed first;
 * free it with grade_run_free either way). -1 with err naming the file when
 * it cannot be read or is malformed, was measured for another lab, or under
 * other run-affecting rubric fields (rubric_run_fields: time limits,
 * budgets, hidden count, checks, performance shapes): such a rubric needs
 * a new grading. */
int rescore_file(const rescore_ctx_t *c, const char *path, grade_run_t *run, char *err,
                 size_t errlen);

#endif
