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
#include "run/runner.h"
#include "score/leaderboard.h"
#include "score/perf.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>

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
    perf_command_t cmd;
    perf_command(br.program, rule, in->lab.tol.rtol, in->lab.tol.atol, &cmd);
    /* sandboxed like every run of the submission's code; its results come
     * on the report channel, which that code cannot write (harness.h) */
    char dir[PATH_MAX - 16], report[PATH_MAX];
    snprintf(dir, sizeof dir, "%.4000s/timing-run", run->scratch);
    snprintf(report, sizeof report, "%s.report", dir);
    mkdir_p(dir, NULL, 0);
    run_spec_t spec = {.argv = cmd.argv, .cwd = dir, .sandboxed = 1, .report_path = report,
                       .timeout_s = rule->nshapes * (rule->time_cap_s + 60)};
    run_result_t rr;
    gpu_slot_t slot;
    t0 = now_seconds();
    grade_gpu_enter(o, GPU_EXCLUSIVE, &slot); /* timed alone: no other kernel on this GPU */
    double held = now_seconds();
    run_one(&spec, &rr);
    gpu_queue_leave(&slot);
    run->phase_s[PHASE_GPU_WAIT] += slot.waited_s;
    run->phase_s[PHASE_GPU_EXCLUSIVE] += now_seconds() - held;
    run->phase_s[PHASE_TIMING] += now_seconds() - t0;
    if (o->gpu_queue && o->gpu_queue[0])
        sb_appendf(msg, "timed alone on GPU %d (waited %.1f s in its timing queue)\n",
                   o->gpu_index, slot.waited_s);
    perf_result_t pr;
    char err[512], why[256];
    double score = 0;
    if (!rr.exited || rr.exit_code != 0) {
        run_describe(&rr, &spec, why, sizeof why);
        sb_appendf(msg, "FAILED: the timing program %s\n%s", why, rr.output ? rr.output : "");
    } else if (perf_parse_file(report, &pr, err, sizeof err) != 0) {
        sb_appendf(msg, "not run: %s\n", err);
    } else {
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
