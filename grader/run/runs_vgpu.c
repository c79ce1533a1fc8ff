/* runs_vgpu.c - a kernel lab's datasets on the executor (runs_vgpu.h): the
 * inputs where only the executor reads them, and each dataset's program
 * and executor started as a pair on a socket pair, their endings merged
 * into the run's result. */
#include "run/runs_vgpu.h"
#include "run/host_lines.h"
#include "run/runs_replay.h"
#include "run/runs_separate.h"
#include "run/sandbox_types.h"
#include "kinds/kind.h"
#include "util/cugrade.h"
#include "util/tally.h"
#include "util/util.h"

#include "matbin.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* The executor's speed the pair's wall-clock limit assumes (instructions
 * a second with every check on, on a loaded machine): the limit is a
 * safety net, never what stops an honest run, so that the budget, the same
 * on every machine, is what stops a long one. */
#define VGPU_SLOWEST_RATE 10e6
#define VGPU_EXECUTOR_MEMORY ((size_t)8 << 30)
#define TEXT_OF(x) #x
#define TEXT(x) TEXT_OF(x)

static tally_t executor_faults = TALLY_INIT;

int runs_vgpu_faults(char *why, size_t whylen) { return tally_read(&executor_faults, why, whylen); }

/* The limit of a run's pair: the dataset's, or its budget at the slowest
 * rate if that is longer. */
static double pair_limit(const ds_job_t *j)
{
    double limit = j->rule.time_limit_s, net = (double)j->instruction_budget / VGPU_SLOWEST_RATE;
    return limit > net ? limit : net;
}

void runs_vgpu_program(ds_run_t *r)
{
    snprintf(r->out_path, sizeof r->out_path, "%.4000s.solution.raw", r->dir);
    snprintf(r->diag_path, sizeof r->diag_path, "%.4000s.report", r->dir);
    r->spec.report_path = NULL; /* the program has no report channel: the executor reports */
    r->spec.no_gpu = 1;         /* its device is the executor: it is shown no GPU */
    r->spec.timeout_s = pair_limit(r->job);
}

int runs_vgpu_prepare(ds_run_t *r, const runs_how_t *how)
{
    const ds_job_t *j = r->job;
    char in_dir[PATH_MAX];
    snprintf(in_dir, sizeof in_dir, "%.4000s.in", r->dir);
    if (mkdir_p(in_dir, r->error, sizeof r->error) != 0)
        return -1;
    for (int i = 0; i < j->data.ninputs; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/input%d.bin", in_dir, i);
        const matrix_t *m = &j->data.inputs[i];
        if (matbin_write(path, m->data, (uint32_t)m->rows, (uint32_t)m->cols, -1.0) != 0) {
            snprintf(r->error, sizeof r->error, "%.2000s: cannot write", path);
            return -1;
        }
    }
    snprintf(r->out_path, sizeof r->out_path, "%.4000s.out.bin", r->dir);
    snprintf(r->diag_path, sizeof r->diag_path, "%.4000s.report", r->dir);
    r->argv[0] = runs_own(r, strdup(how->program));
    r->argv[1] = NULL;
    r->spec = (run_spec_t){.argv = r->argv, .cwd = r->dir, .timeout_s = pair_limit(j),
                           .sandboxed = 1, .no_gpu = 1, .not_after = how->not_after,
                           .budget_s = how->budget_s};
    return 0;
}

/* The executor's command line for run r (its strings r's own): the call,
 * the checks, the budget, the dataset, the PTX, and the socket at
 * RUN_PASS_FD. */
typedef struct {
    char *argv[32];
} executor_cmd_t;

static void executor_command(ds_run_t *r, const runs_how_t *how, executor_cmd_t *c)
{
    const lab_kind_t *k = how->lab->kind;
    char path[PATH_MAX], text[2 * PATH_MAX + 8];
    int n = 0, program = lab_is_program(how->lab);
    snprintf(path, sizeof path, "%.4000s/bin/cugrade-vgpu", cugrade_root());
    c->argv[n++] = runs_own(r, strdup(path));
    if (program) { /* a libwb program: its wbSolution, written by the executor */
        c->argv[n++] = "--solution", c->argv[n++] = r->out_path;
    } else { /* a kernel lab: the executor is the driver */
        c->argv[n++] = "--call", c->argv[n++] = (char *)how->lab->vgpu_call;
        c->argv[n++] = "--out-shape", c->argv[n++] = (char *)how->lab->vgpu_out_shape;
        if (k->vgpu_out_returned)
            c->argv[n++] = "--out-count", c->argv[n++] = "returned";
        c->argv[n++] = "--out-name", c->argv[n++] = (char *)how->lab->output_name;
        c->argv[n++] = "--in-names", c->argv[n++] = (char *)how->lab->input_names;
        if (how->lab->vgpu_in_types[0]) /* an array lab's element types */
            c->argv[n++] = "--in-types", c->argv[n++] = (char *)how->lab->vgpu_in_types;
        if (how->lab->vgpu_out_int)
            c->argv[n++] = "--out-int";
    }
    if (how->checks) {
        c->argv[n++] = "--races";
        c->argv[n++] = "--uninit";
        c->argv[n++] = "--traffic";
        c->argv[n++] = "--sample"; /* a big grid's checks on a sample of its blocks */
    } else if (how->traffic) {
        c->argv[n++] = "--traffic";
        c->argv[n++] = "--sample"; /* bytes counted in every block, sectors in a sample */
    }
    snprintf(text, sizeof text, "%llu", r->job->instruction_budget); /* 0: none */
    c->argv[n++] = "--budget", c->argv[n++] = runs_own(r, strdup(text));
    c->argv[n++] = "--findings", c->argv[n++] = r->diag_path;
    if (how->replay_runner || how->dry) /* the launches kept, for the GPU (run/runs_replay.h) */
        c->argv[n++] = "--trace";
    if (how->dry)
        c->argv[n++] = "--dry";
    snprintf(text, sizeof text, "%.4000s.in:%.4000s", r->dir, r->out_path);
    if (!program)
        c->argv[n++] = "--dataset", c->argv[n++] = runs_own(r, strdup(text));
    c->argv[n++] = (char *)how->ptx;
    c->argv[n++] = "--fd", c->argv[n++] = TEXT(RUN_PASS_FD);
    c->argv[n] = NULL;
}

/* The run's result from its two processes: the program's ending and
 * output, unless the executor ended it (the program broke the wire: its
 * status 3) or could not serve (2: a grader fault, counted). */
static void merge(ds_run_t *r, run_result_t *executor, run_result_t *program)
{
    r->result = *program;
    int broke_wire = executor->exited && executor->exit_code == 3;
    int refused = executor->exited && executor->exit_code == 4; /* tensor cores: the findings say */
    int failed = !executor->started || executor->timed_out || executor->signaled ||
                 (executor->exited && executor->exit_code != 0 && !broke_wire && !refused);
    if (failed && !program->timed_out && !program->budget_out)
        tally_add(&executor_faults, NULL, executor->output, "(the executor said nothing)");
    if (refused && r->result.signaled && r->result.term_signal == SIGPIPE) {
        r->result.signaled = 0; /* its device went away at the start: no crash of its own */
        r->result.exited = 1, r->result.exit_code = 3;
    }
    if ((broke_wire || refused) && r->result.exited && r->result.exit_code == 0)
        r->result.exit_code = 3; /* its output is worth nothing: the findings say why */
    run_result_free(executor);
}

/* The runs' order: the most work first (the dataset's FLOP), so that the
 * largest, which one executor runs alone, starts while the others share
 * the rest of the cores (lab 3's 417x210x519 is a quarter of its grade's
 * work), then dataset order. */
static int by_work(const void *a, const void *b, void *ctx)
{
    const ds_run_t *runs = ctx;
    int x = *(const int *)a, y = *(const int *)b;
    double fx = runs[x].job->flop, fy = runs[y].job->flop;
    return fx > fy ? -1 : fx < fy ? 1 : (x > y) - (x < y);
}

void runs_on_executor(ds_run_t *runs, const int *given, int n, const runs_how_t *how)
{
    int *index = calloc((size_t)n + 1, sizeof *index);
    memcpy(index, given, (size_t)n * sizeof *index);
    qsort_r(index, (size_t)n, sizeof *index, by_work, runs);
    run_spec_t *specs = calloc(2 * (size_t)n + 1, sizeof *specs);
    run_result_t *results = calloc(2 * (size_t)n + 1, sizeof *results);
    executor_cmd_t *cmds = calloc((size_t)n + 1, sizeof *cmds);
    int(*ends)[2] = calloc((size_t)n + 1, sizeof *ends);
    static char *const fd_env[] = {"CUGRADE_VGPU_FD=" TEXT(RUN_PASS_FD), NULL};
    for (int i = 0; i < n; i++) {
        ds_run_t *r = &runs[index[i]];
        runs_forget_attempt(r);
        run_spec_t *e = &specs[2 * i], *p = &specs[2 * i + 1];
        *p = r->spec;
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends[i]) != 0) {
            ends[i][0] = ends[i][1] = -1; /* no pair: neither starts (argv NULL below) */
            snprintf(r->error, sizeof r->error, "cannot make the executor's socket: %s",
                     strerror(errno));
        }
        executor_command(r, how, &cmds[i]);
        /* the grader's own program, outside the sandbox, bounded all the same: what it
         * interprets is the submission's */
        *e = (run_spec_t){.argv = cmds[i].argv, .timeout_s = r->spec.timeout_s + 5,
                          .cpu_limit_s = r->spec.timeout_s + 5,
                          .memory_limit_bytes = VGPU_EXECUTOR_MEMORY,
                          .file_limit_bytes = SANDBOX_FSIZE_LIMIT * 4,
                          .pass_fds = &ends[i][0], .npass_fds = 1, .close_passed = 1};
        p->pass_fds = &ends[i][1];
        p->npass_fds = 1;
        p->close_passed = 1;
        p->extra_env = fd_env;
    }
    /* the executor first: a program never waits on one not started; a pair
     * split by the limit waits for one slot only */
    int parallel = how->max_parallel > 0 ? 2 * how->max_parallel : 2;
    run_many(specs, results, 2 * n, parallel);
    for (int i = 0; i < n; i++) {
        merge(&runs[index[i]], &results[2 * i], &results[2 * i + 1]);
        if (lab_is_program(how->lab)) /* a libwb program's copies named by their line */
            host_lines_resolve(&runs[index[i]], how->program);
    }
    if (how->replay_runner)
        runs_replay(runs, given, n, how, &executor_faults);
    free(specs);
    free(results);
    free(cmds);
    free(ends);
    free(index);
}
