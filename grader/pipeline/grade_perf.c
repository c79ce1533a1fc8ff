/* grade_perf.c - the performance measurement of a grading (grade_perf.h):
 * the lab's timing program built (build_timing.c) and run alone on the GPU
 * in the sandbox, its report channel parsed (with the batch's baseline of
 * the reference and cuBLAS merged in, perf_baseline.h) into the
 * perf_result_t that score_measured (score/score.h) scores and records in
 * extra_data for the class page and the leaderboard (perf_ratio,
 * perf_relative_to, performance_shapes, Gradescope's "leaderboard"). */
#include "pipeline/grade_perf.h"
#include "build/build.h"
#include "compare/verdict.h"
#include "kinds/kind.h"
#include "pipeline/canary.h"
#include "pipeline/grade_perf_replay.h"
#include "pipeline/perf_baseline.h"
#include "run/gpu_turn.h"
#include "run/runner.h"
#include "score/perf.h"
#include "score/score.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COMPILE_TIMEOUT_S 180.0
#define TIMING_FAILED (-2) /* read_timing: the timing program failed */

/* On a batch's several GPUs, the one with the fewest submissions on it now
 * (run/gpu_choice.h), taken when the first dataset run is next. */
const grade_opts_t *grade_take_gpu(const grade_opts_t *o, grade_opts_t *chosen)
{
    if (o->ngpu_choices <= 0)
        return o;
    const gpu_choice_t *c =
        &o->gpu_choices[gpu_choose(o->gpu_queue, o->gpu_choices, o->ngpu_choices, o->gpu_index)];
    gpu_choice_apply(c);
    *chosen = *o;
    chosen->gpu_index = c->index;
    chosen->perf_baseline = c->baseline;
    return chosen;
}

/* The batch's baseline of this GPU (perf_baseline.h), when there is one
 * that can be used: 1, else 0 with why in msg. */
static int baseline_of(const grade_opts_t *o, perf_result_t *base, char *when, size_t whenlen,
                       strbuf_t *msg)
{
    if (!o->perf_baseline || !o->perf_baseline[0])
        return 0;
    int gpu;
    double at;
    char err[512];
    if (perf_baseline_read(o->perf_baseline, base, &gpu, &at, err, sizeof err) != 0) {
        sb_appendf(msg, "(the batch's baseline timing could not be used: %s; the reference and "
                        "cuBLAS were timed with this submission)\n", err);
        return 0;
    }
    time_t t = (time_t)at;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(when, whenlen, "%H:%M:%S UTC", &tm);
    return 1;
}

/* Runs the timing program: the student's kernel alone when the batch's
 * baseline has the others (use_base), else every implementation. */
static void run_timing(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                       const char *program, int use_base, const char *report, perf_command_t *cmd,
                       run_result_t *rr, run_spec_t *spec, gpu_turn_stats_t *st)
{
    const perf_rule_t *rule = &in->rub.performance;
    perf_command(program, rule, in->lab.tol.rtol, in->lab.tol.atol, use_base ? "student" : NULL,
                 cmd);
    /* sandboxed like every run of the submission's code; its results come
     * on the report channel, which that code cannot write (harness.h) */
    char dir[PATH_MAX - 16];
    snprintf(dir, sizeof dir, "%.4000s/timing-run", run->scratch);
    mkdir_p(dir, NULL, 0);
    *spec = (run_spec_t){.argv = cmd->argv, .cwd = dir, .sandboxed = 1, .report_path = report,
                         .timeout_s = rule->nshapes * (rule->time_cap_s + 60)};
    double t0 = now_seconds();
    gpu_turn_run(o->gpu_queue, o->gpu_index, spec, rr, st); /* the timed part alone on the GPU */
    run->phase_s[PHASE_GPU_WAIT] += st->waited_s;
    run->phase_s[PHASE_GPU_EXCLUSIVE] += st->exclusive_s;
    run->phase_s[PHASE_GPU_START] += st->start_s;
    run->phase_s[PHASE_TIMING] += now_seconds() - t0;
}

/* What a timing that ended (rr, run by spec; its results in report) gives:
 * 1 timed (pr; scored by score_measured), 0 not (msg says why), -1 base (the
 * batch's baseline, NULL: none) is not of this device or lacks a shape (msg
 * says so), TIMING_FAILED the program failed or was stopped (msg says how;
 * vouch_timing tells whose fault). what names the timing in msg. */
static int read_timing(const char *what, const run_result_t *rr, const run_spec_t *spec,
                       const char *report, const perf_result_t *base, const char *when,
                       strbuf_t *msg, perf_result_t *pr)
{
    char err[512], why[256];
    if (!rr->exited || rr->exit_code != 0) {
        run_describe(rr, spec, why, sizeof why);
        sb_appendf(msg, "FAILED: %s %s\n%s", what, why, rr->output ? rr->output : "");
        return TIMING_FAILED;
    }
    if (perf_parse_file(report, pr, err, sizeof err) != 0) {
        sb_appendf(msg, "not run: %s\n", err);
        return 0;
    }
    if (base && perf_merge_baseline(pr, base, err, sizeof err) != 0) {
        sb_appendf(msg, "(the batch's baseline timing could not be used: %s; timed again with "
                        "the reference and cuBLAS beside it)\n", err);
        return -1;
    }
    if (base)
        sb_appendf(msg, "the reference and cuBLAS: the batch's baseline timing of this GPU "
                        "(%s)\n", when);
    return 1;
}

/* One run of the timing program (program): the student's kernel alone
 * against base (the batch's baseline), or every implementation (base
 * NULL). As read_timing. */
static int time_once(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                     const char *program, const perf_result_t *base, const char *when,
                     strbuf_t *msg, perf_result_t *pr)
{
    char report[PATH_MAX];
    snprintf(report, sizeof report, "%.4000s/timing-run.report", run->scratch);
    perf_command_t cmd;
    run_result_t rr;
    run_spec_t spec;
    gpu_turn_stats_t st;
    run_timing(o, run, in, program, base != NULL, report, &cmd, &rr, &spec, &st);
    if (o->gpu_queue && o->gpu_queue[0])
        sb_appendf(msg, "timed alone on GPU %d for %.2f s (waited %.1f s in its timing queue)\n",
                   o->gpu_index, st.exclusive_s, st.waited_s);
    int timed = read_timing("the timing program", &rr, &spec, report, base, when, msg, pr);
    run_result_free(&rr);
    return timed;
}

/* Runs the lab's timing program on the GPU. Ends in the measurement: the
 * message before the score in msg, and 1 with the timing to score in *pr
 * (0: none, msg says why; TIMING_FAILED: the program failed). */
static int time_on_gpu(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                       strbuf_t *msg, perf_result_t *pr, int *fault)
{
    build_ctx_t ctx = {.root = o->root, .backend = BACKEND_NATIVE, .lab = &in->lab,
                       .scratch = run->scratch, .timeout_s = COMPILE_TIMEOUT_S};
    build_result_t br;
    double t0 = now_seconds();
    int built = build_timing_program(&ctx, &br);
    run->phase_s[PHASE_TIMING_BUILD] += now_seconds() - t0;
    if (built != 0) {
        if ((*fault = br.internal_error) != 0) /* the lab's timing files: not the student's */
            fault_of_build(&br, "", run->error, sizeof run->error);
        sb_appendf(msg, "not run: the timing program did not build:\n%s", br.log ? br.log : "");
        build_result_free(&br);
        return 0;
    }
    perf_result_t base;
    char when[64] = "";
    int use_base = baseline_of(o, &base, when, sizeof when, msg);
    int timed = time_once(o, run, in, br.program, use_base ? &base : NULL, when, msg, pr);
    if (timed == -1) /* the baseline is not of this GPU: time the others beside it, as alone */
        timed = time_once(o, run, in, br.program, NULL, when, msg, pr);
    build_result_free(&br);
    return timed;
}

/* ---- the timing tail: timed in the datasets' process ---------------------- */

/* The tail's time limit: the separate timing program's (run_timing). */
static double tail_limit(const perf_rule_t *rule) { return rule->nshapes * (rule->time_cap_s + 60); }

void grade_perf_tail_prepare(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                             perf_tail_t *pt)
{
    memset(pt, 0, sizeof *pt);
    const perf_rule_t *rule = &in->rub.performance;
    const char *off = getenv("CUGRADE_TIMING_TAIL"); /* "off": the timing program always */
    if ((off && strcmp(off, "off") == 0) || !rule->present || !in->lab.has_timing ||
        run->backend != BACKEND_NATIVE ||
        lab_is_program(&in->lab) || !run->measured.compiled || run->rule_broken[0] ||
        o->dataset_runs == DATASET_RUNS_SEPARATE)
        return;
    build_ctx_t ctx = {.root = o->root, .backend = BACKEND_NATIVE, .lab = &in->lab,
                       .scratch = run->scratch, .timeout_s = COMPILE_TIMEOUT_S};
    double t0 = now_seconds();
    int built = build_timed_driver(&ctx, &pt->br);
    run->phase_s[PHASE_TIMING_BUILD] += now_seconds() - t0;
    if (built != 0) /* the separate timing program is built and its failure reported later */
        return;
    pt->use_base = baseline_of(o, &pt->base, pt->when, sizeof pt->when, &pt->msg);
    perf_command(pt->br.program, rule, in->lab.tol.rtol, in->lab.tol.atol,
                 pt->use_base ? "student" : NULL, &pt->cmd);
    pt->limit_s = tail_limit(rule);
    snprintf(pt->report, sizeof pt->report, "%.4000s/timing-tail.report", run->scratch);
    pt->ready = 1;
}

/* The tail's judge (run/ds_run.h): every dataset ran and its output is right. */
static int outputs_pass(void *ctx, const ds_run_t *runs)
{
    const perf_tail_t *pt = ctx;
    for (int i = 0; i < pt->njobs; i++)
        if (!runs[i].started || !verdict_output_passes(&runs[i], pt->lab))
            return 0;
    return 1;
}

void grade_perf_tail_offer(perf_tail_t *pt, const grading_inputs_t *in, runs_how_t *how)
{
    if (!pt->ready)
        return;
    pt->lab = &in->lab;
    pt->njobs = in->njobs;
    how->program = pt->br.program;
    how->tail_args = pt->cmd.argv + 1;
    how->tail_limit_s = pt->limit_s;
    how->tail_report = pt->report;
    how->tail_judge = outputs_pass;
    how->tail_ctx = pt;
    how->tail = &pt->tail;
}

void grade_perf_tail_free(perf_tail_t *pt)
{
    build_result_free(&pt->br);
    run_result_free(&pt->tail.proc);
    sb_free(&pt->msg);
}

/* The tail's timing, read as time_once reads a timing program's: 1 timed,
 * 0 not (msg says why), -1 the baseline is not of this device (time again),
 * TIMING_FAILED it failed. */
static int tail_timed(const grade_opts_t *o, grade_run_t *run, perf_tail_t *pt, strbuf_t *msg,
                      perf_result_t *pr)
{
    const run_tail_t *t = &pt->tail;
    run->phase_s[PHASE_GPU_WAIT] += t->turn.st.waited_s;
    run->phase_s[PHASE_GPU_EXCLUSIVE] += t->turn.st.exclusive_s;
    run->phase_s[PHASE_TIMING] += t->turn.tail_s;
    sb_append(msg, sb_str(&pt->msg));
    if (o->gpu_queue && o->gpu_queue[0])
        sb_appendf(msg, "timed alone on GPU %d for %.2f s (waited %.1f s in its timing queue), "
                        "in the datasets' process\n", o->gpu_index, t->turn.st.exclusive_s,
                   t->turn.st.waited_s);
    run_spec_t spec = {.timeout_s = pt->limit_s};
    return read_timing("the timing", &t->proc, &spec, pt->report, pt->use_base ? &pt->base : NULL,
                       pt->when, msg, pr);
}

/* A timing that failed (an error, a crash, its time limit; a wrong output is
 * timed, and scored) is the student's only if the lab's reference runs
 * under the same timing program on this GPU now (perf_baseline.h
 * perf_reference_times): 0, msg says so; else -1, a grader fault in
 * run->error. */
static int vouch_timing(const grade_opts_t *o, grade_run_t *run, strbuf_t *msg)
{
    char err[4096];
    double t0 = now_seconds();
    if (perf_reference_times(o, err, sizeof err) != 0)
        return fault_describe(run->error, sizeof run->error,
                              "the lab's timing program failed for the submission, and for the "
                              "lab's reference too",
                              NULL, err,
                              "check the GPU (`nvidia-smi`, `bin/cugrade info`) and the lab's "
                              "timing program");
    run->phase_s[PHASE_TIMING] += now_seconds() - t0;
    sb_appendf(msg, "(the lab's reference, timed by the same program on GPU %d just after, ran: "
                    "the failure is the submission's)\n", o->gpu_index);
    return 0;
}

int grade_measure_performance(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                              perf_tail_t *pt, const build_result_t *br)
{
    const perf_rule_t *rule = &in->rub.performance;
    measured_perf_t *p = &run->measured.perf;
    if (!rule->present)
        return 0;
    p->measured = 1;
    strbuf_t msg = {0};
    int fault = 0;
    p->on_gpu = run->backend == BACKEND_VGPU && run->replay_runner[0] && br->ok &&
                grade_perf_replay_fits(in); /* when not: scored as the executor's backend, 0 of 0 */
    /* not timed: the score says why, with the rubric's points */
    if (score_perf_not_timed(&run->measured, rule, &in->lab, &msg) == 0 && msg.len == 0 && p->on_gpu) {
        int timed = grade_perf_replay(o, in, run->scratch, br->program, br->ptx, br->cubin, run->replay_runner,
                                      &msg, &p->result, run->error, sizeof run->error);
        fault = timed < 0;
        p->timed = timed > 0;
        measured_set(&p->text, sb_str(&msg));
    } else if (msg.len == 0) {
        int timed = -1;
        if (pt && pt->ready && pt->tail.turn.granted)
            timed = tail_timed(o, run, pt, &msg, &p->result);
        /* not offered, or not let time (a dataset rerun in a later process), or its
         * baseline not of this GPU: the timing program, as alone */
        if (timed == -1)
            timed = time_on_gpu(o, run, in, &msg, &p->result, &fault);
        if (timed == TIMING_FAILED) {
            timed = 0;
            fault = vouch_timing(o, run, &msg) != 0;
        }
        p->timed = timed;
        measured_set(&p->text, sb_str(&msg));
    }
    sb_free(&msg);
    return fault ? -1 : 0;
}
