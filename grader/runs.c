/* runs.c - load datasets and run the lab program on each of them. */
#include "runs.h"
#include "matbin.h"
#include "sandbox.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void load_job(ds_job_t *j, const lab_t *lab)
{
    if (dataset_load(&j->ref, lab->inputs, &j->data, j->load_error, sizeof j->load_error) != 0 ||
        (strcmp(lab->shape_rule, "matmul") == 0 &&
         dataset_check_matmul(&j->ref, &j->data, j->load_error, sizeof j->load_error) != 0)) {
        j->load_failed = 1;
        return;
    }
    dataset_shape(&j->data, j->shape, sizeof j->shape);
    if (strcmp(lab->shape_rule, "matmul") == 0)
        j->flop = 2.0 * j->data.inputs[0].rows * j->data.inputs[0].cols * j->data.inputs[1].cols;
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

void jobs_free(ds_job_t *jobs, int n)
{
    for (int i = 0; jobs && i < n; i++)
        dataset_free(&jobs[i].data);
    free(jobs);
}

void job_test_name(const ds_job_t *j, char *buf, size_t len)
{
    if (j->shape[0])
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

/* Writes the inputs into the run's folder and fills its argv and env. */
static int prepare_run(ds_run_t *r, const char *program, const char *scratch, const char *prefix)
{
    const ds_job_t *j = r->job;
    if (j->load_failed) {
        snprintf(r->error, sizeof r->error, "%s", j->load_error);
        return -1;
    }
    snprintf(r->dir, sizeof r->dir, "%.3800s/%.40s-%.60s", scratch, prefix, j->ref.name);
    if (mkdir_p(r->dir, r->error, sizeof r->error) != 0)
        return -1;
    r->argv[0] = strdup(program);
    for (int i = 0; i < j->data.ninputs; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/input%d.bin", r->dir, i);
        const matrix_t *m = &j->data.inputs[i];
        if (matbin_write(path, m->data, (uint32_t)m->rows, (uint32_t)m->cols, -1.0) != 0) {
            snprintf(r->error, sizeof r->error, "%.2000s: cannot write", path);
            return -1;
        }
        r->argv[i + 1] = strdup(path);
    }
    snprintf(r->out_path, sizeof r->out_path, "%s/output.bin", r->dir);
    snprintf(r->diag_path, sizeof r->diag_path, "%s/emu-report.txt", r->dir);
    r->argv[j->data.ninputs + 1] = r->out_path;
    snprintf(r->env_diag, sizeof r->env_diag, "CUGRADE_EMU_DIAG=%s", r->diag_path);
    r->env[0] = r->env_diag;
    r->spec = (run_spec_t){.argv = r->argv, .cwd = r->dir, .extra_env = r->env,
                           .timeout_s = j->rule.time_limit_s, .sandboxed = 1};
    r->started = 1;
    return 0;
}

ds_run_t *runs_execute(const ds_job_t *jobs, int n, const char *program, const char *scratch,
                       const char *prefix, int max_parallel)
{
    ds_run_t *runs = calloc((size_t)n, sizeof *runs);
    run_spec_t *specs = calloc((size_t)n, sizeof *specs);
    run_result_t *results = calloc((size_t)n, sizeof *results);
    int *index = calloc((size_t)n, sizeof *index), nrun = 0;
    for (int i = 0; i < n; i++) {
        runs[i].job = &jobs[i];
        hide_datasets(&jobs[i]);
        if (prepare_run(&runs[i], program, scratch, prefix) == 0) {
            index[nrun] = i;
            specs[nrun++] = runs[i].spec;
        }
    }
    sandbox_available(); /* the trial run, once, before the student runs */
    run_many(specs, results, nrun, max_parallel);
    for (int r = 0; r < nrun; r++)
        runs[index[r]].result = results[r];
    free(specs);
    free(results);
    free(index);
    return runs;
}

void runs_free(ds_run_t *runs, int n)
{
    for (int i = 0; runs && i < n; i++) {
        for (int a = 0; a < DATASET_MAX_INPUTS + 1 && runs[i].argv[a] != runs[i].out_path; a++)
            free(runs[i].argv[a]);
        run_result_free(&runs[i].result);
    }
    free(runs);
}
