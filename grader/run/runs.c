/* runs.c - load datasets and run the lab program on each of them: one
 * process per dataset, or all of them in one process of the driver's list
 * mode, split back into per-dataset results (grouped runs, see runs.h);
 * after crashes, the rest one dataset a process, side by side (lanes). */
#include "run/runs.h"
#include "kinds/kind.h"
#include "matbin.h"
#include "run/gpuqueue.h"
#include "run/sandbox.h"
#include "util/util.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GROUP_SLACK_S 10.0                /* a group process's start and exit, beyond its limits */
#define GROUP_OUTPUT_CAP_MIN (4u << 20)   /* output kept of a group process, at least */

static void load_job(ds_job_t *j, const lab_t *lab)
{
    const lab_kind_t *kind = lab->kind;
    if (dataset_load(&j->ref, lab->inputs, &j->data, j->load_error, sizeof j->load_error) != 0 ||
        kind->check_shapes(&j->ref, &j->data, j->load_error, sizeof j->load_error) != 0) {
        j->load_failed = 1;
        return;
    }
    kind->shape_text(&j->data, j->shape, sizeof j->shape);
    j->flop = kind->flop(&j->data);
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

static char *own(ds_run_t *r, char *s)
{
    r->owned[r->nowned++] = s;
    return s;
}

/* Kernel style: the inputs as matbin files, PROG IN0 IN1 OUT. */
static int prepare_driver_args(ds_run_t *r, const char *program)
{
    const ds_job_t *j = r->job;
    int n = 0;
    r->argv[n++] = own(r, strdup(program));
    for (int i = 0; i < j->data.ninputs; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/input%d.bin", r->dir, i);
        const matrix_t *m = &j->data.inputs[i];
        if (matbin_write(path, m->data, (uint32_t)m->rows, (uint32_t)m->cols, -1.0) != 0) {
            snprintf(r->error, sizeof r->error, "%.2000s: cannot write", path);
            return -1;
        }
        r->argv[n++] = own(r, strdup(path));
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
    a[n++] = own(r, strdup(program));
    a[n++] = "-e", a[n++] = own(r, strdup(expected));
    a[n++] = "-i", a[n++] = own(r, sb_detach(&inputs));
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
    if ((program_style ? prepare_program_args(r, how->program, how->lab)
                       : prepare_driver_args(r, how->program)) != 0)
        return -1;
    /* next to the run's folder, not in it: the program sees only its folder */
    snprintf(r->diag_path, sizeof r->diag_path, "%.4000s.report", r->dir);
    r->spec = (run_spec_t){.argv = r->argv, .cwd = r->dir,
                           .timeout_s = capped_limit(j->rule.time_limit_s, how->limit_cap),
                           .sandboxed = 1, .report_path = r->diag_path,
                           .not_after = how->not_after, .budget_s = how->budget_s};
    r->started = 1;
    return 0;
}

/* ---- running the datasets ------------------------------------------------ */

static size_t output_cap(const ds_run_t *r)
{
    return r->spec.output_cap ? r->spec.output_cap : RUN_OUTPUT_CAP_DEFAULT;
}

/* The files of an earlier attempt at this run must not count for the next. */
static void forget_attempt(const ds_run_t *r)
{
    unlink(r->out_path);
    unlink(r->diag_path);
}

static int has_queue(const runs_how_t *how)
{
    return how->gpu_queue && how->gpu_queue[0];
}

static void add_stats(const runs_how_t *how, const gpu_turn_stats_t *st)
{
    if (!how->gpu_stats)
        return;
    how->gpu_stats->waited_s += st->waited_s;
    how->gpu_stats->shared_s += st->shared_s;
    how->gpu_stats->exclusive_s += st->exclusive_s;
    how->gpu_stats->shares += st->shares;
}

/* Each run in its own process, at most how->max_parallel at a time; with a
 * queue, the GPU held shared while they run (they cannot ask for turns). */
static void run_separately(ds_run_t *runs, const int *index, int n, const runs_how_t *how)
{
    run_spec_t *specs = calloc((size_t)n + 1, sizeof *specs);
    run_result_t *results = calloc((size_t)n + 1, sizeof *results);
    for (int i = 0; i < n; i++) {
        forget_attempt(&runs[index[i]]);
        specs[i] = runs[index[i]].spec;
    }
    gpu_slot_t slot = {.gate_fd = -1, .lock_fd = -1};
    char err[512];
    double t0 = now_seconds();
    if (has_queue(how) &&
        gpu_queue_enter(how->gpu_queue, how->gpu_index, GPU_SHARED, &slot, err, sizeof err) != 0)
        fprintf(stderr, "cugrade: %s (going on without the GPU queue)\n", err);
    double held = now_seconds();
    for (int i = 0; i < n; i++) /* waits in the queue are not the submission's time */
        if (specs[i].not_after > 0)
            specs[i].not_after = how->not_after + (held - t0);
    run_many(specs, results, n, how->max_parallel);
    if (has_queue(how)) {
        gpu_queue_leave(&slot);
        gpu_turn_stats_t st = {.waited_s = held - t0, .shared_s = now_seconds() - held};
        add_stats(how, &st);
    }
    for (int i = 0; i < n; i++)
        runs[index[i]].result = results[i];
    free(specs);
    free(results);
}

/* One process of the driver's list mode over some of the runs. */
typedef struct {
    char dir[PATH_MAX - 64];       /* its working folder, holding the run folders */
    char list[PATH_MAX];           /* the list, next to the program: readable, not writable */
    char report[PATH_MAX];         /* its report channel: markers and the emulator's lines */
} group_t;

static int open_group(group_t *g, const runs_how_t *how)
{
    if (!how->grouped || lab_is_program(how->lab))
        return -1;
    char progdir[PATH_MAX];
    snprintf(progdir, sizeof progdir, "%s", how->program);
    snprintf(g->dir, sizeof g->dir, "%.3800s/%.40s-group", how->scratch, how->prefix);
    snprintf(g->list, sizeof g->list, "%.4000s/%.40s-datasets.list", dirname(progdir),
             how->prefix);
    snprintf(g->report, sizeof g->report, "%.4000s.report", g->dir);
    return mkdir_p(g->dir, NULL, 0);
}

/* Tabs and line breaks would break the list's lines. */
static int listable(const char *s) { return !strpbrk(s, "\t\n\r"); }

/* LIMIT_S, "--" and the run's arguments, tab-separated. */
static int write_list(const group_t *g, const ds_run_t *runs, const int *index, int n)
{
    strbuf_t sb = {0};
    int ok = 1;
    for (int i = 0; i < n; i++) {
        const ds_run_t *r = &runs[index[i]];
        sb_appendf(&sb, "%.9g\t--", r->spec.timeout_s);
        for (int a = 1; r->argv[a]; a++) {
            sb_appendf(&sb, "\t%s", r->argv[a]);
            ok = ok && listable(r->argv[a]);
        }
        sb_append(&sb, "\n");
    }
    ok = ok && write_file_atomic(g->list, sb_str(&sb), sb.len, NULL, 0) == 0;
    sb_free(&sb);
    return ok ? 0 : -1;
}

/* A group process's spec (argv and shown are its storage): its limit is the
 * sum of its datasets' (the watchdog stops each at its own) and some slack;
 * its output cap the sum of theirs, or more. */
static run_spec_t group_spec(const group_t *g, const ds_run_t *runs, const int *index, int n,
                             const runs_how_t *how, char *argv[4], const char *shown[2])
{
    argv[0] = (char *)how->program, argv[1] = "--each", argv[2] = (char *)g->list, argv[3] = NULL;
    shown[0] = g->list, shown[1] = NULL;
    double limits = 0;
    size_t cap = 0;
    for (int i = 0; i < n; i++) {
        limits += runs[index[i]].spec.timeout_s;
        cap += output_cap(&runs[index[i]]) + 64;
    }
    return (run_spec_t){.argv = argv, .cwd = g->dir, .report_path = g->report, .ro_paths = shown,
                        .timeout_s = limits + GROUP_SLACK_S,
                        .output_cap = cap > GROUP_OUTPUT_CAP_MIN ? cap : GROUP_OUTPUT_CAP_MIN,
                        .sandboxed = 1, .not_after = how->not_after, .budget_s = how->budget_s};
}

static void run_group(const group_t *g, const ds_run_t *runs, const int *index, int n,
                      const runs_how_t *how, run_result_t *proc, double *paused_s)
{
    *paused_s = 0;
    char *argv[4];
    const char *shown[2];
    run_spec_t spec = group_spec(g, runs, index, n, how, argv, shown);
    if (!has_queue(how)) {
        run_one(&spec, proc);
        return;
    }
    gpu_turn_stats_t st;
    /* its start and its waits for the GPU move its budget's end on */
    gpu_turn_run(how->gpu_queue, how->gpu_index, &spec, proc, &st);
    add_stats(how, &st);
    *paused_s = st.paused_s;
}

/* Its own output, kept to its own cap as a separate run's would be. */
static void give_output(run_result_t *rr, const group_part_t *p, size_t cap)
{
    size_t keep = p->output_len < cap ? p->output_len : cap;
    rr->output = malloc(keep + 1);
    memcpy(rr->output, p->output, keep);
    rr->output[keep] = '\0';
    rr->output_len = keep;
    rr->output_total = p->output_len;
    rr->output_truncated = keep < p->output_len;
}

static void set_ended(ds_run_t *r, const group_part_t *p)
{
    r->result = (run_result_t){.started = 1, .exited = 1, .exit_code = p->exit_code,
                               .wall_s = p->wall_s};
    give_output(&r->result, p, output_cap(r));
}

/* The dataset the process ended in gets its ending (or the watchdog's). */
static void set_stopped(ds_run_t *r, const group_part_t *p, const run_result_t *proc,
                        double ended_s)
{
    run_result_t *rr = &r->result;
    *rr = (run_result_t){.started = 1};
    if (p->state == GROUP_TIMED_OUT) {
        rr->timed_out = 1;
        rr->wall_s = r->spec.timeout_s;
    } else {
        rr->exited = proc->exited;
        rr->exit_code = proc->exit_code;
        rr->signaled = proc->signaled;
        rr->term_signal = proc->term_signal;
        rr->timed_out = proc->timed_out;
        rr->budget_out = proc->budget_out;
        rr->wall_s = proc->wall_s > ended_s ? proc->wall_s - ended_s : 0;
    }
    give_output(rr, p, output_cap(r));
}

typedef enum { NEXT_GROUP, NEXT_FIRST_ALONE, NEXT_ALL_SEPARATELY } next_step_t;

/* The group's report channel split at its markers: which datasets began,
 * ended (and in what time) or timed out, and each one's emulator lines,
 * written to its own report file. The text on stdout is split at the same
 * markers as printed there, for each dataset's output only: a submission
 * that prints markers moves text between datasets, never a verdict. A
 * dataset whose stdout was cut before its end is LOST (rerun alone for its
 * own output). */
static void split_group(const group_t *g, ds_run_t *runs, const int *index, int n,
                        const run_result_t *proc, group_part_t *parts)
{
    size_t len = 0;
    char *report = read_file(g->report, &len, NULL, 0);
    group_split(report ? report : "", report ? len : 0, 0, parts, n);
    free(report);
    group_part_t *text = calloc((size_t)n, sizeof *text);
    group_split(proc->output, proc->output_len, proc->output_truncated, text, n);
    for (int i = 0; i < n; i++) {
        const ds_run_t *r = &runs[index[i]];
        if (parts[i].state != GROUP_NOT_BEGUN)
            write_file_atomic(r->diag_path, parts[i].output, parts[i].output_len, NULL, 0);
        if (text[i].state == GROUP_LOST && parts[i].state == GROUP_ENDED)
            parts[i].state = GROUP_LOST;
        free(parts[i].output);
        parts[i].output = text[i].output;
        parts[i].output_len = text[i].output_len;
        text[i].output = NULL;
    }
    group_parts_free(text, n);
    free(text);
}

/* Gives the runs of one group process their results, from the first on, up
 * to the first that did not end; *settled: how many have one. */
static next_step_t settle_group(const group_t *g, ds_run_t *runs, const int *index, int n,
                                const run_result_t *proc, int *settled)
{
    *settled = 0;
    if (!proc->started && !proc->budget_out)
        return NEXT_ALL_SEPARATELY;
    if (!proc->started) { /* the budget was used up: none of them runs */
        for (int i = 0; i < n; i++)
            runs[index[i]].result = (run_result_t){.budget_out = 1, .output = strdup("")};
        *settled = n;
        return NEXT_GROUP;
    }
    group_part_t *parts = calloc((size_t)n, sizeof *parts);
    split_group(g, runs, index, n, proc, parts);
    double ended_s = 0;
    int i = 0;
    for (; i < n && parts[i].state == GROUP_ENDED; i++) {
        set_ended(&runs[index[i]], &parts[i]);
        ended_s += parts[i].wall_s;
    }
    next_step_t next = NEXT_GROUP;
    *settled = i;
    if (i < n) {
        group_state_t st = parts[i].state;
        if (st == GROUP_TIMED_OUT || (st == GROUP_STOPPED && (i == 0 || proc->timed_out))) {
            set_stopped(&runs[index[i]], &parts[i], proc, ended_s);
            *settled = i + 1;
        } else if (i == 0) {
            next = st == GROUP_LOST ? NEXT_FIRST_ALONE : NEXT_ALL_SEPARATELY;
        }
    }
    group_parts_free(parts, n);
    free(parts);
    return next;
}

/* ---- lanes: after crashes, the rest one dataset a process, side by side ---- */

#define LANES_AFTER_CRASHES 2 /* group processes that crashed before their list's end */
#define LANES_ON_A_GPU 4      /* lanes side by side on a GPU (its runs wait, not compute) */

typedef struct {
    group_t g;
    char *argv[4];
    const char *shown[2];
    gpu_turns_t *turns;
    gpu_turn_stats_t st;
} lane_t;

/* How many lanes side by side: 0 where lanes would not save time. */
static int lane_width(const runs_how_t *how)
{
    int width = has_queue(how) ? LANES_ON_A_GPU : how->max_parallel;
    return width >= 2 ? width : 0;
}

/* Lane k of group g: the same working folder, its own list and report. */
static int open_lane(lane_t *l, const group_t *g, int k, const ds_run_t *runs, const int *one)
{
    l->g = *g;
    snprintf(l->g.list, sizeof l->g.list, "%.4000s.lane%d", g->list, k);
    snprintf(l->g.report, sizeof l->g.report, "%.4000s.lane%d", g->report, k);
    return write_list(&l->g, runs, one, 1);
}

/* A program that crashed on dataset after dataset (a host segfault, a launch
 * error that ends it) would cost a process start, a CUDA context and a wait
 * for the GPU for each, one after another: seconds each on a busy GPU. Its
 * remaining datasets run each in its own process of the list mode, `width`
 * at a time; each keeps its own limit, budget and verdict. Not for time
 * outs: hung kernels side by side would hold the GPU longer, not shorter. */
static void run_in_lanes(ds_run_t *runs, const int *index, int n, const runs_how_t *how,
                         const group_t *g, int width)
{
    lane_t *lanes = calloc((size_t)n, sizeof *lanes);
    run_spec_t *specs = calloc((size_t)n, sizeof *specs);
    run_result_t *procs = calloc((size_t)n, sizeof *procs);
    int *alone = calloc((size_t)n, sizeof *alone), nalone = 0; /* run separately instead */
    int *in_lane = calloc((size_t)n, sizeof *in_lane), nlanes = 0;
    for (int i = 0; i < n; i++) {
        lane_t *l = &lanes[nlanes];
        if (open_lane(l, g, i, runs, &index[i]) != 0) {
            alone[nalone++] = index[i];
            continue;
        }
        forget_attempt(&runs[index[i]]);
        specs[nlanes] = group_spec(&l->g, runs, &index[i], 1, how, l->argv, l->shown);
        if (has_queue(how) && (l->turns = gpu_turns_open(how->gpu_queue, how->gpu_index, &l->st)))
            gpu_turns_give(l->turns, &specs[nlanes]);
        in_lane[nlanes++] = index[i];
    }
    run_many(specs, procs, nlanes, width);
    for (int k = 0; k < nlanes; k++) {
        lane_t *l = &lanes[k];
        if (l->turns) {
            gpu_turns_close(l->turns, &specs[k]);
            add_stats(how, &l->st);
        }
        int settled;
        next_step_t next = settle_group(&l->g, runs, &in_lane[k], 1, &procs[k], &settled);
        run_result_free(&procs[k]);
        if (next != NEXT_GROUP || settled == 0)
            alone[nalone++] = in_lane[k];
    }
    if (nalone > 0)
        run_separately(runs, alone, nalone, how);
    free(in_lane);
    free(alone);
    free(procs);
    free(specs);
    free(lanes);
}

/* Whether the dataset a group process stopped at ended it by a crash (its
 * own ending, not a limit). */
static int stopped_by_a_crash(const ds_run_t *r)
{
    return r->result.started && !r->result.timed_out && !r->result.budget_out &&
           (r->result.signaled || (r->result.exited && r->result.exit_code != 0));
}

/* The runs index[0..n) grouped, again and again until each has a result. */
static void run_grouped(ds_run_t *runs, const int *index, int n, const runs_how_t *caller_how,
                        const group_t *g)
{
    runs_how_t moved = *caller_how, *how = &moved; /* its budget's end moves on by the waits */
    int crashes = 0;
    for (int from = 0; from < n;) {
        const int *pending = index + from;
        int np = n - from, settled;
        if (crashes >= LANES_AFTER_CRASHES && np > 1 && lane_width(how) > 0) {
            run_in_lanes(runs, pending, np, how, g, lane_width(how));
            return;
        }
        /* one dataset left runs alone, but on a GPU still in the list mode,
         * which makes its CUDA context before the dataset's clock starts */
        if ((np == 1 && !has_queue(how)) || write_list(g, runs, pending, np) != 0) {
            run_separately(runs, pending, np, how);
            return;
        }
        for (int i = 0; i < np; i++)
            forget_attempt(&runs[pending[i]]);
        run_result_t proc;
        double paused;
        run_group(g, runs, pending, np, how, &proc, &paused);
        if (how->not_after > 0)
            how->not_after += paused;
        next_step_t next = settle_group(g, runs, pending, np, &proc, &settled);
        run_result_free(&proc);
        if (next == NEXT_ALL_SEPARATELY) {
            run_separately(runs, pending, np, how);
            return;
        }
        if (next == NEXT_FIRST_ALONE) { /* it overflowed the group's output cap on its own */
            run_separately(runs, pending, 1, how);
            settled = 1;
        }
        if (settled > 0 && settled < np && stopped_by_a_crash(&runs[pending[settled - 1]]))
            crashes++;
        from += settled;
    }
}

ds_run_t *runs_execute(const ds_job_t *jobs, int n, const runs_how_t *how)
{
    ds_run_t *runs = calloc((size_t)n, sizeof *runs);
    int *index = calloc((size_t)n + 1, sizeof *index), nrun = 0;
    group_t group;
    int grouped = open_group(&group, how) == 0;
    for (int i = 0; i < n; i++) {
        runs[i].job = &jobs[i];
        hide_datasets(&jobs[i]);
        if (prepare_run(&runs[i], how, grouped ? group.dir : how->scratch) == 0)
            index[nrun++] = i;
    }
    sandbox_available(); /* the trial run, once, before the student runs */
    if (grouped)
        run_grouped(runs, index, nrun, how, &group);
    else
        run_separately(runs, index, nrun, how);
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
