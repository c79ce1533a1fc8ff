/* batch_resume.c - what `cugrade batch --resume` does with a submission it
 * graded before, and the re-score it does in the batch process itself.
 *
 * Each graded submission's RESULTS_DIR/<id>/inputs.sha256, written last,
 * holds two keys:
 *   run <hex>    what the grading ran: cugrade's version, the lab folder, the
 *                datasets, the backend, --checks, the hidden datasets'
 *                secret (its digest), the rubric's run-affecting fields for
 *                the lab (rubric_run_fields: a canonical text, not the file's
 *                bytes) and the submission;
 *   score <hex>  what scored it: the rubric file.
 * Both unchanged: skipped. Only the score key changed (points, visibility,
 * test names, thresholds): re-scored from RESULTS_DIR/<id>/measurements.json
 * here, with no child, no build and no run, and results.json replaced by
 * rename. Anything else, or measurements that cannot be re-scored: graded
 * again. batch_plan sorts the selected submissions so; batch_up_to_date is
 * the same test for --status and --slurm. */
#include "batch/batch.h"
#include "batch/batch_job.h"
#include "course/lab.h"
#include "course/rubric.h"
#include "pipeline/rescore.h"
#include "util/cugrade.h"
#include "util/sha256.h"
#include "util/util.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the keys ------------------------------------------------------------------- */

static void rubric_path_of(const batch_opts_t *o, char *path, size_t len)
{
    if (o->rubric_path)
        snprintf(path, len, "%s", o->rubric_path);
    else
        snprintf(path, len, "%s/rubric.json", o->root);
}

/* The rubric's run-affecting fields of this lab, or why it cannot be read
 * (every child then fails on it, and the preflight says so). */
static void hash_run_fields(sha256_t *s, const batch_opts_t *o)
{
    char path[PATH_MAX], err[1024];
    lab_rubric_t *rub = calloc(1, sizeof *rub);
    rubric_path_of(o, path, sizeof path);
    if (rub && rubric_load(path, o->lab, rub, err, sizeof err) == 0) {
        char *fields = rubric_run_fields(rub);
        hash_str(s, "rubric run fields");
        hash_str(s, fields);
        free(fields);
        rubric_free(rub);
    } else {
        hash_str(s, "rubric unreadable");
        hash_str(s, rub ? err : "out of memory");
    }
    free(rub);
}

void batch_run_common_key(const batch_opts_t *o, char hex[65])
{
    sha256_t s;
    char path[PATH_MAX];
    sha256_init(&s);
    hash_str(&s, "cugrade " CUGRADE_VERSION);
    hash_str(&s, o->lab);
    hash_str(&s, o->backend);
    hash_str(&s, o->checks ? "checks all" : "checks none");
    char budget[64]; /* --budget-s decides which dataset runs are cut short */
    snprintf(budget, sizeof budget, "budget %.17g", o->budget_s);
    hash_str(&s, budget);
    hash_str(&s, o->hidden_digest);
    snprintf(path, sizeof path, "%s/labs/%s", o->root, o->lab);
    hash_tree(&s, path, "", 1);
    hash_run_fields(&s, o);
    lab_t *lab = calloc(1, sizeof *lab);
    char err[512];
    if (o->datasets_dir)
        snprintf(path, sizeof path, "%s", o->datasets_dir);
    else if (lab && lab_load(o->root, o->lab, lab, err, sizeof err) == 0)
        snprintf(path, sizeof path, "%s/datasets/%s", o->root, lab->datasets);
    else
        snprintf(path, sizeof path, "%s/datasets/%s", o->root, o->lab);
    free(lab);
    hash_tree(&s, path, "", 0);
    sha256_final_hex(&s, hex);
}

void batch_run_key(const char *common, const char *sub_dir, char hex[65])
{
    sha256_t s;
    sha256_init(&s);
    hash_str(&s, common);
    if (is_file(sub_dir)) {
        hash_str(&s, "archive");
        hash_file_contents(&s, sub_dir);
    } else {
        hash_tree(&s, sub_dir, "", 1);
    }
    sha256_final_hex(&s, hex);
}

void batch_score_key(const batch_opts_t *o, char hex[65])
{
    sha256_t s;
    char path[PATH_MAX];
    sha256_init(&s);
    hash_str(&s, "rubric");
    rubric_path_of(o, path, sizeof path);
    hash_file_contents(&s, path);
    sha256_final_hex(&s, hex);
}

int batch_write_keys(const job_t *j, char *err, size_t errlen)
{
    char path[PATH_MAX + 32], text[160];
    snprintf(path, sizeof path, "%s/inputs.sha256", j->res_dir);
    int len = snprintf(text, sizeof text, "run %s\nscore %s\n", j->hash, j->score_key);
    return write_file_atomic(path, text, (size_t)len, err, errlen);
}

/* The keys a result was written under; -1 when there are none (never
 * graded, a grader fault, a kill before the end, another format). */
static int read_keys(const job_t *j, char run[65], char score[65])
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/inputs.sha256", j->res_dir);
    char *text = read_file(path, NULL, NULL, 0);
    int n = text ? sscanf(text, "run %64[0-9a-f]\nscore %64[0-9a-f]", run, score) : 0;
    free(text);
    return n == 2 && strlen(run) == 64 && strlen(score) == 64 ? 0 : -1;
}

resume_t batch_resume_decision(const job_t *j)
{
    char path[PATH_MAX + 32], run[65], score[65];
    snprintf(path, sizeof path, "%s/results.json", j->res_dir);
    if (!is_file(path) || read_keys(j, run, score) != 0 || strcmp(run, j->hash) != 0)
        return RESUME_GRADE;
    return strcmp(score, j->score_key) == 0 ? RESUME_SKIP : RESUME_RESCORE;
}

int batch_selected(const batch_opts_t *o, const char *id)
{
    if (o->nonly == 0)
        return 1;
    for (int i = 0; i < o->nonly; i++)
        if (strcmp(o->only[i], id) == 0)
            return 1;
    return 0;
}

void batch_plan(const batch_opts_t *o, char **names, char **ids, int n, job_t *jobs,
                batch_plan_t *p)
{
    char common[65], score[65];
    batch_run_common_key(o, common);
    batch_score_key(o, score);
    for (int i = 0; i < n; i++) {
        job_t *j = &jobs[i];
        if (!batch_selected(o, ids[i]))
            continue;
        snprintf(j->id, sizeof j->id, "%s", ids[i]);
        snprintf(j->sub_dir, sizeof j->sub_dir, "%s/%s", o->submissions_dir, names[i]);
        snprintf(j->res_dir, sizeof j->res_dir, "%s/%s", o->out_dir, ids[i]);
        batch_run_key(common, j->sub_dir, j->hash);
        snprintf(j->score_key, sizeof j->score_key, "%s", score);
        resume_t r = o->resume ? batch_resume_decision(j) : RESUME_GRADE;
        if (r == RESUME_SKIP)
            p->skipped++;
        else if (r == RESUME_RESCORE)
            p->rescore[p->nrescore++] = j;
        else
            p->todo[p->ntodo++] = j;
    }
}

/* ---- the re-score ----------------------------------------------------------------- */

/* A results.json that no rubric scored (a rejected submission, one the
 * batch could not grade): it stands as it is under any rubric. */
static int is_stand_in(const job_t *j)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/results.json", j->res_dir);
    json_object *r = json_object_from_file(path), *extra, *v;
    int yes = r && json_object_object_get_ex(r, "extra_data", &extra) &&
              (json_object_object_get_ex(extra, "submission_error", &v) ||
               json_object_object_get_ex(extra, "batch_error", &v));
    json_object_put(r);
    return yes;
}

static int note_in_log(const job_t *j, const char *rubric, char *err, size_t errlen)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/run.log", j->res_dir);
    char *old = read_file(path, NULL, NULL, 0);
    strbuf_t log = {0};
    sb_append(&log, old ? old : "");
    sb_appendf(&log, "batch: re-scored from measurements.json under %s (nothing built or run)\n",
               rubric);
    int rc = write_file_atomic(path, sb_str(&log), log.len, err, errlen);
    sb_free(&log);
    free(old);
    return rc;
}

/* Re-scores j into its results.json (score in *line); -1 with why in err. */
static int rescore_job(const batch_opts_t *o, const rescore_ctx_t *c, job_t *j, grade_run_t *run,
                       char *line, size_t linelen, char *err, size_t errlen)
{
    char path[PATH_MAX + 32], rubric[PATH_MAX];
    snprintf(path, sizeof path, "%s/measurements.json", j->res_dir);
    if (!is_file(path)) {
        if (!is_stand_in(j))
            return fail(err, errlen, "%s: missing", path);
        snprintf(line, linelen, "unchanged (scored by no rubric)");
        return batch_write_keys(j, err, errlen);
    }
    int rc = rescore_file(c, path, run, err, errlen);
    if (rc == 0 && run->cannot_grade)
        rc = fail(err, errlen, "%s: some datasets could not be graded when it was measured", path);
    snprintf(path, sizeof path, "%s/results.json", j->res_dir);
    rubric_path_of(o, rubric, sizeof rubric);
    if (rc == 0)
        rc = grade_write_json(&run->grade, path, err, errlen);
    if (rc == 0)
        rc = note_in_log(j, rubric, err, errlen);
    if (rc == 0)
        rc = batch_write_keys(j, err, errlen);
    snprintf(line, linelen, "%g/%g", grade_score(&run->grade), grade_max_score(&run->grade));
    grade_run_free(run);
    return rc;
}

int batch_rescore(const batch_opts_t *o, job_t **jobs, int n, job_t **todo, int *ntodo,
                  FILE *out)
{
    rescore_ctx_t *ctx = calloc(1, sizeof *ctx);
    grade_run_t *run = calloc(1, sizeof *run);
    char err[4096];
    int done = 0, opened = ctx && run &&
                           rescore_open(o->root, o->lab, o->rubric_path, ctx, err, sizeof err) == 0;
    if (n > 0 && !opened)
        fprintf(out, "cugrade batch: cannot re-score: %s\n", ctx && run ? err : "out of memory");
    for (int i = 0; i < n; i++) {
        char line[96];
        if (opened && rescore_job(o, ctx, jobs[i], run, line, sizeof line, err, sizeof err) == 0) {
            fprintf(out, "%s  %s  re-scored\n", jobs[i]->id, line);
            done++;
            continue;
        }
        if (opened)
            fprintf(out, "cugrade batch: %s: cannot re-score (%s): grading it again\n",
                    jobs[i]->id, err);
        todo[(*ntodo)++] = jobs[i];
    }
    if (ctx)
        rescore_close(ctx);
    free(run);
    free(ctx);
    fflush(out);
    return done;
}

/* ---- --resume's test, for --status and --slurm ------------------------------- */

int batch_up_to_date(const batch_opts_t *o, const char *common, const char *name, const char *id)
{
    job_t *j = calloc(1, sizeof *j);
    if (!j)
        return 0;
    snprintf(j->id, sizeof j->id, "%s", id);
    snprintf(j->sub_dir, sizeof j->sub_dir, "%s/%s", o->submissions_dir, name);
    snprintf(j->res_dir, sizeof j->res_dir, "%s/%s", o->out_dir, id);
    batch_run_key(common, j->sub_dir, j->hash);
    batch_score_key(o, j->score_key);
    int same = batch_resume_decision(j) == RESUME_SKIP;
    free(j);
    return same;
}
