/* grade_perf.h - internal to grade.c: the performance measurement of a
 * grading (GPU only; the lab's timing program against its reference and
 * cuBLAS, score/perf.h, scored by score/score.h), in the datasets' own
 * process when it can (the timing tail) or in its own, and the GPU's timing
 * queue that the dataset runs share with it. */
#ifndef CUGRADE_GRADE_PERF_H
#define CUGRADE_GRADE_PERF_H

#include "run/gpuqueue.h"
#include "pipeline/grade_opts.h"
#include "pipeline/grade_run.h"
#include "pipeline/grade_inputs.h"
#include "build/build.h"
#include "run/ds_run.h"
#include "score/perf.h"

/* The timing tail (labs/common/harness.h): the datasets run by the timed
 * driver (build_timed_driver), which, once the grader has found every
 * output right, times the submission in the same process and CUDA context
 * instead of a second program. */
typedef struct {
    int ready;            /* built: the datasets run with br.program and these arguments */
    build_result_t br;    /* the timed driver */
    perf_command_t cmd;   /* the timing's command; its arguments after cmd.argv[0] */
    double limit_s;       /* the tail's time limit */
    int use_base;         /* timed against the batch's baseline (base, when) */
    perf_result_t base;
    char when[64];
    strbuf_t msg;         /* what the baseline's reading said */
    char report[PATH_MAX]; /* the tail's report channel lines */
    run_tail_t tail;      /* what happened (runs_how_t tail) */
    const lab_t *lab;     /* the judge's: every one of njobs outputs right */
    int njobs;
} perf_tail_t;

/* Builds the timed driver when the submission will be timed on a GPU if its
 * outputs pass (the rubric's performance test, the lab's timing program, a
 * build that broke no rule); *pt->ready says whether it was. */
void grade_perf_tail_prepare(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                             perf_tail_t *pt);
/* When pt is ready: the grouped GPU runs of how run the timed driver, its
 * tail judged by every one of in's datasets' outputs being right. */
void grade_perf_tail_offer(perf_tail_t *pt, const grading_inputs_t *in, runs_how_t *how);
void grade_perf_tail_free(perf_tail_t *pt);

/* With o->gpu_choices (a batch's several GPUs), takes the one with the
 * fewest submissions on it now (run/gpu_choice.h), points this process's
 * later runs at it and returns *chosen, o with its index and baseline;
 * else o. Called once, when the first dataset run is next. */
const grade_opts_t *grade_take_gpu(const grade_opts_t *o, grade_opts_t *chosen);

/* Measures the "performance" test into run->measured.perf (when the rubric
 * has one): timed on the GPU unless score_perf_not_timed says why not (the
 * emulator, a broken rule, a dataset that fails, ...); the score and the
 * timings in extra_data come from score_measured. 0, or -1 on a grader
 * fault (run->error). Needs the compile and dataset facts measured first.
 * On the vgpu backend with a GPU (run->replay_runner), the submission's
 * build (br) is timed by replaying its records (grade_perf_replay.h). */
int grade_measure_performance(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                              perf_tail_t *pt, const build_result_t *br);

#endif
