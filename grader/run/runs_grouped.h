/* runs_grouped.h - the datasets of one program in the driver's list mode
 * (runs.h describes it; private to grader/run/runs*.c). */
#ifndef CUGRADE_RUNS_GROUPED_H
#define CUGRADE_RUNS_GROUPED_H

#include "run/ds_run.h"
#include "run/group.h"

/* runs[index[0..n)] in group g, again and again until each has a result. */
void runs_grouped(ds_run_t *runs, const int *index, int n, const runs_how_t *how,
                  const group_t *g);

#endif
