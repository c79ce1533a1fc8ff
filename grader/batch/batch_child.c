/* batch_child.c - one submission's child `cugrade run` in a batch
 * (batch_job.h): its command line, and what is put in place once it ends:
 * run.log, measurements.json and results.json renamed from their partial
 * files (or a stand-in results.json when it could not grade, none at all
 * for a grader fault), and last the keys that vouch for them. */
#include "batch/batch_child.h"
#include "report/results.h"
#include "util/cugrade.h"
#include "util/tmpdir.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void batch_prepare_child(const batch_opts_t *o, const gpu_plan_t *g, job_t *j)
{
    static const char *const check_names[] = {"none", "all"};
    char **a = j->argv;
    int n = 0;
    a[n++] = (char *)o->self_exe, a[n++] = "run", a[n++] = "--lab", a[n++] = (char *)o->lab;
    a[n++] = "--backend", a[n++] = (char *)o->backend;
    a[n++] = "--checks", a[n++] = (char *)check_names[o->checks != 0];
    a[n++] = "--color", a[n++] = "never", a[n++] = "--json", a[n++] = j->partial;
    a[n++] = "--measurements", a[n++] = j->measured_partial;
    a[n++] = "--jobs", a[n++] = "1";
    if (o->datasets_dir)
        a[n++] = "--datasets", a[n++] = (char *)o->datasets_dir;
    if (o->rubric_path)
        a[n++] = "--rubric", a[n++] = (char *)o->rubric_path;
    if (o->budget_s > 0) {
        snprintf(j->budget_arg, sizeof j->budget_arg, "%g", o->budget_s);
        a[n++] = "--budget-s", a[n++] = j->budget_arg;
    }
    if (o->hidden_set_dir[0]) /* made once for everyone: no child needs the secret */
        a[n++] = "--hidden-set", a[n++] = (char *)o->hidden_set_dir;
    if (g->ngpu > 0) { /* the GPU itself is chosen by the worker that runs it */
        a[n++] = "--gpu-queue", a[n++] = (char *)g->queue_dir, a[n++] = "--gpu", a[n++] = j->gpu_arg;
        a[n++] = "--perf-baseline", a[n++] = j->baseline; /* "": none */
        j->choice_at = n + 1;
        for (int k = 0; g->choose && k < g->ngpu; k++) /* or by the child itself: gpu_assign */
            a[n++] = "--gpu-choice", a[n++] = ""; /* filled, or cut off, by gpu_assign */
    }
    a[n++] = j->student;
    a[n] = NULL;
    snprintf(j->partial, sizeof j->partial, "%s/results.json.partial", j->res_dir);
    snprintf(j->measured_partial, sizeof j->measured_partial, "%s/measurements.json.partial",
             j->res_dir);
    j->spec = (run_spec_t){.argv = j->argv, .timeout_s = o->timeout_s, .output_cap = 1 << 20,
                           .extra_env = j->env};
    j->env[0] = TMP_SWEPT_ENV "=1"; /* the batch swept $TMPDIR once at its start */
    j->env[1] = NULL;
    /* vgpu on a machine without a GPU: no child asks the driver again */
    if (strcmp(o->backend, "vgpu") == 0 && g->ngpu == 0 && !getenv("CUGRADE_REPLAY"))
        j->env[1] = "CUGRADE_REPLAY=off", j->env[2] = NULL;
}

/* A results.json for a submission that could not be graded, so the gradebook
 * still has its row. */
static int write_cannot_grade(const job_t *j, const char *path, char *err, size_t errlen)
{
    char why[256];
    strbuf_t msg = {0};
    run_describe(&j->result, &j->spec, why, sizeof why);
    sb_appendf(&msg, "could not grade: cugrade run %s", why);
    const char *out = j->result.output ? j->result.output : "";
    size_t len = strlen(out);
    if (len > 0)
        sb_appendf(&msg, "\n%s", len > 4000 ? out + len - 4000 : out);
    grade_t g = {0};
    grade_add_test(&g, "grading", 0, 0, 0, VIS_VISIBLE, sb_str(&msg));
    grade_set_extra_text(&g, "batch_error", why);
    g.output = strdup(sb_str(&msg));
    int rc = grade_write_json(&g, path, err, errlen);
    grade_free(&g);
    sb_free(&msg);
    return rc;
}

/* The child's output into log, with the temporary names of its results
 * (results.json.partial, measurements.json.partial) as they will be once
 * renamed: run.log names the files a TA will find. */
static void append_output(strbuf_t *log, const job_t *j, const char *out, size_t len)
{
    const char *partial[2] = {j->partial, j->measured_partial};
    size_t cut = strlen(".partial");
    for (size_t i = 0; i < len;) {
        int k = 0;
        while (k < 2 && strncmp(out + i, partial[k], strlen(partial[k])) != 0)
            k++;
        if (k < 2 && partial[k][0]) {
            sb_appendn(log, partial[k], strlen(partial[k]) - cut);
            i += strlen(partial[k]);
        } else {
            sb_appendn(log, out + i, 1);
            i++;
        }
    }
}

int batch_finish_child(job_t *j, char *err, size_t errlen)
{
    char path[PATH_MAX + 32];
    const run_result_t *r = &j->result;
    snprintf(path, sizeof path, "%s/run.log", j->res_dir);
    strbuf_t log = {0};
    sb_append(&log, j->note);
    append_output(&log, j, r->output ? r->output : "", r->output_len);
    int wrote = write_file_atomic(path, sb_str(&log), log.len, err, errlen);
    sb_free(&log);
    if (wrote != 0)
        return -1;
    snprintf(path, sizeof path, "%s/results.json", j->res_dir);
    /* a grader fault: no grade, no hash. A child killed by a signal is one too:
     * the student's code runs in processes of its own, never in cugrade run
     * (which says so when it crashes: util/crash.h) */
    if ((r->exited && r->exit_code == EXIT_CANNOT_GRADE) || r->signaled)
        return batch_not_graded(j, NULL, err, errlen);
    if (r->exited && r->exit_code == 0 && is_file(j->partial)) {
        char measured[PATH_MAX + 32];
        snprintf(measured, sizeof measured, "%s/measurements.json", j->res_dir);
        if (is_file(j->measured_partial) && rename(j->measured_partial, measured) != 0)
            return fail(err, errlen, "%s: cannot rename: %s", j->measured_partial, strerror(errno));
        if (rename(j->partial, path) != 0)
            return fail(err, errlen, "%s: cannot rename: %s", j->partial, strerror(errno));
    } else {
        unlink(j->partial);
        unlink(j->measured_partial);
        j->cannot_grade = 1;
        if (write_cannot_grade(j, path, err, errlen) != 0)
            return -1;
    }
    return batch_write_keys(j, err, errlen);
}
