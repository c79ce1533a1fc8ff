/* batch_job.h - internal to `cugrade batch`: one submission's job, the
 * staging of submissions (batch_prep.c): unpack archives, find the student
 * file anywhere in a Gradescope-style tree, spot identical submissions; and
 * what --resume does with one graded before (batch_resume.c). */
#ifndef CUGRADE_BATCH_JOB_H
#define CUGRADE_BATCH_JOB_H

#include "batch/batch_opts.h"
#include "batch/gpu_visible.h"
#include "run/gpu_choice.h"
#include "run/runner.h"

#include <limits.h>
#include <stdio.h>

typedef struct job {
    char id[NAME_MAX + 1];
    char sub_dir[PATH_MAX];   /* the folder or archive in SUBMISSIONS_DIR */
    char res_dir[PATH_MAX];
    char hash[65];            /* the run key, for --resume (batch_resume.c) */
    char score_key[65];       /* the score key (the rubric) */
    char partial[PATH_MAX + 32];
    char measured_partial[PATH_MAX + 32]; /* where the child writes its measurements */
    char scratch[PATH_MAX];   /* where an archive was unpacked ("" if none) */
    char student[PATH_MAX];   /* what `cugrade run` grades: the file, or the folder */
    char file_hash[65];       /* the student file's content hash ("" if not found) */
    char note[PATH_MAX + 256]; /* first lines of run.log */
    char reject[512];         /* why the submission cannot be graded at all */
    struct job *same_as;      /* identical to this one: copy its results */
    char *argv[40 + 2 * GPU_CHOICES_MAX]; /* the child's command line (prepare_job) */
    int choice_at;            /* argv's first --gpu-choice value (gpu_plan_t's choose) */
    char *choices;            /* their text, GPU_CHOICE_TEXT each (gpu_assign) */
    char budget_arg[32];
    char gpu_arg[16];         /* the GPU whose queue the child joins */
    char gpu_env[160];        /* CUDA_VISIBLE_DEVICES=N (or a UUID: batch_visible_gpu) */
    char baseline[PATH_MAX];  /* its GPU's baseline timing ("": none, batch_baseline.h) */
    char queue_label[NAME_MAX + 24]; /* CUGRADE_QUEUE_LABEL=<id>: its lines in the GPU
                                      * queue's log (gpuqueue.h) */
    char node_env[64];              /* CUGRADE_GPU_NODE=/dev/nvidiaN (gpu_plan.h) */
    char *env[6];                   /* TMP_SWEPT_ENV, then the GPU's (gpu_assign) */
    run_spec_t spec;
    run_result_t result;
    int cannot_grade; /* the child could not grade: a stand-in results.json */
    int not_graded;   /* a grader fault (the child exited 2): no results, no hash */
    char fault[512];  /* what the fault was */
} job_t;

/* Unpacks j's archive (if it is one) and finds its student file; sets
 * j->student, j->file_hash (salted with common), j->note or j->reject. */
void batch_stage(job_t *j, const char *lab, const char *file, const char *common);

/* Links each job to an earlier one with the same student file. */
void batch_mark_identical(job_t **todo, int n);

/* Writes results for a job that was not graded itself: a rejected
 * submission, or a copy of the identical job's results. */
int batch_finish_ungraded(job_t *j, char *err, size_t errlen);

/* The entry names of SUBMISSIONS_DIR that are submissions: folders,
 * archives and loose .cu files (alice.cu: alice's), sorted; ids gets each
 * one's student id. Returns the count or -1. */
int batch_list(const char *dir, char ***names, char ***ids);

/* ---- --resume (batch_resume.c) ---- */

/* The run key's part that every submission shares, and one submission's run
 * key (its folder or archive added to it). */
void batch_run_common_key(const batch_opts_t *o, char hex[65]);
void batch_run_key(const char *common, const char *sub_dir, char hex[65]);
/* The score key: the rubric file. */
void batch_score_key(const batch_opts_t *o, char hex[65]);
/* RESULTS_DIR/<id>/inputs.sha256, written last: "run HEX\nscore HEX\n". */
int batch_write_keys(const job_t *j, char *err, size_t errlen);

typedef enum {
    RESUME_GRADE,   /* not graded, or graded under other run-affecting inputs */
    RESUME_RESCORE, /* only the rubric's scoring changed: re-score its measurements */
    RESUME_SKIP,    /* nothing changed */
} resume_t;

/* What --resume does with j (its hash and score_key set). */
resume_t batch_resume_decision(const job_t *j);

/* The submission `id` is among those --only chose (or there is no --only). */
int batch_selected(const batch_opts_t *o, const char *id);

/* The selected submissions, sorted by what --resume does with them. */
typedef struct {
    job_t **todo;    /* to grade (in a child) */
    job_t **rescore; /* to re-score from their measurements (here) */
    int ntodo, nrescore, skipped;
    int failed;      /* some could be neither re-scored nor graded (the canary failed) */
} batch_plan_t;

/* Fills jobs[] for the selected ids (names[i]: the entry in SUBMISSIONS_DIR)
 * with their keys and sorts them into p, whose arrays hold n each: without
 * --resume every one is graded. */
void batch_plan(const batch_opts_t *o, char **names, char **ids, int n, job_t *jobs,
                batch_plan_t *p);

/* Re-scores jobs[0..n) from their measurements.json under o's rubric, in
 * this process, one line each to out; a job whose measurements cannot be
 * re-scored (missing, malformed: the line names the file) is appended to
 * todo[*ntodo] to be graded again. Returns how many were re-scored. */
int batch_rescore(const batch_opts_t *o, job_t **jobs, int n, job_t **todo, int *ntodo,
                  FILE *out);

/* ---- grader faults (batch_fault.c) ---- */

/* Runs the canary once before anyone is graded (grade_preflight; on a GPU
 * its run takes its turn in GPU 0's queue of gpu_queue, unless NULL, as the
 * baselines timed beside it do); on a grader fault prints what failed (and
 * that only the `rescored` re-scored submissions' results were written) and
 * returns -1. */
int batch_preflight(const batch_opts_t *o, const char *gpu_queue, int rescored, FILE *out);

/* Marks j not graded: its child exited 2 (cause NULL: the reason is read
 * from its output), or it is identical to cause, which was not graded. Any
 * results.json of j is removed, and no inputs hash is written for it. */
int batch_not_graded(job_t *j, const job_t *cause, char *err, size_t errlen);

/* The closing line about the submissions not graded (nothing if none). */
void batch_fault_summary(int not_graded, const char *first_cause, FILE *out);

#endif
