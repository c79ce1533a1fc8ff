/* grade_perf.h - internal to grade.c: the performance measurement of a
 * grading (GPU only; the lab's timing program against its reference and
 * cuBLAS, score/perf.h, scored by score/score.h), and the GPU's timing
 * queue that the dataset runs share with it. */
#ifndef CUGRADE_GRADE_PERF_H
#define CUGRADE_GRADE_PERF_H

#include "run/gpuqueue.h"
#include "pipeline/grade_opts.h"
#include "pipeline/grade_run.h"
#include "pipeline/grade_inputs.h"

/* Joins this GPU's queue (a no-op outside a batch); a queue that cannot be
 * used is reported and grading goes on without it. */
void grade_gpu_enter(const grade_opts_t *o, gpu_use_t use, gpu_slot_t *slot);

/* Measures the "performance" test into run->measured.perf (when the rubric
 * has one): timed on the GPU unless score_perf_not_timed says why not (the
 * emulator, a broken rule, a dataset that fails, ...); the score and the
 * timings in extra_data come from score_measured. 0, or -1 on a grader
 * fault (run->error). Needs the compile and dataset facts measured first. */
int grade_measure_performance(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in);

#endif
