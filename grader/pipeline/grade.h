/* grade.h - the pipeline for one submission:
 *   dataset -> build -> run (isolated child) -> compare -> score -> grade_t
 * The report (results.json, terminal) is rendered from the grade_t. */
#ifndef CUGRADE_GRADE_H
#define CUGRADE_GRADE_H

#include "pipeline/grade_opts.h"
#include "pipeline/grade_run.h"


/* The name of a phase in results.json ("build", "gpu_exclusive", ...). */
const char *grade_phase_name(grade_phase_t p);

/* Grades one submission. Returns 0 if a grade was produced (possibly with
 * some datasets that could not be graded: cannot_grade is then set too), -1
 * if no grade could be produced at all (error says why): among those every
 * grader fault (the toolchain, the emulator runtime, the lab's files, its
 * reference: canary.h) that would otherwise have been charged to the
 * student as a compile error or a failed dataset. */
int grade_submission(const grade_opts_t *opts, grade_run_t *run);
void grade_run_free(grade_run_t *run);

/* Scores run->measured under rub into run->grade (score_measured, the one
 * scoring function) and sets the counts, backend, student file and
 * cannot_grade from it: how every grading ends, and all that a re-score of
 * stored measurements does (rescore.c). */
void grade_run_score(grade_run_t *run, const lab_rubric_t *rub, const lab_t *lab);

/* Before a batch: can this tree grade o->lab at all? Loads the lab, rubric
 * and datasets, resolves the backend and runs the canary (canary.h; on a GPU
 * with checks, the emulator's too). 0: done says what passed; -1: a grader
 * fault, described in err. */
int grade_preflight(const grade_opts_t *o, char *done, size_t donelen, char *err, size_t errlen);

#endif
