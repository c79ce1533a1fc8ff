/* grade.h - the pipeline for one submission:
 *   dataset -> build -> run (isolated child) -> compare -> score -> grade_t
 * The report (results.json, terminal) is rendered from the grade_t. */
#ifndef CUGRADE_GRADE_H
#define CUGRADE_GRADE_H

#include <limits.h>

#include "build/backend.h"
#include "course/lab.h"
#include "course/rubric.h"
#include "pipeline/grade_opts.h"
#include "report/results.h"
#include "score/measured.h"


/* Where a grading's time goes (results.json extra_data "phases"; bench/batch.sh
 * sums them over a class). The GPU waits are the time spent in the GPU's
 * queue (gpuqueue.h), counted inside the phase that waited too. */
typedef enum {
    PHASE_BUILD,          /* compiling and linking the student's program */
    PHASE_DATASETS,       /* its dataset runs */
    PHASE_EMU_BUILD,      /* the checked emulator build (gpu backend) */
    PHASE_EMU_CHECKS,     /* its dataset runs */
    PHASE_SANITIZER,      /* compute-sanitizer on the GPU */
    PHASE_TIMING_BUILD,   /* linking the timing program */
    PHASE_TIMING,         /* running it (its waits included) */
    PHASE_GPU_WAIT,       /* waiting in the GPU's queue, every phase together */
    PHASE_GPU_EXCLUSIVE,  /* holding the GPU alone (the timed part) */
    PHASE_COUNT
} grade_phase_t;

typedef struct {
    measured_t measured;           /* what the grading measured (score/measured.h) */
    grade_t grade;                 /* the tests, as they go into results.json: measured scored
                                    * under the rubric (grade_run_score) */
    backend_t backend;             /* resolved */
    char backend_why[160];
    char student_file[PATH_MAX];   /* the file that was graded ("" if none found) */
    int datasets_passed, datasets_total; /* the public datasets */
    int hidden_passed, hidden_total;     /* the hidden ones (hidden_set.h) */
    int cannot_grade;              /* 1: the grader could not (fully) grade: exit 2 */
    char error[4096];              /* why, when cannot_grade */
    char scratch[PATH_MAX];        /* kept folder, when keep_scratch */
    double budget_s;               /* in force: --budget-s, else the rubric's (0: none) */
    char rule_broken[1024];        /* a rule of the lab the submission breaks (build.h) */
    double phase_s[PHASE_COUNT];   /* seconds spent in each phase */
} grade_run_t;

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

/* Finds the student's file for a lab: SUBMISSION itself if it is a file,
 * else SUBMISSION/<lab>/<file> or SUBMISSION/<file>. */
int find_student_file(const char *submission, const char *lab, const char *file, char *out,
                      size_t outlen);

#endif
