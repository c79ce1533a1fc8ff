/* grade_perf.c - the performance test of a grading (grade_perf.h): the
 * lab's timing program built (build_timing.c) and run alone on the GPU in
 * the sandbox, its report channel parsed and scored (score/perf.h), and the
 * timings recorded in extra_data for the class page and the leaderboard:
 *
 *   "perf_ratio": 0.91,                  the scored ratio (geometric mean)
 *   "perf_relative_to": "cublas",        what it is relative to (rubric.json)
 *   "performance_shapes" and Gradescope's "leaderboard" (score/leaderboard.h). */
#include "pipeline/grade_perf.h"
#include "build/build.h"
#include "kinds/kind.h"
#include "pipeline/canary.h"
#include "pipeline/perf_baseline.h"
#include "run/gpu_turn.h"
#include "run/runner.h"
#include "score/leaderboard.h"
#include "score/perf.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define COMPILE_TIMEOUT_S 180.0
#define NOT_COMPILED_MSG "not run: does not compile"
#define RULE_CONSEQUENCE                                                                        \
    "A submission that breaks a rule of the lab is graded for correctness as usual and scores " \
    "0 on performance; the lab's handout says what the rule allows."

/* The device and the timings, for results.json's extra_data. */
static void record_timing(grade_t *g, const perf_result_t *pr, const perf_rule_t *rule,
                          const lab_t *lab)
{
    grade_set_extra_text(g, "device", pr->device);
    grade_set_extra_number(g, "sm_clock_mhz", pr->sm_clock_mhz);
    grade_set_extra_number(g, "driver_version", pr->driver_version);
    grade_set_extra_number(g, "cuda_runtime_version", pr->runtime_version);
    grade_set_extra_number(g, "perf_ratio", perf_speed_ratio(pr, rule->relative_to));
    grade_set_extra_text(g, "perf_relative_to", perf_relative_name(rule->relative_to));
    leaderboard_record(g, pr, lab->kind->rate_unit); /* performance_shapes, leaderboard */
}

void grade_gpu_enter(const grade_opts_t *o, gpu_use_t use, gpu_slot_t *slot)
{
    char err[512];
    if (gpu_queue_enter(o->gpu_queue, o->gpu_index, use, slot, err, sizeof err) != 0)
        fprintf(stderr, "cugrade: %s (going on without the GPU queue)\n", err);
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
    run->phase_s[PHASE_TIMING] += now_seconds() - t0;
}

/* Runs the lab's timing program on the GPU; fills msg, returns the score. */
static double time_on_gpu(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                          strbuf_t *msg, int *ok, int *fault)
{
    const perf_rule_t *rule = &in->rub.performance;
    build_ctx_t ctx = {.root = o->root, .backend = BACKEND_GPU, .lab = &in->lab,
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
    char when[64] = "", report[PATH_MAX], err[512], why[256];
    int use_base = baseline_of(o, &base, when, sizeof when, msg);
    snprintf(report, sizeof report, "%.4000s/timing-run.report", run->scratch);
    perf_command_t cmd;
    run_result_t rr;
    run_spec_t spec;
    gpu_turn_stats_t st;
    run_timing(o, run, in, br.program, use_base, report, &cmd, &rr, &spec, &st);
    if (o->gpu_queue && o->gpu_queue[0])
        sb_appendf(msg, "timed alone on GPU %d for %.2f s (waited %.1f s in its timing queue)\n",
                   o->gpu_index, st.exclusive_s, st.waited_s);
    perf_result_t pr;
    double score = 0;
    if (!rr.exited || rr.exit_code != 0) {
        run_describe(&rr, &spec, why, sizeof why);
        sb_appendf(msg, "FAILED: the timing program %s\n%s", why, rr.output ? rr.output : "");
    } else if (perf_parse_file(report, &pr, err, sizeof err) != 0) {
        sb_appendf(msg, "not run: %s\n", err);
    } else if (use_base && perf_merge_baseline(&pr, &base, err, sizeof err) != 0) {
        /* the batch's grader fault, never the student's zero */
        *fault = 1;
        snprintf(run->error, sizeof run->error, "the batch's baseline timing %s: %s",
                 o->perf_baseline, err);
    } else {
        if (use_base)
            sb_appendf(msg, "the reference and cuBLAS: the batch's baseline timing of this GPU "
                            "(%s)\n", when);
        score = perf_score(rule, &pr, &in->lab, msg, ok);
        record_timing(&run->grade, &pr, rule, &in->lab);
    }
    run_result_free(&rr);
    build_result_free(&br);
    return score;
}

/* Why the test is not timed, into msg (empty when it is): 1 when that is a
 * failure even where the test is worth nothing (a broken rule). */
static int not_timed(const grade_run_t *run, const grading_inputs_t *in, int compiled,
                     strbuf_t *msg)
{
    const perf_rule_t *rule = &in->rub.performance;
    if (run->rule_broken[0]) {
        sb_appendf(msg, "FAILED: %s\n%s\n", run->rule_broken, RULE_CONSEQUENCE);
        return 1;
    }
    if (!compiled)
        sb_append(msg, NOT_COMPILED_MSG "\n");
    else if (run->backend != BACKEND_GPU)
        sb_appendf(msg, "not scored on the emu backend (0 of 0; %g points on a GPU): the CPU "
                        "emulator's times are not GPU times, so speed is graded on a GPU only\n",
                   rule->points);
    else if (!in->lab.has_timing)
        sb_append(msg, "not run: the lab has no timing program (lab.json \"timing\")\n");
    else if (run->datasets_passed < run->datasets_total || run->hidden_passed < run->hidden_total)
        sb_appendf(msg, "not scored: the output must be right on every dataset first (%d of %d "
                        "pass, and %d of %d hidden ones)\n", run->datasets_passed,
                   run->datasets_total, run->hidden_passed, run->hidden_total);
    return 0;
}

int grade_performance_test(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                           int compiled)
{
    const perf_rule_t *rule = &in->rub.performance;
    if (!rule->present)
        return 0;
    strbuf_t msg = {0};
    double score = 0, max = rule->points;
    int ok = 0, fault = 0;
    if (run->backend != BACKEND_GPU)
        max = 0; /* not part of the total where it cannot be earned: full marks stay possible */
    int failed = not_timed(run, in, compiled, &msg);
    if (msg.len == 0)
        score = time_on_gpu(o, run, in, &msg, &ok, &fault);
    /* where it cannot be earned it is 0 of 0 and, for Gradescope, not a failure (unless a
     * rule is broken, which the student must see) */
    int passed = !failed && (max == 0 || ok || score >= max);
    grade_add_test(&run->grade, "performance", score, max, passed, rule->visibility, sb_str(&msg));
    sb_free(&msg);
    return fault ? -1 : 0;
}
