/* grade_opts.h - what a grading of one submission is asked to do (the
 * options of cugrade run and of each batch job), apart from grade.h so that
 * the pieces grade.c calls (grade_inputs.h) need not include the pipeline. */
#ifndef CUGRADE_GRADE_OPTS_H
#define CUGRADE_GRADE_OPTS_H

#include "build/backend.h"
#include "run/gpu_choice.h"

/* How a kernel-style lab's datasets are run (cugrade run --dataset-runs). */
typedef enum {
    DATASET_RUNS_AUTO,      /* grouped on the native backend, separate on the emulator */
    DATASET_RUNS_GROUPED,   /* all in one driver process (one CUDA context), split per dataset */
    DATASET_RUNS_SEPARATE,  /* one process per dataset */
} dataset_runs_t;

typedef struct {
    const char *root;          /* the cugrade tree */
    const char *lab;           /* e.g. "lab3" */
    const char *submission;    /* a .cu file, or a folder laid out like student/ */
    backend_t backend;         /* may be AUTO */
    const char *datasets_dir;  /* NULL: <root>/datasets/<lab> */
    const char *rubric_path;   /* NULL: <root>/rubric.json */
    int jobs;                  /* datasets run at once; 0: cores (emu) or 1 (gpu) */
    int keep_scratch;          /* keep the build/run folder and print where */
    int checks;                /* run the emulator's checks (cugrade run --checks all|none) */
    double budget_s;           /* wall-clock budget for all the dataset runs of one program
                                * (the student's; the checked emulator build's);
                                * 0: the rubric's datasets.budget_s */
    const char *gpu_queue;     /* folder of the per-GPU timing queues (gpuqueue.h); NULL: none */
    int gpu_index;             /* whose queue this run joins (batch: the GPU it was given;
                                * with choices, the home GPU that wins a tie) */
    const gpu_choice_t *gpu_choices; /* a batch's GPUs, one taken after the build
                                      * (--gpu-choice, run/gpu_choice.h); NULL: gpu_index's */
    int ngpu_choices;
    dataset_runs_t dataset_runs; /* grouped or separate dataset runs (runs.h) */
    const char *hidden_seed;    /* --hidden-seed FILE: the hidden datasets' secret
                                 * (NULL: $CUGRADE_HIDDEN_SEED_FILE, else the checkout's) */
    const char *hidden_set_dir; /* --hidden-set DIR: a hidden set made once by cugrade batch
                                 * (NULL: made from the secret for this grading) */
    const char *perf_baseline;  /* --perf-baseline FILE: the reference's and cuBLAS's timings
                                 * on this GPU, made by cugrade batch (perf_baseline.h); the
                                 * timing program then times the student alone (NULL: all) */
} grade_opts_t;

#endif
