/* slurm.h - `cugrade batch --slurm`, --status and --merge: a class graded on
 * a cluster by one Slurm job array (a task per shard of the class, each a
 * `cugrade batch --shard K/N --resume --no-class-files` into the shared
 * RESULTS_DIR) and a dependent job that rebuilds the class files. No daemon
 * of cugrade's own: sbatch, squeue, sacct and scontrol on PATH, and a
 * filesystem every node sees. What was submitted is kept in
 * RESULTS_DIR/.slurm/slurm.json, with the tasks' logs. */
#ifndef CUGRADE_SLURM_H
#define CUGRADE_SLURM_H

#include "batch/batch.h"
#include "util/util.h"

#include <json-c/json.h>
#include <stdio.h>

#define SLURM_DIR ".slurm"          /* under RESULTS_DIR */
#define SLURM_RECORD "slurm.json"   /* in SLURM_DIR */
#define SLURM_MAX_OPTS 64           /* --sbatch OPT options */
#define SLURM_PER_SHARD 8           /* default shards: ceil(submissions / 8) ... */
#define SLURM_MAX_DEFAULT_SHARDS 256 /* ... at most this many */

typedef struct {
    int submit;                     /* --slurm without --status */
    int status;                     /* --status */
    int merge;                      /* --merge */
    int shards;                     /* --shards N (0: the default) */
    const char *sbatch[SLURM_MAX_OPTS]; /* --sbatch OPT, verbatim to both sbatch calls */
    int nsbatch;
    int have_submissions;           /* SUBMISSIONS_DIR was given */
    int argc;                       /* the command line, for the record */
    char **argv;
} slurm_opts_t;

/* ---- the three commands (slurm_submit.c, slurm_status.c) ---- */

/* --slurm: submits the array (only the shards that still hold a submission
 * to grade) and the merge job. 0 submitted or nothing left, 2 Slurm missing
 * or refused, or the class unreadable. */
int slurm_submit(batch_opts_t *o, const slurm_opts_t *s, FILE *out);

/* --status: done / missing / failed, and the Slurm jobs' states. 0, or 2
 * when the class or the record cannot be read, 64 when neither SUBMISSIONS
 * nor a record says what the class is. */
int batch_status(batch_opts_t *o, const slurm_opts_t *s, FILE *out);

/* --merge: rebuilds gradebook.csv, summary.json, class.html and the reports
 * from the per-student results, without grading; then says what is left. 0
 * all done, 2 some submission still without a result (or no class files). */
int batch_merge(batch_opts_t *o, const slurm_opts_t *s, FILE *out);

/* ---- the record (slurm_record.c) ---- */

/* RESULTS_DIR/.slurm/slurm.json, or NULL: *err is "" when there is none. */
json_object *slurm_record_load(const char *out_dir, char *err, size_t errlen);
/* Writes it (temp file and rename), making RESULTS_DIR/.slurm if need be. */
int slurm_record_save(const char *out_dir, json_object *rec, char *err, size_t errlen);
/* The batch options every task gets, as the record keeps them. */
json_object *slurm_record_batch(const batch_opts_t *o);
/* Fills o from a record's batch options (o's strings then point into rec).
 * -1 with err when they are not there. */
int slurm_record_opts(json_object *rec, batch_opts_t *o, char *err, size_t errlen);
/* The last submission of the record, or NULL. */
json_object *slurm_record_last(json_object *rec);
/* A string member of obj, or NULL. */
const char *slurm_json_str(json_object *obj, const char *key);

/* ---- command lines (slurm_cmd.c) ---- */

/* Appends arg quoted for sh: as is when it is made of safe characters, else
 * in single quotes. */
void shell_quote(strbuf_t *sb, const char *arg);

/* The shell line every array task runs: absolute paths, the batch options,
 * --resume --no-class-files --shard "$SLURM_ARRAY_TASK_ID/N". o's paths are
 * absolute already. Caller frees. */
char *slurm_task_command(const batch_opts_t *o, int nshards);

/* The merge job's line: cugrade batch --merge --out RESULTS_DIR. */
char *slurm_merge_command(const batch_opts_t *o);

/* "0-2,5,7-8": the shards marked in todo[0 .. count-1], for --array. */
void slurm_array_spec(const unsigned char *todo, int count, strbuf_t *sb);

/* The shards by default: ceil(n / SLURM_PER_SHARD), 1 .. 256; never more
 * than n (but at least 1). */
int slurm_default_shards(int n);

/* ---- Slurm's own commands (slurm_queue.c) ---- */

/* Finds prog on PATH; else prints "cugrade batch --slurm: PROG not found on
 * PATH (...)" with what to do, and returns -1. */
int slurm_need(const char *prog, const char *what, FILE *out);

/* Runs sbatch --parsable with argv (NULL-ended, argv[0] "sbatch"); the job
 * id into id. -1 with sbatch's message in err. */
int slurm_sbatch(char *const *argv, char *id, size_t idlen, char *err, size_t errlen);

/* The state of job id while it is in the queue (squeue): "RUNNING",
 * "PENDING", ...; "" when it is not there (finished, or squeue unusable). */
void slurm_queued_state(const char *id, char *state, size_t len);

/* The states of job id's tasks, counted: "2 COMPLETED, 1 CANCELLED", from
 * sacct, else scontrol (which keeps finished jobs for a few minutes). 0, or
 * -1 with why in summary when neither knows the job. */
int slurm_job_states(const char *id, char *summary, size_t len);

#endif
