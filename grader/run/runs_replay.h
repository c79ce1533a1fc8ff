/* runs_replay.h - the vgpu backend's runs done again on a real GPU (issue
 * 39, item 5; runs_replay is run/runs*.c's, runs_replay_command the
 * checks' too, pipeline/grade_checks.c): for each run the program
 * ended well and whose output the executor wrote, the launches it recorded
 * (<output>.trace) are replayed by the GPU's trusted runner
 * (bin/cugrade-replay) from the cubin of the compile whose PTX the
 * executor ran, with the dataset's inputs and no student host code. Its
 * output (<dir>.gpu.bin, a libwb program's <dir>.gpu.raw) is judged too
 * (compare/verdict.c): a kernel that computes something else on a GPU
 * than on the executor, or fails there, fails the dataset. */
#ifndef CUGRADE_RUNS_REPLAY_H
#define CUGRADE_RUNS_REPLAY_H

#include "run/ds_run.h"
#include "util/tally.h"

/* Replays runs[index[0..n)] one after the other (one GPU); a runner that
 * cannot (exit 2, a signal) is the grader's fault, counted in faults. */
void runs_replay(ds_run_t *runs, const int *index, int n, const runs_how_t *how, tally_t *faults);

/* The runner's command line for run r's record (a kernel lab's inputs:
 * the executor's folder), from cubin, its output to out. */
typedef struct {
    char trace[PATH_MAX], inputs[PATH_MAX];
    char *argv[8];
} runs_replay_argv_t;
int runs_replay_command(const ds_run_t *r, const lab_t *lab, const char *runner, const char *cubin,
                        const char *out, runs_replay_argv_t *a);

#endif
