/* grade_checks.h - internal to grade.c: what the rubric's checks (races,
 * barriers, memory, traffic) are judged from. On the emu backend, the
 * reports of the dataset runs themselves; on the gpu backend, a checked
 * emulator build run on the small datasets (check_jobs.h), and
 * compute-sanitizer on the GPU where those gave no evidence. */
#ifndef CUGRADE_GRADE_CHECKS_H
#define CUGRADE_GRADE_CHECKS_H

#include "pipeline/checked_build.h"
#include "pipeline/grade_inputs.h"
#include "pipeline/grade_opts.h"
#include "pipeline/grade_run.h"
#include "run/runs.h"

/* What the checks are judged from: every report of their runs, kept in
 * run->measured (evidence_add records them), or why they did not run; -1
 * on a grader fault (run->error). runs: the dataset runs (NULL-safe when
 * the build failed: compiled 0); cb: the checked build, on a GPU. */
int grade_measure_checks(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                         const ds_job_t *jobs, const ds_run_t *runs, int compiled,
                         checked_build_t *cb);

#endif
