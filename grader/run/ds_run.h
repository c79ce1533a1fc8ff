/* ds_run.h - the types of a grading's dataset runs (run/runs.h): a
 * dataset loaded once (ds_job_t), one run of a program on it (ds_run_t),
 * and how a program is run on the datasets (runs_how_t). Types only: the
 * separate and the grouped runs (runs_separate.h, runs_grouped.h) share
 * them with runs.c, which calls both. */
#ifndef CUGRADE_DS_RUN_H
#define CUGRADE_DS_RUN_H

#include <limits.h>

#include "dataset/dataset.h"
#include "course/lab.h"
#include "course/rubric.h"
#include "run/gpu_turn.h"
#include "run/runner.h"

typedef struct {
    dataset_ref_t ref;
    dataset_t data;
    int load_failed;
    char load_error[2048];
    char shape[64];       /* "417x210x519" */
    double flop;          /* the arithmetic work (the lab kind's flop(): 2*M*N*K for matmul) */
    dataset_rule_t rule;  /* points, visibility, time limit */
    int hidden_index;     /* > 0: hidden dataset K of the grading (pipeline/hidden_set.h) */
    unsigned long long instruction_budget; /* vgpu: the executed instructions its kernels may
                                            * take (pipeline/vgpu_budget.h); 0: no limit */
} ds_job_t;

typedef struct {
    const ds_job_t *job;
    int started;                /* 0 if the dataset could not be loaded or prepared */
    char error[2048];           /* why not, when !started */
    char dir[PATH_MAX - 64];    /* scratch folder of this run (room left for file names) */
    char out_path[PATH_MAX];
    char diag_path[PATH_MAX];   /* its report channel (runner.h): the emulator's findings,
                                 * a libwb program's wbtime lines; <dir>.report */
    char *argv[DATASET_MAX_INPUTS + 10];
    char *owned[DATASET_MAX_INPUTS + 2]; /* malloc'd argv strings */
    int nowned;
    run_spec_t spec;
    run_result_t result;
    struct {                    /* vgpu with a GPU: the executor's launches replayed there
                                 * (run/runs_replay.h) */
        int ran;                /* the replay ran: its output is gpu_out_path */
        int kernel_failed;      /* a kernel failed on the GPU (error says how) */
        const char *runner, *cubin; /* what replayed it (runs_how_t's), for another run of
                                     * it (runs_replay_command) */
        char gpu_out_path[PATH_MAX];
        char error[512];
    } replay;
} ds_run_t;

/* The timing tail of a grouped run on a GPU (labs/common/harness.h,
 * driver --each LIST --time ARG...): what happened to it. */
typedef struct {
    int offered;        /* a process that ran every dataset was given --time */
    gpu_tail_t turn;    /* asked, granted, its GPU turns and waits, its time */
    run_result_t proc;  /* that process's ending (output: what it printed in the tail) */
} run_tail_t;

/* Judges a timed driver's "T" once every dataset of its process ended with
 * status 0 (runs: every run of the grading, in dataset order; their outputs
 * are written): 1 to time now. On the keeper's thread (gpu_turn.h). */
typedef int (*run_tail_judge_fn)(void *ctx, const ds_run_t *runs);

/* How to run a program on the datasets. */
typedef struct {
    const lab_t *lab;     /* its style says how the program is called */
    const char *program;
    const char *scratch;  /* each run gets <scratch>/<prefix>-<dataset> */
    const char *prefix;
    int max_parallel;
    double not_after;     /* the submission's time budget ends (now_seconds()); 0: none */
    double budget_s;      /* that budget, for messages */
    double limit_cap;     /* > 0: no dataset's time limit above it (rubric gpu_time_limit_s) */
    int timeouts_max;     /* > 0, grouped runs: once this many datasets ran past their limit,
                           * the rest are not run (on a GPU a hung kernel stalls every timed
                           * run in its queue; the budget alone would let it hang again) */
    int grouped;          /* kernel style only: all datasets in one driver process
                           * (driver --each LIST), rerunning after a failure */
    const char *gpu_queue; /* the program uses GPU gpu_index of this queue (gpuqueue.h): a
                            * group process asks for one shared turn for its list once its
                            * CUDA context is made (gpu_turn.h), separate runs hold the GPU
                            * shared while they run; waits and a start before the first turn
                            * move not_after on (NULL or "": no queue) */
    int gpu_index;
    gpu_turn_stats_t *gpu_stats; /* the waits and holds add up here (NULL: not kept) */
    int on_gpu;           /* the program runs on a GPU, in a batch's queue or not: grouped, a
                           * group of one stays a group, crashes go to LANES_ON_A_GPU lanes,
                           * and turns are asked for (given at once without a queue), so a
                           * process's start is not the budget's (runs_grouped.c) */
    char *const *tail_args; /* on a GPU, grouped, program a timed driver: the first process,
                             * which runs every dataset, gets --time and these arguments
                             * (NULL-terminated; NULL: no tail) */
    double tail_limit_s;    /* the tail's time, beyond its datasets' limits */
    const char *tail_report; /* where its report channel's lines after the marker go */
    run_tail_judge_fn tail_judge;
    void *tail_ctx;
    run_tail_t *tail;       /* out, when tail_args */
    const char *ptx;        /* the vgpu backend: each run's program talks to bin/cugrade-vgpu,
                             * which runs this PTX (run/runs_vgpu.h); NULL: a program alone */
    int checks;             /* vgpu: the executor's checks on (races, uninitialised reads,
                             * traffic) */
    int traffic;            /* vgpu: its traffic counted alone (a reference's count) */
    const char *replay_runner; /* vgpu: each run's launches, as the executor recorded them,
                                * done again on the GPU by this runner (bin/cugrade-replay)
                                * from replay_cubin (run/runs_replay.h); NULL: not */
    const char *replay_cubin;
    const char *replay_queue; /* vgpu: the replays hold GPU gpu_index of this queue, shared
                               * (gpuqueue.h): a batch's timings there wait for them, and
                               * they for its timings (NULL or "": no queue) */
    int dry;                /* vgpu: the launches recorded (--trace), not run (--dry): a timing
                             * shape's (pipeline/grade_perf_replay.h) */
} runs_how_t;

#endif
