/* perf_baseline.h - a batch's baseline timing: the lab's reference, its
 * untiled baseline and cuBLAS timed once on each GPU (and again at intervals,
 * to follow the card's drift), alone on it, instead of beside every
 * submission. A submission's timing program then times the student's kernel
 * alone (--impl student) and its ratios are taken against the latest
 * baseline of the GPU it ran on (score/perf.h perf_merge_baseline).
 *
 * The baseline file is the timing program's report (perf_parse reads it)
 * preceded by two lines of its own: "baseline_gpu N" and "baseline_at T"
 * (seconds since the epoch). */
#ifndef CUGRADE_PERF_BASELINE_H
#define CUGRADE_PERF_BASELINE_H

#include "pipeline/grade_opts.h"
#include "score/perf.h"

#include <stddef.h>

/* The lab of o is timed on a GPU (a performance test, a timing program)
 * under o's rubric: there is a baseline to make. */
int perf_baseline_wanted(const grade_opts_t *o);

/* Times the reference, baseline and cuBLAS of o's lab with o's rubric on GPU
 * o->gpu_index, alone on it in its queue (o->gpu_queue), and writes the
 * baseline file to out_path (a temporary file, renamed). result gets the
 * timing. 0, or -1 with err set (a grader fault: the reference's build or
 * timing failed). */
int perf_baseline_time(const grade_opts_t *o, const char *out_path, perf_result_t *result,
                       char *err, size_t errlen);

/* Whether the lab's reference runs under the lab's timing program on o's GPU
 * now, as this process's own timing runs (its view of the GPU, its queue):
 * built like a submission and timed for one round of the rubric's shapes,
 * alone. 0 it does; -1 with err saying what failed (when a submission's
 * timing failed too, a grader fault: pipeline/grade_perf.c). */
int perf_reference_times(const grade_opts_t *o, char *err, size_t errlen);

/* What the timing run is shown as CUDA_VISIBLE_DEVICES (a batch's own entry
 * for the GPU, batch/gpu_visible.c); NULL: o->gpu_index. Set before timing. */
void perf_baseline_set_visible(const char *visible);

/* Reads a baseline file: the timing, its GPU and when it was made. */
int perf_baseline_read(const char *path, perf_result_t *result, int *gpu, double *at, char *err,
                       size_t errlen);

#endif
