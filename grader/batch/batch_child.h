/* batch_child.h - internal to `cugrade batch`: the child `cugrade run`
 * that grades one submission (batch_child.c). */
#ifndef CUGRADE_BATCH_CHILD_H
#define CUGRADE_BATCH_CHILD_H

#include "batch/batch_job.h"
#include "batch/gpu_plan.h"

#include <stddef.h>

/* j's child: its argv, spec and environment, under o's options and g's use
 * of the GPUs (the GPU itself is given later, by gpu_assign). */
void batch_prepare_child(const batch_opts_t *o, const gpu_plan_t *g, job_t *j);

/* Puts the ended child's results in place: run.log, measurements.json,
 * results.json (a stand-in when it could not grade; none for a grader
 * fault: batch_not_graded), and last the keys that vouch for them. 0, or
 * -1 with err. */
int batch_finish_child(job_t *j, char *err, size_t errlen);

#endif
