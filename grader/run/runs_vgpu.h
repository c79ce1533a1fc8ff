/* runs_vgpu.h - a kernel lab's datasets on the executor (the vgpu backend,
 * issue 39; private to grader/run/runs*.c, the API is runs.h).
 *
 * Each dataset is two processes joined by a socket pair the grader makes:
 * the student's program (the kind's vgpu_main.cu and the student's file,
 * linked with emu/vcudart/), sandboxed as every student run, its folder
 * empty; and bin/cugrade-vgpu, the grader's, outside the sandbox. The
 * executor reads the inputs from a folder beside the run's (<dir>.in,
 * never shown to the program, so that it cannot change what the kernels
 * are given), owns device memory, runs the kernels from the PTX, and writes
 * the output (<dir>.out.bin, only when the kernels computed all of it) and
 * the findings (<dir>.report, the emulator's format) where the program
 * cannot reach: everything the grader reads of a run is the executor's. */
#ifndef CUGRADE_RUNS_VGPU_H
#define CUGRADE_RUNS_VGPU_H

#include "run/ds_run.h"

/* Fills a run of r->job in r->dir (made): the inputs in <dir>.in, the
 * program's argv and spec. 0, or -1 with r->error. */
int runs_vgpu_prepare(ds_run_t *r, const runs_how_t *how);

/* A libwb program's run r (prepared as on the emulator: its inputs copied
 * into its folder, its argv libwb's) made one beside the executor: its
 * solution is <dir>.solution.raw, which the executor writes, its findings
 * <dir>.report, and it has no report channel. */
void runs_vgpu_program(ds_run_t *r);

/* runs.h's runs_executor_faults: the runs the executor could not serve. */
int runs_vgpu_faults(char *why, size_t whylen);

/* Runs runs[index[0..n)], each beside its executor, at most
 * how->max_parallel pairs at a time. */
void runs_on_executor(ds_run_t *runs, const int *index, int n, const runs_how_t *how);

#endif
