/* grade_perf_replay.h - performance on the vgpu backend where there is a
 * GPU (issue 39, item 5): the timing shapes' launches recorded by the
 * executor, not run (--dry), and timed on the GPU by bin/cugrade-replay
 * against the reference's records of the same inputs, so that the
 * student's host code never runs in a process whose times count. The
 * timing program (grade_perf.h) stays the gpu backend's. */
#ifndef CUGRADE_GRADE_PERF_REPLAY_H
#define CUGRADE_GRADE_PERF_REPLAY_H

#include "pipeline/grade_inputs.h"
#include "pipeline/grade_opts.h"
#include "score/perf_result.h"
#include "util/util.h"

/* Whether the lab's performance can be timed by replay: not yet for a libwb
 * program, a kind with no timing inputs, or a speed relative to cuBLAS. */
int grade_perf_replay_fits(const grading_inputs_t *in);

/* Times the submission (its vgpu program, PTX and cubin) on the rubric's
 * shapes with runner: 1 timed (pr, msg says how), 0 not (msg says why: a
 * kernel of the submission's failed on the GPU, its launches were not
 * recorded), -1 a grader fault (err: the reference, the runner). */
int grade_perf_replay(const grade_opts_t *o, const grading_inputs_t *in, const char *scratch,
                      const char *program, const char *ptx, const char *cubin, const char *runner,
                      strbuf_t *msg, perf_result_t *pr, char *err, size_t errlen);

#endif
