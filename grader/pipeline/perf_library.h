/* perf_library.h - what an array lab's library baseline (lab.json
 * array.baseline: CUB, cuSPARSE, cuDNN ...) does on the performance test's
 * shapes, quoted beside the student's rate: the lab's own code, timed on
 * the GPU by labs/kinds/array/library_timer.cu, never scored. */
#ifndef CUGRADE_PERF_LIBRARY_H
#define CUGRADE_PERF_LIBRARY_H

#include "course/lab.h"
#include "pipeline/grade_opts.h"
#include "score/perf_result.h"
#include "util/util.h"

/* Adds the implementation "library" to each shape of pr that the library
 * timer timed right; where it cannot (no GPU program, a library the
 * machine lacks, a wrong output), msg says so. Without a CUDA device (a
 * pretend GPU's replay) nothing. A timing is kept beside the
 * timer, per shape and device, and used again while the timer is older.
 * $CUGRADE_LIBRARY_TIMER names another timer (the tests' pretend one). */
void perf_library_time(const grade_opts_t *o, const lab_t *lab, const char *scratch, perf_result_t *pr,
                       strbuf_t *msg);

#endif
