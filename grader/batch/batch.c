/* batch.c - `cugrade batch`: list the class, key each submission's inputs,
 * re-score those whose rubric scoring alone changed (batch_resume.c), grade
 * the changed ones in child `cugrade run`s (several at once, one worker
 * thread per job slot), put each result in place with rename so a kill at any
 * moment leaves a verifiable result or none, then rebuild the class files.
 * On a GPU machine worker w's children use GPU w % ngpu and join its timing
 * queue (gpuqueue.h): correctness runs overlap, timed runs are alone. */
#include "batch/archive.h"
#include "batch/batch.h"
#include "batch/batch_stop.h"
#include "batch/batch_baseline.h"
#include "batch/batch_child.h"
#include "batch/batch_warm.h"
#include "batch/batch_job.h"
#include "batch/batch_progress.h"
#include "batch/gpu_holds.h"
#include "batch/gpu_plan.h"
#include "util/cugrade.h"
#include "course/lab.h"
#include "dataset/hidden.h"
#include "pipeline/hidden_set.h"
#include "report/results.h"
#include "run/runner.h"
#include "run/sandbox.h"
#include "util/sha256.h"
#include "util/tmpdir.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- listing ---------------------------------------------------------------- */

static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* ---- the workers ------------------------------------------------------------ */

typedef struct {
    job_t **todo;             /* the jobs the workers grade */
    int ntodo, next, done, failed, cannot;
    int not_graded;           /* grader faults: no results for them */
    char first_fault[512];
    int total;                /* ntodo and the jobs finished without grading */
    const gpu_plan_t *gpus;   /* how the children use the GPUs (gpu_plan.h) */
    baselines_t *baselines;   /* the reference's timing on each GPU */
    FILE *out;
    pthread_mutex_t lock;
    progress_t progress;
} queue_t;

typedef struct {
    queue_t *q;
    int index;
} worker_t;

static void report_job(queue_t *q, job_t *j, int ok, const char *err)
{
    char what[160];
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/results.json", j->res_dir);
    if (!ok)
        snprintf(what, sizeof what, "ERROR %s", err);
    else if (j->not_graded)
        snprintf(what, sizeof what, "NOT GRADED (grader fault: %.120s)", j->fault);
    else if (j->reject[0])
        snprintf(what, sizeof what, "rejected (%.120s)", j->reject);
    else
        batch_row_line(path, what, sizeof what);
    char line[sizeof what + 2 * NAME_MAX + 96];
    snprintf(line, sizeof line, "%s  %s  %.1f s%s%s", j->id, what, j->result.wall_s,
             j->same_as ? "  identical to " : "", j->same_as ? j->same_as->id : "");
    progress_done(&q->progress, !j->reject[0] && !j->same_as, line);
}

static void count_fault(queue_t *q, const job_t *j)
{
    if (j->not_graded && q->not_graded++ == 0)
        snprintf(q->first_fault, sizeof q->first_fault, "%s", j->fault);
}

/* Points j at worker's GPU, or at every GPU to choose from (gpu_plan.h),
 * with the baseline timing of each: its own GPU's timed first when it has
 * none or an old one; another GPU's taken as it is, and not offered while
 * its first timing is still to come. */
static void give_gpus(queue_t *q, job_t *j, int worker)
{
    int ngpu = q->gpus->ngpu;
    if (ngpu <= 0)
        return;
    gpu_offer_t *offer = calloc((size_t)ngpu, sizeof *offer);
    if (!offer) { /* no room to say: worker's GPU, the children timing the reference */
        gpu_assign(j, worker, q->gpus, NULL);
        return;
    }
    int home = worker % ngpu;
    offer[home].offered = 1;
    if (!baselines_ensure(q->baselines, home, offer[home].baseline, PATH_MAX, q->out))
        offer[home].baseline[0] = '\0';
    for (int k = 0; q->gpus->choose && k < ngpu; k++)
        if (k != home)
            offer[k].offered = baselines_peek(q->baselines, k, offer[k].baseline, PATH_MAX) >= 0;
    gpu_assign(j, worker, q->gpus, offer);
    free(offer);
}

static atomic_int stopping; /* batch_stopping(): lock-free, so safe in a signal handler */

void batch_stopping(void) { atomic_store(&stopping, 1); }

static void *worker(void *arg)
{
    queue_t *q = ((worker_t *)arg)->q;
    int index = ((worker_t *)arg)->index;
    for (;;) {
        pthread_mutex_lock(&q->lock);
        int i = q->next++;
        pthread_mutex_unlock(&q->lock);
        if (i >= q->ntodo)
            return NULL;
        job_t *j = q->todo[i];
        char err[512] = "";
        give_gpus(q, j, index);
        run_one(&j->spec, &j->result);
        free(j->choices);
        j->choices = NULL;
        if (atomic_load(&stopping)) /* killed by the batch's own stop: no verdict */
            return NULL;
        int ok = batch_finish_child(j, err, sizeof err) == 0;
        if (ok)
            batch_stop_graded_one(); /* for a stop's last words (batch_stop.h) */
        pthread_mutex_lock(&q->lock);
        q->done++;
        q->failed += !ok;
        q->cannot += ok && j->cannot_grade;
        if (ok)
            count_fault(q, j);
        report_job(q, j, ok, err);
        pthread_mutex_unlock(&q->lock);
        run_result_free(&j->result);
    }
}

/* Redraws the progress bar about once a second until the workers are done. */
static void tick_until_done(queue_t *q)
{
    for (int ticks = 0;; ticks++) {
        pthread_mutex_lock(&q->lock);
        int busy = q->done < q->ntodo;
        if (busy && ticks % 5 == 4)
            progress_tick(&q->progress);
        pthread_mutex_unlock(&q->lock);
        if (!busy)
            return;
        usleep(200 * 1000);
    }
}

static void run_queue(queue_t *q, int jobs)
{
    if (jobs > q->ntodo)
        jobs = q->ntodo;
    pthread_t *threads = calloc((size_t)(jobs > 0 ? jobs : 1), sizeof *threads);
    worker_t *args = calloc((size_t)(jobs > 0 ? jobs : 1), sizeof *args);
    int started = 0;
    for (int i = 0; i < jobs; i++) {
        args[started] = (worker_t){.q = q, .index = started};
        started += pthread_create(&threads[started], NULL, worker, &args[started]) == 0;
    }
    if (started == 0 && q->ntodo > 0) {
        args[0] = (worker_t){.q = q, .index = 0};
        worker(&args[0]); /* no threads: grade here, one at a time */
    }
    tick_until_done(q);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    free(args);
    free(threads);
}

/* ---- the batch -------------------------------------------------------------- */

static int check_only_ids(const batch_opts_t *o, char **ids, int n, FILE *out)
{
    for (int i = 0; i < o->nonly; i++) {
        int found = 0;
        for (int k = 0; k < n && !found; k++)
            found = strcmp(ids[k], o->only[i]) == 0;
        if (!found) {
            fprintf(out, "cugrade batch: --only %s: no such submission in %s\n", o->only[i],
                    o->submissions_dir);
            return -1;
        }
    }
    return 0;
}

/* Unpacks archives, finds each student file, links identical ones, and
 * readies the child of every job that is graded itself. */
static void stage_all(const batch_opts_t *o, const gpu_plan_t *g, job_t **todo, int ntodo)
{
    lab_t *lab = calloc(1, sizeof *lab);
    char common[65], err[512];
    batch_run_common_key(o, common);
    int have_lab = lab_load(o->root, o->lab, lab, err, sizeof err) == 0;
    for (int i = 0; i < ntodo; i++) {
        if (have_lab)
            batch_stage(todo[i], o->lab, lab->student_file, common);
        else
            snprintf(todo[i]->student, sizeof todo[i]->student, "%s", todo[i]->sub_dir);
    }
    batch_mark_identical(todo, ntodo);
    for (int i = 0; i < ntodo; i++)
        batch_prepare_child(o, g, todo[i]);
    free(lab);
}

/* Moves the jobs that are graded by a child to the front; returns how many. */
static int graded_first(job_t **todo, int ntodo)
{
    job_t **tmp = calloc((size_t)ntodo + 1, sizeof *tmp);
    int k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < ntodo; i++)
            if ((pass == 0) == (!todo[i]->reject[0] && !todo[i]->same_as))
                tmp[k++] = todo[i];
    int ngraded = 0;
    for (int i = 0; i < ntodo; i++)
        ngraded += !tmp[i]->reject[0] && !tmp[i]->same_as;
    memcpy(todo, tmp, (size_t)ntodo * sizeof *todo);
    free(tmp);
    return ngraded;
}

/* Rejected and identical submissions, once the graded ones are done. */
static void finish_ungraded(queue_t *q, job_t **rest, int nrest)
{
    for (int i = 0; i < nrest; i++) {
        char err[512] = "";
        const job_t *orig = rest[i]->same_as;
        int ok = orig && orig->not_graded ? batch_not_graded(rest[i], orig, err, sizeof err) == 0
                                          : batch_finish_ungraded(rest[i], err, sizeof err) == 0;
        q->done++;
        q->failed += !ok;
        if (ok)
            count_fault(q, rest[i]);
        report_job(q, rest[i], ok, err);
    }
}

static void remove_scratch(job_t **todo, int ntodo)
{
    for (int i = 0; i < ntodo; i++)
        if (todo[i]->scratch[0])
            rm_rf(todo[i]->scratch);
}

/* Before grading: the old keys go first, so a kill from here on leaves a
 * result that is regraded next time, and the old measurements, so that no
 * result of this grading is ever re-scored from another's. */
static int open_result_dirs(job_t **todo, int ntodo, FILE *out)
{
    for (int i = 0; i < ntodo; i++) {
        char err[512], path[PATH_MAX + 32];
        if (mkdir_p(todo[i]->res_dir, err, sizeof err) != 0) {
            fprintf(out, "cugrade batch: %s\n", err);
            return -1;
        }
        for (int k = 0; k < 2; k++) {
            snprintf(path, sizeof path, "%s/%s", todo[i]->res_dir,
                     k == 0 ? "inputs.sha256" : "measurements.json");
            if (unlink(path) != 0 && errno != ENOENT) {
                fprintf(out, "cugrade batch: %s: cannot remove: %s\n", path, strerror(errno));
                return -1;
            }
        }
    }
    return 0;
}

static int all_have_results(const batch_opts_t *o, char **ids, int n)
{
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX];
        if (!batch_selected(o, ids[i]))
            continue;
        snprintf(path, sizeof path, "%s/%s/results.json", o->out_dir, ids[i]);
        if (!is_file(path))
            return 0;
    }
    return 1;
}

/* The hidden datasets, made once for every submission of the batch. */
static int make_hidden_set(batch_opts_t *o, hidden_set_t *hs, FILE *out)
{
    grade_opts_t g = {.root = o->root, .lab = o->lab, .rubric_path = o->rubric_path,
                      .hidden_seed = o->hidden_seed};
    char err[2048];
    if (hidden_set_for_batch(&g, hs, err, sizeof err) != 0) {
        fprintf(out, "cugrade batch: cannot grade: %s\n", err);
        hidden_set_remove(hs);
        return -1;
    }
    snprintf(o->hidden_set_dir, sizeof o->hidden_set_dir, "%s", hs->dir);
    if (hs->n > 0)
        fprintf(out, "cugrade batch: %d hidden datasets, made once for every submission in %s "
                     "(removed at the end)\n", hs->n, hs->dir);
    return 0;
}

/* The canary and the hidden set, the first time someone is to be graded
 * (a batch that only re-scores runs neither). rescored: how many were
 * re-scored already, for the message if the canary fails. */
static int ready_to_grade(batch_opts_t *o, hidden_set_t *hs, const char *gpu_queue, int *ready,
                          int rescored, FILE *out)
{
    if (*ready)
        return 0;
    if (batch_preflight(o, gpu_queue, rescored, out) != 0 || make_hidden_set(o, hs, out) != 0)
        return -1;
    *ready = 1;
    return 0;
}

/* Re-scores what only the rubric's scoring changed for, and readies the
 * grading of the rest (p->todo, which takes the ones that could not be
 * re-scored). Returns how many were re-scored, or -1 when nobody can be
 * graded and nothing was written. */
static int rescore_then_ready(batch_opts_t *o, batch_plan_t *p, hidden_set_t *hs,
                              const char *gpu_queue, FILE *out)
{
    int ready = 0;
    if (p->ntodo > 0 && ready_to_grade(o, hs, gpu_queue, &ready, 0, out) != 0)
        return -1; /* nothing written for anyone */
    int rescored = batch_rescore(o, p->rescore, p->nrescore, p->todo, &p->ntodo, out);
    if (p->ntodo > 0 && ready_to_grade(o, hs, gpu_queue, &ready, rescored, out) != 0) {
        p->ntodo = 0; /* those keep their old results until they can be graded */
        p->failed = 1;
        if (rescored == 0)
            return -1;
    }
    return rescored;
}

/* The batch's first line: how many, how many at once, on which GPUs. */
static void print_banner(const batch_plan_t *p, const gpu_plan_t *gpus, int njobs, FILE *out)
{
    fprintf(out, "cugrade batch: %d submission(s), %d to grade, %d to re-score, %d unchanged "
            "(skipped); %d at once", p->ntodo + p->nrescore + p->skipped, p->ntodo, p->nrescore,
            p->skipped, njobs);
    if (gpus->ngpu > 0) {
        int alone = gpus->isolated && sandbox_available();
        fprintf(out, " on %d GPU(s) (built for %s%s), one timing queue each%s (%s)", gpus->ngpu,
                gpus->arch, alone ? "; each child's sandbox shows its GPU alone" : "",
                gpus->choose ? "; a submission takes the GPU fewest are on once it is built" : "",
                gpus->queue_dir);
    }
    fprintf(out, "\n");
    fflush(out);
}

/* Plans, re-scores and grades the listed submissions, then the class files. */
static int grade_all(batch_opts_t *o, char **names, char **ids, int n, FILE *out)
{
    char err[1024];
    job_t *jobs = calloc((size_t)n + 1, sizeof *jobs);
    job_t **todo = calloc((size_t)n + 1, sizeof *todo);
    job_t **rescore = calloc((size_t)n + 1, sizeof *rescore);
    batch_plan_t p = {.todo = todo, .rescore = rescore};
    queue_t q = {.todo = todo, .lock = PTHREAD_MUTEX_INITIALIZER, .out = out};
    gpu_plan_t gpus;
    baselines_t *baselines = calloc(1, sizeof *baselines);
    double t0 = now_seconds();
    batch_plan(o, names, ids, n, jobs, &p);
    gpu_plan(o, &gpus);
    int njobs = o->jobs > 0 ? o->jobs : cpu_count();
    q.gpus = &gpus;
    q.baselines = baselines;
    print_banner(&p, &gpus, njobs, out);
    hidden_set_t hidden = {0};
    batch_warm_t warm; /* the timing objects made beside the canary */
    int timed_gpus = gpus.native_timing ? gpus.ngpu : 0; /* the gpu backend's timing program's */
    batch_warm_start(&warm, o, p.ntodo > 0 ? timed_gpus : 0);
    int early = p.ntodo > 0 && baselines_start_early(baselines, o, timed_gpus, gpus.queue_dir, out);
    int rescored = rescore_then_ready(o, &p, &hidden, gpus.ngpu > 0 ? gpus.queue_dir : NULL, out);
    int rc = p.failed ? EXIT_CANNOT_GRADE : EXIT_GRADED;
    if (rescored < 0) {
        batch_warm_join(&warm);
        baselines_join_first(baselines);
        baselines_free(baselines);
        free(rescore);
        free(todo);
        free(jobs);
        free(baselines);
        return EXIT_CANNOT_GRADE;
    }
    q.total = p.ntodo;
    if (!early)
        baselines_init(baselines, o, q.total > 0 ? timed_gpus : 0, gpus.queue_dir);
    if (open_result_dirs(todo, q.total, out) != 0) {
        rc = EXIT_CANNOT_GRADE;
        q.total = 0;
    }
    stage_all(o, &gpus, todo, q.total);
    batch_warm_join(&warm);
    q.ntodo = graded_first(todo, q.total);
    batch_stop_set_total(q.ntodo);
    progress_start(&q.progress, out, q.total, q.ntodo);
    run_queue(&q, njobs);
    finish_ungraded(&q, todo + q.ntodo, q.total - q.ntodo);
    progress_end(&q.progress);
    remove_scratch(todo, q.total);
    hidden_set_remove(&hidden);
    fprintf(out, "batch: %d graded, %d re-scored, %d could not grade, %d skipped (unchanged), "
            "%d not written, %.1f s\n", q.done - q.failed - q.cannot - q.not_graded, rescored,
            q.cannot, p.skipped, q.failed, now_seconds() - t0);
    batch_fault_summary(q.not_graded, q.first_fault, out);
    baselines_join_first(baselines);
    if (q.total > 0 && baselines_write(baselines, o->out_dir, out, err, sizeof err) != 0)
        fprintf(out, "cugrade batch: %s\n", err);
    baselines_free(baselines);
    free(baselines);
    if (!o->no_class_files && batch_write_class_files(o->out_dir, out, err, sizeof err) != 0) {
        fprintf(out, "cugrade batch: %s\n", err);
        rc = EXIT_CANNOT_GRADE;
    }
    if (!all_have_results(o, ids, n))
        rc = EXIT_CANNOT_GRADE;
    free(rescore);
    free(todo);
    free(jobs);
    return rc;
}

/* The secret's digest, for the inputs hashes (the secret is made if missing). */
static int hidden_digest(batch_opts_t *o, FILE *out)
{
    hidden_secret_t *s = calloc(1, sizeof *s);
    char err[1024];
    int rc = s ? hidden_secret_load(o->root, o->hidden_seed, s, err, sizeof err)
               : fail(err, sizeof err, "out of memory");
    if (rc == 0)
        snprintf(o->hidden_digest, sizeof o->hidden_digest, "%s", s->digest);
    else
        fprintf(out, "cugrade batch: cannot grade: %s\n", err);
    free(s);
    return rc;
}

/* Lists the class and grades it. */
static int run_class(batch_opts_t *o, FILE *out)
{
    char **ids = NULL, **names = NULL, err[1024];
    int n = batch_list(o->submissions_dir, &names, &ids);
    if (n < 0) {
        fprintf(out, "cugrade batch: %s: %s\n", o->submissions_dir, strerror(errno));
        return EXIT_CANNOT_GRADE;
    }
    int rc = EXIT_GRADED;
    if (n == 0) { /* never an empty success: say how a class is laid out */
        fprintf(out, "cugrade batch: no submissions in %s: give it one folder per student "
                     "(%s/<id>/...), an archive per student (<id>.zip, .tar.gz, .tar) or a .cu "
                     "file per student (<id>.cu)\n", o->submissions_dir, o->submissions_dir);
        rc = EXIT_USAGE;
    } else if (check_only_ids(o, ids, n, out) != 0)
        rc = EXIT_USAGE;
    else if (mkdir_p(o->out_dir, err, sizeof err) != 0) {
        fprintf(out, "cugrade batch: %s\n", err);
        rc = EXIT_CANNOT_GRADE;
    }
    if (rc == EXIT_GRADED) {
        /* the sandbox's second tier hides nothing by a view: the class and
         * its results are the grader's alone (each child copies its own) */
        sandbox_guard(o->submissions_dir);
        sandbox_guard(o->out_dir);
        n = batch_keep_shard(o, names, ids, n, out);
        rc = grade_all(o, names, ids, n, out);
    }
    free_names(ids, n);
    free_names(names, n);
    return rc;
}

int batch_run(const batch_opts_t *opts, FILE *out)
{
    batch_opts_t *o = malloc(sizeof *o);
    if (!o)
        return EXIT_CANNOT_GRADE;
    *o = *opts;
    int rc = hidden_digest(o, out) != 0 ? EXIT_CANNOT_GRADE : run_class(o, out);
    free(o);
    return rc;
}

/* ---- --resume's test, for --status and --slurm -------------------------------- */

int batch_resume_key(batch_opts_t *o, char common[65], FILE *out)
{
    if (hidden_digest(o, out) != 0)
        return -1;
    batch_run_common_key(o, common);
    return 0;
}
