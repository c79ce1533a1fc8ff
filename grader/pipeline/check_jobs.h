/* check_jobs.h - the datasets the checked emulator build runs on the gpu
 * backend: those that can reveal a bug for little work (check_jobs_pick),
 * leaving out those whose GPU run did not end (a kernel that never ends
 * would only spin the emulator to its own limit too). */
#ifndef CUGRADE_CHECK_JOBS_H
#define CUGRADE_CHECK_JOBS_H

#include "run/runs.h"

/* The arithmetic work of the datasets the checks pick: at most this. */
#define CHECK_FLOP_CAP (2.0 * 128 * 128 * 128)

/* Whether a dataset's GPU run did not end: it passed its time limit, or
 * was not run once the time budget was used up. */
int check_run_did_not_end(const ds_run_t *run);

/* Copies (structs; jobs keep their data) of the jobs[0..n) to check: every
 * one of at most CHECK_FLOP_CAP FLOP, or the smallest should none be that
 * small, leaving out any whose GPU run (runs[i], NULL: none ran) did not end.
 * *count: how many; *left_out: how many small ones were left out for not
 * ending. The same rule alone or in a batch, so the verdict is the same. */
ds_job_t *check_jobs_pick(const ds_job_t *jobs, const ds_run_t *runs, int n, int *count,
                          int *left_out);

#endif
