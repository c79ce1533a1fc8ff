/* runs.c - load datasets and run the lab program on each of them: one
 * process per dataset (runs_separate.c), or all of them in one process of the
 * driver's list mode (runs_grouped.c; see runs.h). Here: the jobs, each run's
 * folder and arguments, and which way they run. */
#include "run/runs.h"
#include "kinds/kind.h"
#include "matbin.h"
#include "run/runs_grouped.h"
#include "run/runs_separate.h"
#include "run/runs_vgpu.h"
#include "run/sandbox.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static void load_job(ds_job_t *j, const lab_t *lab)
{
    const lab_kind_t *kind = lab->kind;
    if (dataset_load(&j->ref, lab->inputs, &j->data, j->load_error, sizeof j->load_error) != 0 ||
        kind->check_shapes(lab, &j->ref, &j->data, j->load_error, sizeof j->load_error) != 0) {
        j->load_failed = 1;
        return;
    }
    kind->shape_text(lab, &j->data, j->shape, sizeof j->shape);
    j->flop = kind->flop(lab, &j->data);
}

ds_job_t *jobs_load(const dataset_ref_t *refs, int n, const lab_t *lab, const lab_rubric_t *rub)
{
    ds_job_t *jobs = calloc((size_t)n, sizeof *jobs);
    for (int i = 0; i < n; i++) {
        jobs[i].ref = refs[i];
        jobs[i].rule = rubric_dataset_rule(rub, refs[i].name, n);
        if (!(jobs[i].rule.time_limit_s > 0))
            jobs[i].rule.time_limit_s = lab->time_limit_s;
        load_job(&jobs[i], lab);
    }
    return jobs;
}

ds_job_t *jobs_append_hidden(ds_job_t *jobs, int n, const dataset_ref_t *refs, int nhidden,
                             const lab_t *lab, const lab_rubric_t *rub)
{
    if (nhidden <= 0)
        return jobs;
    jobs = realloc(jobs, (size_t)(n + nhidden) * sizeof *jobs);
    memset(jobs + n, 0, (size_t)nhidden * sizeof *jobs);
    for (int i = 0; i < nhidden; i++) {
        ds_job_t *j = &jobs[n + i];
        j->ref = refs[i];
        j->hidden_index = i + 1;
        j->rule = rubric_hidden_rule(rub, n);
        if (!(j->rule.time_limit_s > 0))
            j->rule.time_limit_s = lab->time_limit_s;
        load_job(j, lab);
    }
    return jobs;
}

void jobs_free(ds_job_t *jobs, int n)
{
    for (int i = 0; jobs && i < n; i++)
        dataset_free(&jobs[i].data);
    free(jobs);
}

void job_test_name(const ds_job_t *j, char *buf, size_t len)
{
    if (j->hidden_index > 0)
        snprintf(buf, len, "hidden dataset %d (%.40s)", j->hidden_index, j->shape);
    else if (j->shape[0])
        snprintf(buf, len, "dataset %.60s (%.40s)", j->ref.name, j->shape);
    else
        snprintf(buf, len, "dataset %s", j->ref.name);
}

/* The folder of the datasets (and <tree>/datasets above it) stay out of the
 * student's sight: they hold the expected outputs. */
static void hide_datasets(const ds_job_t *j)
{
    char dir[PATH_MAX + 8];
    snprintf(dir, sizeof dir, "%s/..", j->ref.dir);
    sandbox_hide_dir(dir);
    snprintf(dir, sizeof dir, "%s/../..", j->ref.dir);
    char real[PATH_MAX];
    if (realpath(dir, real) && strcmp(path_base(real), "datasets") == 0)
        sandbox_hide_dir(real);
}

static double capped_limit(double limit, double cap)
{
    return cap > 0 && cap < limit ? cap : limit;
}

int runs_executor_faults(char *why, size_t whylen) { return runs_vgpu_faults(why, whylen); }

/* Kernel style: the inputs as matbin files, PROG IN0 IN1 OUT. */
static int prepare_driver_args(ds_run_t *r, const char *program)
{
    const ds_job_t *j = r->job;
    int n = 0;
    r->argv[n++] = runs_own(r, strdup(program));
    for (int i = 0; i < j->data.ninputs; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/input%d.bin", r->dir, i);
        const matrix_t *m = &j->data.inputs[i];
        if (matbin_write(path, m->data, (uint32_t)m->rows, (uint32_t)m->cols, -1.0) != 0) {
            snprintf(r->error, sizeof r->error, "%.2000s: cannot write", path);
            return -1;
        }
        r->argv[n++] = runs_own(r, strdup(path));
    }
    snprintf(r->out_path, sizeof r->out_path, "%s/output.bin", r->dir);
    r->argv[n++] = r->out_path;
    r->argv[n] = NULL;
    return 0;
}

/* Copies a dataset file byte for byte (course files keep their quirks). */
static int copy_input(const char *from, const char *to, char *err, size_t errlen)
{
    size_t len;
    char *data = read_file(from, &len, err, errlen);
    if (!data)
        return -1;
    int rc = write_file_atomic(to, data, len, err, errlen);
    free(data);
    return rc;
}

/* Program style (libwb): PROG -e EXPECTED -i IN0,IN1 -o OUT -t TYPE. */
static int prepare_program_args(ds_run_t *r, const char *program, const lab_t *lab)
{
    const ds_job_t *j = r->job;
    strbuf_t inputs = {0};
    for (int i = 0; i < j->data.ninputs; i++) {
        char from[PATH_MAX + 32], to[PATH_MAX + 32];
        snprintf(from, sizeof from, "%s/input%d.raw", j->ref.dir, i);
        snprintf(to, sizeof to, "%s/input%d.raw", r->dir, i);
        if (copy_input(from, to, r->error, sizeof r->error) != 0) {
            sb_free(&inputs);
            return -1;
        }
        sb_appendf(&inputs, "%s%s", i ? "," : "", to);
    }
    char expected[PATH_MAX + 32];
    /* where libwb's runs name output.raw; nothing is there: the grader compares */
    snprintf(expected, sizeof expected, "%s/expected-output-is-hidden.raw", r->dir);
    snprintf(r->out_path, sizeof r->out_path, "%s/output.raw", r->dir);
    char **a = r->argv;
    int n = 0;
    a[n++] = runs_own(r, strdup(program));
    a[n++] = "-e", a[n++] = runs_own(r, strdup(expected));
    a[n++] = "-i", a[n++] = runs_own(r, sb_detach(&inputs));
    a[n++] = "-o", a[n++] = r->out_path;
    a[n++] = "-t", a[n++] = (char *)lab->wb_type;
    a[n] = NULL;
    return 0;
}

/* Writes the inputs into the run's folder (in base) and fills its argv and env. */
static int prepare_run(ds_run_t *r, const runs_how_t *how, const char *base)
{
    const ds_job_t *j = r->job;
    if (j->load_failed) {
        snprintf(r->error, sizeof r->error, "%s", j->load_error);
        return -1;
    }
    snprintf(r->dir, sizeof r->dir, "%.3800s/%.40s-%.60s", base, how->prefix, j->ref.name);
    if (mkdir_p(r->dir, r->error, sizeof r->error) != 0)
        return -1;
    int program_style = lab_is_program(how->lab);
    if (how->ptx && !program_style) { /* kernel labs: the executor is the lab's driver */
        if (runs_vgpu_prepare(r, how) != 0)
            return -1;
        r->started = 1;
        return 0;
    }
    if ((program_style ? prepare_program_args(r, how->program, how->lab)
                       : prepare_driver_args(r, how->program)) != 0)
        return -1;
    /* next to the run's folder, not in it: the program sees only its folder */
    snprintf(r->diag_path, sizeof r->diag_path, "%.4000s.report", r->dir);
    /* the largest file it may write: the sandbox's, or room for this dataset's output twice over
     * (a scan of 2^24 + 1 floats writes 64 MiB) */
    size_t out_bytes = (size_t)j->data.expected.rows * (size_t)j->data.expected.cols * sizeof(float) * 2 + (1u << 20);
    r->spec = (run_spec_t){.argv = r->argv, .cwd = r->dir,
                           .timeout_s = capped_limit(j->rule.time_limit_s, how->limit_cap),
                           .sandboxed = 1, .report_path = r->diag_path,
                           .not_after = how->not_after, .budget_s = how->budget_s,
                           .file_limit_bytes = out_bytes > SANDBOX_FSIZE_LIMIT ? out_bytes : 0};
    if (how->ptx) /* a libwb program beside the executor */
        runs_vgpu_program(r);
    r->started = 1;
    return 0;
}

ds_run_t *runs_execute(const ds_job_t *jobs, int n, const runs_how_t *how)
{
    ds_run_t *runs = calloc((size_t)n, sizeof *runs);
    int *index = calloc((size_t)n + 1, sizeof *index), nrun = 0;
    group_t group;
    int grouped = !how->ptx && group_open(&group, how) == 0;
    for (int i = 0; i < n; i++) {
        runs[i].job = &jobs[i];
        hide_datasets(&jobs[i]);
        if (prepare_run(&runs[i], how, grouped ? group.dir : how->scratch) == 0)
            index[nrun++] = i;
    }
    sandbox_available(); /* the trial run, once, before the student runs */
    if (how->ptx)
        runs_on_executor(runs, index, nrun, how);
    else if (grouped)
        runs_grouped(runs, index, nrun, how, &group);
    else
        runs_separately(runs, index, nrun, how);
    free(index);
    return runs;
}

void runs_free(ds_run_t *runs, int n)
{
    for (int i = 0; runs && i < n; i++) {
        for (int k = 0; k < runs[i].nowned; k++)
            free(runs[i].owned[k]);
        run_result_free(&runs[i].result);
    }
    free(runs);
}

double runs_not_after(double budget_s)
{
    return budget_s > 0 ? now_seconds() + budget_s : 0;
}
