/* grade_perf.h - internal to grade.c: the performance test of a grading
 * (GPU only; the lab's timing program against its reference and cuBLAS,
 * score/perf.h), what it records in results.json's extra_data, and the
 * GPU's timing queue that the dataset runs share with it. */
#ifndef CUGRADE_GRADE_PERF_H
#define CUGRADE_GRADE_PERF_H

#include "run/gpuqueue.h"
#include "pipeline/grade.h"
#include "pipeline/grade_inputs.h"

/* Joins this GPU's queue (a no-op outside a batch); a queue that cannot be
 * used is reported and grading goes on without it. */
void grade_gpu_enter(const grade_opts_t *o, gpu_use_t use, gpu_slot_t *slot);

/* Adds the "performance" test: not scored on the emulator (0 of 0), nor
 * when the submission breaks a rule of the lab (run->rule_broken: 0 with
 * that message), nor before every dataset passes; else timed on the GPU.
 * With a timing, extra_data gets the device, perf_ratio (the scored ratio),
 * perf_relative_to and performance_shapes. 0, or -1 on a grader fault
 * (run->error). */
int grade_performance_test(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                           int compiled);

#endif
