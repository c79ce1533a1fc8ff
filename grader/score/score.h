/* score.h - the one scoring function of cugrade: a grading's measurement
 * (measured.h) and the rubric make the grade_t that becomes results.json.
 * A fresh grading (pipeline/grade.c) and a re-score of stored measurements
 * (cugrade rescore, cugrade batch --resume after a rubric change) both go
 * through score_measured, so they cannot disagree. */
#ifndef CUGRADE_SCORE_H
#define CUGRADE_SCORE_H

#include "course/lab.h"
#include "course/rubric.h"
#include "report/results.h"
#include "score/measured.h"
#include "util/util.h"

#define SCORE_NOT_COMPILED_MSG "not run: does not compile"

/* Fills g (zeroed first) with the tests (compile, datasets, checks,
 * performance), the extra_data facts and timings, the execution time and
 * the top-level output. lab gives what the performance test reports in
 * (its kind's rate unit and bound) and whether it has a timing program. */
void score_measured(const measured_t *m, const lab_rubric_t *rub, const lab_t *lab, grade_t *g);

/* Why the performance test is not timed, appended to msg (nothing when it
 * is: compiled, on a GPU, the lab has a timing program, every dataset and
 * hidden dataset passed, no rule broken). Returns 1 when that is a failure
 * even where the test is worth nothing (a broken rule). Grading asks it
 * before timing; scoring asks again, for the message with the rubric's
 * points. */
int score_perf_not_timed(const measured_t *m, const perf_rule_t *rule, const lab_t *lab,
                         strbuf_t *msg);

#endif
