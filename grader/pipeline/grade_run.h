/* grade_run.h - one grading's state as the pipeline fills it (what it
 * measured, the grade, where the time went), apart from grade.h so that the
 * pieces grade.c calls (grade_perf.h) need not include the pipeline. */
#ifndef CUGRADE_GRADE_RUN_H
#define CUGRADE_GRADE_RUN_H

#include <limits.h>

#include "build/backend.h"
#include "course/lab.h"
#include "course/rubric.h"
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
    PHASE_GPU_START,      /* the GPU programs' starts before they first asked for the GPU
                           * (the CUDA driver and context), inside datasets and timing */
    PHASE_GPU_SLOWEST,    /* not a phase: the longest GPU dataset run that ended, against
                           * its limit (gpu_time_limit_s), for the TA */
    PHASE_GPU_DATASETS_HELD, /* not a phase: how long the dataset runs held the GPU, against
                              * the budget of them all (gpu_budget_s), for the TA */
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
    char replay_runner[PATH_MAX];  /* vgpu with a GPU: the runner that replays its records there
                                    * (run/runs_replay.h; "": none) */
    double phase_s[PHASE_COUNT];   /* seconds spent in each phase */
} grade_run_t;

#endif
