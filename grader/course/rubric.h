/* rubric.h - points, visibility and limits per lab, from rubric.json.
 *
 * rubric.json (top level of the repository):
 * {
 *   "version": 1,
 *   "labs": {
 *     "lab3": {
 *       "compile":  { "name": "compiles", "points": 10, "visibility": "visible" },
 *       "datasets": { "points": 5, "visibility": "visible", "time_limit_s": 20,
 *                     "overrides": { "12": { "points": 10, "visibility": "after_published",
 *                                            "time_limit_s": 60 } } },
 *       "hidden":   { "count": 8, "points": 2.5, "visibility": "visible" },
 *       "checks": { "race-free": { "points": 4 }, "barriers-uniform": { "points": 4 },
 *                   "memory-safe": { "points": 4 }, "uses-shared-memory": { "points": 4 },
 *                   "traffic-reduced": { "points": 4, "max_bytes_per_flop": 1.0 } },
 *                                 each optional, with "visibility" too
 *       "performance": { "points": 10, "shapes": ["4096x4096x4096", "2000x1500x2500"],
 *                        "zero_at": 0.25, "full_at": 0.9, "time_cap_s": 30,
 *                        "relative_to": "reference" }
 *                                 GPU timing: the score grows linearly with the student's speed
 *                                 relative to the lab's reference kernel, or with "relative_to":
 *                                 "cublas" to cuBLAS FP32 (geometric mean over the shapes), 0 at
 *                                 zero_at, full at full_at
 *     }
 *   }
 * }
 * "datasets.points" is per dataset (uniform); "datasets.total" may be given
 * instead and is split evenly over the datasets found. Visibility is one of
 * Gradescope's: visible, hidden, after_due_date, after_published.
 * time_limit_s is optional; unset (0) means the lab manifest's time_limit_s.
 * "datasets.budget_s" (optional) caps the wall-clock time of all the dataset
 * runs of one program together, so an endless loop costs the budget once,
 * not the time limit once per dataset; datasets not run by then fail.
 * "datasets.gpu_time_limit_s" and "gpu_budget_s" (optional) are the same on
 * the gpu backend, where a kernel is ~1000x faster than on the emulator and
 * a hung one holds the GPU (and its timing queue) while it runs.
 * "hidden" (optional) is the hidden set (pipeline/hidden_set.h): "count"
 * datasets (0..64, default 8: one per shape family of the matmul and
 * reduction kinds), each worth "points" (or "total" split evenly; default:
 * what one public dataset is worth), with "visibility" (default: the
 * datasets'). Their time limit is the datasets' default.
 * Unknown keys are errors (typos must not silently change grades); a bad
 * field is named by its JSON path and its line in the file. */
#ifndef CUGRADE_RUBRIC_H
#define CUGRADE_RUBRIC_H

#include <stddef.h>

typedef enum { VIS_VISIBLE = 0, VIS_HIDDEN, VIS_AFTER_DUE_DATE, VIS_AFTER_PUBLISHED } visibility_t;

const char *visibility_name(visibility_t v); /* Gradescope spelling */
/* 0 and *out set if s is one of Gradescope's spellings, else -1. */
int visibility_parse(const char *s, visibility_t *out);

typedef struct {
    double points;
    visibility_t visibility;
    double time_limit_s;
} dataset_rule_t;

typedef struct {
    char name[64];
    dataset_rule_t rule;
} dataset_override_t;

#define HIDDEN_DEFAULT_COUNT 8 /* hidden datasets of a lab whose rubric says nothing */
#define HIDDEN_MAX_COUNT 64

/* The hidden datasets: how many, and what each is worth. */
typedef struct {
    int count;
    int points_given, total_given, visibility_given;
    double points;       /* per hidden dataset, when points_given */
    double total;        /* split evenly, when total_given */
    visibility_t visibility;
} hidden_rule_t;

#define PERF_MAX_SHAPES 4

/* What the student's speed is measured against. */
typedef enum {
    PERF_VS_REFERENCE = 0, /* the lab's reference kernel (default) */
    PERF_VS_CUBLAS,        /* cuBLAS FP32 (matmul labs: the challenge lab) */
} perf_relative_t;

/* "reference", "cublas" as rubric.json spells them. */
const char *perf_relative_name(perf_relative_t r);

/* The performance test (GPU only). */
typedef struct {
    int present;
    double points;
    visibility_t visibility;
    char shapes[PERF_MAX_SHAPES][32]; /* "MxKxN" */
    int nshapes;
    double zero_at, full_at;          /* speed relative to relative_to: 0 points, full points */
    double time_cap_s;                /* per shape, for the repetitions */
    perf_relative_t relative_to;
} perf_rule_t;

/* The checks a rubric may award points for (the CPU emulator's findings). */
typedef enum {
    CHECK_RACE_FREE = 0,      /* no shared-memory race between two barriers */
    CHECK_BARRIERS_UNIFORM,   /* every __syncthreads() reached by the whole block */
    CHECK_MEMORY_SAFE,        /* no out-of-bounds access, no uninitialised read */
    CHECK_USES_SHARED_MEMORY, /* the kernel reads data it staged in shared memory */
    CHECK_TRAFFIC_REDUCED,    /* global bytes per FLOP at most max_bytes_per_flop */
    CHECK_USES_CONSTANT_MEMORY, /* the kernels read __constant__ variables (the executor's count) */
    CHECK_COUNT
} check_id_t;

const char *check_name(check_id_t id); /* "race-free", ... as in rubric.json */

typedef struct {
    int present;               /* listed in the rubric */
    double points;
    visibility_t visibility;
    double max_bytes_per_flop; /* traffic-reduced only (required there) */
} check_rule_t;

#define RUBRIC_TIMEOUTS_UNSET (-1)
#define RUBRIC_GPU_TIMEOUTS_MAX 2
#define RUBRIC_TIMEOUTS_MAX_LIMIT 1000

typedef struct {
    char lab[64];
    char compile_name[64];
    double compile_points;
    visibility_t compile_visibility;
    dataset_rule_t datasets;  /* defaults for every dataset */
    double budget_s;          /* datasets.budget_s: all dataset runs of one program together
                               * (0: no budget) */
    double gpu_time_limit_s;  /* datasets.gpu_time_limit_s: cap of each limit on a GPU (0: none) */
    double gpu_budget_s;      /* datasets.gpu_budget_s: the budget on a GPU (0: budget_s) */
    int timeouts_max;         /* datasets.timeouts_max: once this many datasets of a program ran
                               * past their limit the rest are not run (0: never; not given,
                               * RUBRIC_TIMEOUTS_UNSET: RUBRIC_GPU_TIMEOUTS_MAX on a GPU, where a
                               * hung kernel stalls the timing queue, never on the emulator) */
    int datasets_total_given; /* 1 if "total" was given instead of "points" */
    double datasets_total;
    dataset_override_t *overrides;
    int noverrides;
    hidden_rule_t hidden;
    check_rule_t checks[CHECK_COUNT];
    perf_rule_t performance;
} lab_rubric_t;

/* Loads the rubric of `lab` from path. On failure returns -1 with err naming
 * the file and, for syntax errors, the line ("rubric.json:12: ..."), or the
 * JSON path of the bad field with its line ("rubric.json:5:
 * labs.lab3.datasets.points: must be a non-negative number"). */
int rubric_load(const char *path, const char *lab, lab_rubric_t *out, char *err, size_t errlen);

/* The rule for one dataset (by folder name), overrides applied. ndatasets is
 * how many datasets are graded (used when "total" was given). */
dataset_rule_t rubric_dataset_rule(const lab_rubric_t *r, const char *dataset_name, int ndatasets);

/* The rule of every hidden dataset: its points (the hidden section's, else
 * what one of the npublic public datasets is worth), visibility, and the
 * datasets' default time limit. */
dataset_rule_t rubric_hidden_rule(const lab_rubric_t *r, int npublic);

/* The rubric's fields that change what a grading builds and runs, not how
 * it is scored, as a canonical text (rubric_run.c): the datasets' time
 * limits and budgets (each override's time limit too), the hidden count,
 * which checks are listed, whether there is a performance test and its
 * shapes and time cap. Two rubrics with the same text measure a submission
 * alike: they differ only in points, visibility, test names and thresholds,
 * so one's measurements can be re-scored under the other. Caller frees. */
char *rubric_run_fields(const lab_rubric_t *r);

/* The rubric scores at least one check. */
int rubric_has_checks(const lab_rubric_t *rub);
void rubric_free(lab_rubric_t *r);

#endif
