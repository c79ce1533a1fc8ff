/* runs.h - the datasets of one grading, loaded once, and their runs: the lab
 * program executed once per dataset in its own scratch folder, given only
 * the inputs (as matbin files), several at a time; or, grouped, every
 * dataset in one process of the driver's list mode (labs/common/harness.h),
 * split back into one result per dataset. A dataset may be run by two
 * programs (the GPU build for correctness, the checked emulator build for
 * the checks). */
#ifndef CUGRADE_RUNS_H
#define CUGRADE_RUNS_H

#include "run/ds_run.h"

/* Loads every dataset (a failure is kept in the job, not fatal) and its rule. */
ds_job_t *jobs_load(const dataset_ref_t *refs, int n, const lab_t *lab, const lab_rubric_t *rub);
/* jobs (n of them) and, after them, the hidden datasets refs[0..nhidden)
 * with the rubric's hidden rule (realloc'd; hidden_index 1..nhidden). */
ds_job_t *jobs_append_hidden(ds_job_t *jobs, int n, const dataset_ref_t *refs, int nhidden,
                             const lab_t *lab, const lab_rubric_t *rub);
void jobs_free(ds_job_t *jobs, int n);
/* "dataset 12 (417x210x519)", "hidden dataset 3 (33x31x65)" */
void job_test_name(const ds_job_t *j, char *buf, size_t len);


/* Runs how->program on every loaded dataset; returns n runs (in dataset
 * order). A kernel-style lab's driver is called as PROG IN0.bin IN1.bin
 * OUT.bin (matbin files); a program-style (libwb) lab's program as
 * PROG -e EXPECTED -i IN0.raw,IN1.raw -o OUT.raw -t TYPE, like libwb's runs,
 * with copies of the dataset's own .raw inputs and an EXPECTED path that
 * does not exist (the grader compares OUT itself). */
/* When the dataset runs starting now must have finished, for a budget of
 * budget_s (runs_how_t not_after; 0: no budget). */
double runs_not_after(double budget_s);

ds_run_t *runs_execute(const ds_job_t *jobs, int n, const runs_how_t *how);

/* How many runs of this process the executor could not serve for a reason
 * of its own (its exit status 2: the PTX unreadable, a dataset it could not
 * read), and the first one's message in why: a grading that had one is the
 * grader's fault (grade.c). */
int runs_executor_faults(char *why, size_t whylen);

void runs_free(ds_run_t *runs, int n);

/* ---- grouped runs (runs_grouped.c) --------------------------------------
 * With how->grouped, the run folders lie in <scratch>/<prefix>-group (the
 * group's working folder, the only one it may write) with the list the
 * driver reads, and every run keeps its single-run argv (compute-sanitizer
 * reruns one dataset with it). One process runs the datasets in order; a
 * dataset is graded from it only on its own end marker: "end" (it exited 0,
 * with the marker's wall time and its own output) or "failed" (a CUDA error
 * that left the context usable ended it with status 3, as a separate run
 * would have exited). The dataset that began and did not end gets the
 * process's ending when it was the first the process ran (as in a separate
 * run), or when the watchdog stopped it at its limit; otherwise it is run
 * again, first in a new group, so that no dataset fails for what an earlier
 * one left behind. The datasets after it go to a new group; a group of one
 * is a separate run, except on a GPU, where it stays a group (its CUDA
 * context made before its clock starts). After two groups ended in a crash,
 * the rest run one a process, side by side (lanes: 4 on a GPU, else
 * how->max_parallel when >= 2). If the output was cut (runner cap) before a
 * dataset's end marker, that dataset and the ones after it are run again;
 * one that overflowed the cap on its own is run separately. If the process
 * ended before its first dataset began, the rest run separately
 * (group_split.h splits the output). */

#endif
