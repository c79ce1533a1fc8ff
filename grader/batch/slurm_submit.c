/* slurm_submit.c - `cugrade batch --slurm`: decide with --resume's test
 * which submissions still need a grade, submit one job array with a task
 * for each shard that holds one (sbatch --array), then a job that rebuilds
 * the class files once the array has ended (--dependency=afterany), and
 * keep what was submitted in RESULTS_DIR/.slurm/slurm.json. Rerun as it is,
 * it submits only what is missing or failed, and says when nothing is. */
#include "batch/batch_state.h"
#include "batch/slurm.h"
#include "dataset/hidden.h"
#include "util/cugrade.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The absolute paths every task gets (o's strings point here). */
typedef struct {
    char root[PATH_MAX], out[PATH_MAX], subs[PATH_MAX], datasets[PATH_MAX], rubric[PATH_MAX],
        seed[PATH_MAX];
} abs_paths_t;

static int absolute(const char *what, const char *path, char *buf, FILE *out)
{
    if (realpath(path, buf))
        return 0;
    fprintf(out, "cugrade batch --slurm: %s %s: %s\n", what, path, strerror(errno));
    return -1;
}

/* The secret the tasks make the hidden datasets from: made now if it is
 * the checkout's and missing, so that no two tasks race to make it. */
static int secret_path(batch_opts_t *o, abs_paths_t *p, FILE *out)
{
    hidden_secret_t *s = calloc(1, sizeof *s);
    char err[1024];
    int rc = s ? hidden_secret_load(o->root, o->hidden_seed, s, err, sizeof err) : -1;
    if (rc != 0)
        fprintf(out, "cugrade batch --slurm: cannot grade: %s\n", s ? err : "out of memory");
    else if ((rc = absolute("the hidden datasets' secret", s->path, p->seed, out)) == 0)
        o->hidden_seed = p->seed;
    free(s);
    return rc;
}

static int make_absolute(batch_opts_t *o, abs_paths_t *p, FILE *out)
{
    char err[1024];
    if (mkdir_p(o->out_dir, err, sizeof err) != 0)
        return fprintf(out, "cugrade batch --slurm: %s\n", err), -1;
    if (absolute("the checkout", o->root, p->root, out) || absolute("--out", o->out_dir, p->out, out) ||
        absolute("SUBMISSIONS_DIR", o->submissions_dir, p->subs, out) ||
        (o->datasets_dir && absolute("--datasets", o->datasets_dir, p->datasets, out)) ||
        (o->rubric_path && absolute("--rubric", o->rubric_path, p->rubric, out)))
        return -1;
    if (o->gpu_queue && o->gpu_queue[0] != '/') /* a folder on each node: not made here */
        return fprintf(out, "cugrade batch --slurm: --gpu-queue %s: give an absolute path\n",
                       o->gpu_queue), -1;
    o->root = p->root, o->out_dir = p->out, o->submissions_dir = p->subs;
    o->datasets_dir = o->datasets_dir ? p->datasets : NULL;
    o->rubric_path = o->rubric_path ? p->rubric : NULL;
    return secret_path(o, p, out);
}

/* 1 when a job of the last submission is still pending or running: a
 * second array would grade the same submissions at the same time. */
static int still_queued(json_object *rec, const batch_opts_t *o, FILE *out)
{
    json_object *last = slurm_record_last(rec);
    const char *ids[] = {slurm_json_str(last, "array_job"), slurm_json_str(last, "merge_job")};
    for (int i = 0; i < 2; i++) {
        char state[128];
        if (!ids[i])
            continue;
        slurm_queued_state(ids[i], state, sizeof state);
        if (state[0]) {
            fprintf(out, "cugrade batch --slurm: job %s of the last submission is still in the queue "
                         "(%s): wait until it ends (cugrade batch --status --out %s) or scancel it, "
                         "then run this again\n", ids[i], state, o->out_dir);
            return 1;
        }
    }
    return 0;
}

/* ---- the two sbatch command lines ---------------------------------------- */

typedef struct {
    char *v[SLURM_MAX_OPTS + 16]; /* NULL-ended */
    int n;
    char *owned[8];
    int nowned;
} args_t;

static void arg(args_t *a, const char *s)
{
    a->v[a->n++] = (char *)s;
    a->v[a->n] = NULL;
}

static void argf(args_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void argf(args_t *a, const char *fmt, ...)
{
    strbuf_t sb = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vappendf(&sb, fmt, ap);
    va_end(ap);
    a->owned[a->nowned] = sb_detach(&sb);
    arg(a, a->owned[a->nowned++]);
}

static void args_free(args_t *a)
{
    for (int i = 0; i < a->nowned; i++)
        free(a->owned[i]);
    memset(a, 0, sizeof *a);
}

/* --sbatch's options, after ours (so they win), before --wrap. */
static void user_options(args_t *a, const slurm_opts_t *s)
{
    for (int i = 0; i < s->nsbatch; i++)
        arg(a, s->sbatch[i]);
}

/* sbatch --parsable --array=SHARDS ... --wrap=TASK: one task per shard. */
static void array_args(const batch_opts_t *o, const slurm_opts_t *s, const char *spec,
                       const char *task, args_t *a)
{
    arg(a, "sbatch");
    arg(a, "--parsable");
    argf(a, "--array=%s", spec);
    argf(a, "--job-name=cugrade-%s", o->lab);
    argf(a, "--output=%s/" SLURM_DIR "/task-%%A_%%a.log", o->out_dir);
    if (strcmp(o->backend, "gpu") == 0 || strcmp(o->backend, "native") == 0)
        arg(a, "--gres=gpu:1");
    user_options(a, s);
    argf(a, "--wrap=%s", task);
}

/* sbatch --parsable --dependency=afterany:ARRAY ... --wrap=MERGE */
static void merge_args(const batch_opts_t *o, const slurm_opts_t *s, const char *array_id,
                       const char *merge, args_t *a)
{
    arg(a, "sbatch");
    arg(a, "--parsable");
    argf(a, "--dependency=afterany:%s", array_id);
    argf(a, "--job-name=cugrade-%s-merge", o->lab);
    argf(a, "--output=%s/" SLURM_DIR "/merge-%%j.log", o->out_dir);
    user_options(a, s);
    argf(a, "--wrap=%s", merge);
}

/* ---- the record of a submission --------------------------------------------- */

static json_object *strings_json(char *const *argv, int n)
{
    json_object *a = json_object_new_array();
    for (int i = 0; i < n && argv[i]; i++)
        json_object_array_add(a, json_object_new_string(argv[i]));
    return a;
}

typedef struct {
    int shards;             /* N */
    unsigned char *todo;    /* the shards submitted */
    int nsubmit;            /* how many */
    strbuf_t spec;          /* the same as --array's list */
    int submissions, to_grade;
    char *task, *merge;     /* the commands */
    args_t array, merge_sbatch;
    char array_id[32], merge_id[32];
} submission_t;

static void free_submission(submission_t *u)
{
    free(u->todo);
    free(u->task);
    free(u->merge);
    sb_free(&u->spec);
    args_free(&u->array);
    args_free(&u->merge_sbatch);
}

static json_object *submit_json(const batch_opts_t *o, const submission_t *u, const slurm_opts_t *s)
{
    json_object *j = json_object_new_object(), *tasks = json_object_new_array();
    char when[32];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    json_object_object_add(j, "time", json_object_new_string(when));
    json_object_object_add(j, "array_job", json_object_new_string(u->array_id));
    json_object_object_add(j, "merge_job", u->merge_id[0] ? json_object_new_string(u->merge_id) : NULL);
    json_object_object_add(j, "shards", json_object_new_int(u->shards));
    for (int k = 0; k < u->shards; k++)
        if (u->todo[k])
            json_object_array_add(tasks, json_object_new_int(k));
    json_object_object_add(j, "tasks", tasks);
    json_object_object_add(j, "submissions", json_object_new_int(u->submissions));
    json_object_object_add(j, "to_grade", json_object_new_int(u->to_grade));
    json_object *cmd = json_object_new_array(); /* bin/cugrade, then "batch" and the rest */
    json_object_array_add(cmd, json_object_new_string(o->self_exe));
    for (int i = 0; i < s->argc; i++)
        json_object_array_add(cmd, json_object_new_string(s->argv[i]));
    json_object_object_add(j, "command", cmd);
    json_object_object_add(j, "sbatch_options", strings_json((char *const *)s->sbatch, s->nsbatch));
    json_object_object_add(j, "task_command", json_object_new_string(u->task));
    json_object_object_add(j, "merge_command", json_object_new_string(u->merge));
    return j;
}

/* Appends this submission to the record (made if there is none). */
static int save_record(json_object *rec, const batch_opts_t *o, const submission_t *u,
                       const slurm_opts_t *s, FILE *out)
{
    json_object *subs;
    char err[1024];
    if (!rec)
        rec = json_object_new_object();
    else
        json_object_get(rec);
    json_object_object_add(rec, "cugrade", json_object_new_string(CUGRADE_VERSION));
    json_object_object_add(rec, "batch", slurm_record_batch(o));
    if (!json_object_object_get_ex(rec, "submits", &subs) || !json_object_is_type(subs, json_type_array)) {
        subs = json_object_new_array();
        json_object_object_add(rec, "submits", subs);
    }
    json_object_array_add(subs, submit_json(o, u, s));
    int rc = slurm_record_save(o->out_dir, rec, err, sizeof err);
    if (rc != 0)
        fprintf(out, "cugrade batch --slurm: %s\n", err);
    json_object_put(rec);
    return rc;
}

/* ---- submitting ------------------------------------------------------------- */

static int submit_jobs(const batch_opts_t *o, const slurm_opts_t *s, submission_t *u, FILE *out)
{
    char err[1024], logs[PATH_MAX];
    snprintf(logs, sizeof logs, "%s/" SLURM_DIR, o->out_dir);
    if (mkdir_p(logs, err, sizeof err) != 0) { /* Slurm makes no folder for --output */
        fprintf(out, "cugrade batch --slurm: %s\n", err);
        return -1;
    }
    array_args(o, s, sb_str(&u->spec), u->task, &u->array);
    if (slurm_sbatch(u->array.v, u->array_id, sizeof u->array_id, err, sizeof err) != 0) {
        fprintf(out, "cugrade batch --slurm: the job array was not submitted: %s\n", err);
        return -1;
    }
    fprintf(out, "cugrade batch --slurm: job array %s: %d of %d shard(s) (--array=%s), each a "
                 "`cugrade batch --shard K/%d`; logs %s/" SLURM_DIR "/task-%s_K.log\n",
            u->array_id, u->nsubmit, u->shards,
            sb_str(&u->spec), u->shards, o->out_dir, u->array_id);
    merge_args(o, s, u->array_id, u->merge, &u->merge_sbatch);
    if (slurm_sbatch(u->merge_sbatch.v, u->merge_id, sizeof u->merge_id, err, sizeof err) != 0) {
        u->merge_id[0] = '\0';
        fprintf(out, "cugrade batch --slurm: the merge job was not submitted: %s; once the array "
                     "has ended, run: cugrade batch --merge --out %s\n", err, o->out_dir);
        return 1;
    }
    fprintf(out, "cugrade batch --slurm: job %s rebuilds gradebook.csv, summary.json and class.html "
                 "once the array has ended (afterany); log %s/" SLURM_DIR "/merge-%s.log\n",
            u->merge_id, o->out_dir, u->merge_id);
    return 0;
}

/* Every --only ID must be in the class, as for a local batch. */
static int only_ids_known(const batch_opts_t *o, const class_state_t *cs, FILE *out)
{
    for (int i = 0; i < o->nonly; i++) {
        int found = 0;
        for (int k = 0; k < cs->n && !found; k++)
            found = strcmp(cs->ids[k], o->only[i]) == 0;
        if (!found) {
            fprintf(out, "cugrade batch --slurm: --only %s: no such submission in %s\n", o->only[i],
                    o->submissions_dir);
            return -1;
        }
    }
    return 0;
}

/* Says what is left; 1 when nothing is (then nothing is submitted). */
static int nothing_left(const class_state_t *cs, const batch_opts_t *o, FILE *out)
{
    fprintf(out, "cugrade batch --slurm: %s, %s:\n", o->lab, o->submissions_dir);
    class_state_print(cs, "  ", out);
    if (cs->done < cs->nchosen)
        return 0;
    fprintf(out, "cugrade batch --slurm: nothing left to grade: every submission has an up-to-date "
                 "result; nothing submitted (cugrade batch --merge --out %s rebuilds the class files)\n",
            o->out_dir);
    return 1;
}

static void backend_note(const batch_opts_t *o, FILE *out)
{
    if (strcmp(o->backend, "auto") == 0)
        fprintf(out, "cugrade batch --slurm: --backend auto asks Slurm for no GPU: each task grades on "
                     "its node's GPU if it has one, else on the emulator (--backend gpu asks for "
                     "one, --gres=gpu:1)\n");
}

int slurm_submit(batch_opts_t *o, const slurm_opts_t *s, FILE *out)
{
    abs_paths_t *paths = calloc(1, sizeof *paths);
    class_state_t cs = {0};
    submission_t u = {0};
    char err[1024];
    json_object *rec = NULL;
    int rc = EXIT_CANNOT_GRADE;
    if (slurm_need("sbatch", "submitting needs Slurm's client commands (sbatch, squeue, sacct): run "
                             "this on the cluster's login node", out) != 0 ||
        !paths || make_absolute(o, paths, out) != 0 || class_state_load(o, &cs, out) != 0)
        goto done;
    rec = slurm_record_load(o->out_dir, err, sizeof err);
    if (err[0]) {
        fprintf(out, "cugrade batch --slurm: %s\n", err);
        goto done;
    }
    if (only_ids_known(o, &cs, out) != 0) {
        rc = EXIT_USAGE;
        goto done;
    }
    if (still_queued(rec, o, out))
        goto done;
    rc = EXIT_GRADED;
    if (nothing_left(&cs, o, out))
        goto done;
    backend_note(o, out);
    u.shards = s->shards > 0 ? s->shards : slurm_default_shards(cs.n);
    u.todo = calloc((size_t)u.shards, 1);
    u.nsubmit = class_state_shards_to_do(&cs, u.shards, u.todo);
    u.submissions = cs.nchosen;
    u.to_grade = cs.nchosen - cs.done;
    slurm_array_spec(u.todo, u.shards, &u.spec);
    u.task = slurm_task_command(o, u.shards);
    u.merge = slurm_merge_command(o);
    int sent = submit_jobs(o, s, &u, out);
    if (sent < 0 || save_record(rec, o, &u, s, out) != 0 || sent > 0)
        rc = EXIT_CANNOT_GRADE;
    if (sent >= 0)
        fprintf(out, "cugrade batch --slurm: %d submission(s) to grade; follow them with: cugrade "
                     "batch --status --out %s\n", u.to_grade, o->out_dir);
done:
    json_object_put(rec);
    free_submission(&u);
    class_state_free(&cs);
    free(paths);
    return rc;
}
