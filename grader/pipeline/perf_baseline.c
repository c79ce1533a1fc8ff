/* perf_baseline.c - a batch's baseline timing (perf_baseline.h): the lab's
 * reference built as if it were a submission, linked into the lab's timing
 * program, run sandboxed with --impl reference,naive,cublas on one GPU, its
 * timed part alone on it (run/gpu_turn.h), and the report kept. The same
 * program, one round of the reference alone, tells whether a submission's
 * failed timing is the submission's (perf_reference_times). */
#include "pipeline/perf_baseline.h"
#include "build/build.h"
#include "pipeline/canary.h"
#include "pipeline/grade_inputs.h"
#include "run/gpu_turn.h"
#include "run/runner.h"
#include "util/tmpdir.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define COMPILE_TIMEOUT_S 180.0

int perf_baseline_wanted(const grade_opts_t *o)
{
    grading_inputs_t in;
    char err[512];
    if (load_inputs(o, &in, err, sizeof err) != 0)
        return 0;
    int wanted = in.rub.performance.present && in.rub.performance.points > 0 && in.lab.has_timing;
    free_inputs(&in);
    return wanted;
}

/* Builds the reference and the timing program around it in scratch. */
static int build_reference_timing(const grade_opts_t *o, const grading_inputs_t *in,
                                  const char *scratch, build_result_t *br, char *err,
                                  size_t errlen)
{
    char ref[PATH_MAX + 64];
    snprintf(ref, sizeof ref, "%s/reference/%s/%s", o->root, in->lab.name, in->lab.student_file);
    build_ctx_t ctx = {.root = o->root, .backend = BACKEND_NATIVE, .lab = &in->lab,
                       .scratch = scratch, .timeout_s = COMPILE_TIMEOUT_S};
    build_submission(&ctx, ref, br);
    if (!br->ok) {
        fault_of_build(br, "the lab's reference, for the batch's baseline timing", err, errlen);
        return -1;
    }
    build_result_free(br);
    if (build_timing_program(&ctx, br) != 0) {
        fault_of_build(br, "the lab's timing program, for the batch's baseline timing", err,
                       errlen);
        return -1;
    }
    return 0;
}

static __thread const char *visible_gpu; /* perf_baseline_set_visible: per worker thread */

void perf_baseline_set_visible(const char *visible) { visible_gpu = visible; }

/* How the reference's timing runs: the batch's baseline (every
 * implementation but the student's, the rubric's rule, shown the GPU whose
 * queue it joins) or a check that it runs at all (the reference alone, one
 * round, in this process's view of the GPU). */
typedef enum { TIMING_BASELINE, TIMING_CHECK } reference_timing_t;

/* Runs it; the report goes to report (the run's report channel). */
static int run_reference_timing(const grade_opts_t *o, const grading_inputs_t *in,
                                const char *program, const char *scratch, const char *report,
                                reference_timing_t how, char *err, size_t errlen)
{
    const perf_rule_t *rule = &in->rub.performance;
    perf_command_t cmd;
    const char *impls = how == TIMING_CHECK            ? "reference"
                        : in->lab.timing_baseline[0] ? "reference,naive,cublas"
                                                     : "reference,cublas";
    perf_command(program, rule, in->lab.tol.rtol, in->lab.tol.atol, impls, &cmd);
    char *argv[sizeof cmd.argv / sizeof cmd.argv[0] + 4];
    int n = 0;
    while (cmd.argv[n]) {
        argv[n] = cmd.argv[n];
        n++;
    }
    if (how == TIMING_CHECK) {
        char *one_round[] = {"--min-reps", "1", "--max-reps", "1"};
        for (int i = 0; i < 4; i++)
            argv[n++] = one_round[i];
    }
    argv[n] = NULL;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%.4000s/timing-run", scratch);
    mkdir_p(dir, NULL, 0);
    char visible[192];
    if (visible_gpu)
        snprintf(visible, sizeof visible, "CUDA_VISIBLE_DEVICES=%s", visible_gpu);
    else
        snprintf(visible, sizeof visible, "CUDA_VISIBLE_DEVICES=%d", o->gpu_index);
    char *env[] = {visible, NULL}; /* the GPU whose queue it joins, as a batch's children */
    int shown = how == TIMING_BASELINE && o->gpu_queue && o->gpu_queue[0];
    run_spec_t spec = {.argv = argv, .cwd = dir, .sandboxed = 1, .report_path = report,
                       .timeout_s = rule->nshapes * (rule->time_cap_s + 60),
                       .extra_env = shown ? env : NULL};
    run_result_t rr;
    gpu_turn_stats_t st;
    gpu_turn_run(o->gpu_queue, o->gpu_index, &spec, &rr, &st);
    int rc = 0;
    if (!rr.exited || rr.exit_code != 0) {
        char why[256];
        run_describe(&rr, &spec, why, sizeof why);
        rc = fail(err, errlen, "the %s of the lab's reference on GPU %d %s: %.2000s",
                  how == TIMING_CHECK ? "timing" : "baseline timing", o->gpu_index, why,
                  rr.output ? rr.output : "");
    }
    run_result_free(&rr);
    return rc;
}

/* The baseline file: its two lines, then the report. */
static int keep_report(const char *report, int gpu, const char *out_path, char *err,
                       size_t errlen)
{
    char why[512];
    char *text = read_file(report, NULL, why, sizeof why);
    if (!text)
        return fail(err, errlen, "the baseline timing wrote no report: %s", why);
    strbuf_t sb = {0};
    sb_appendf(&sb, "baseline_gpu %d\nbaseline_at %.3f\n%s", gpu, (double)time(NULL), text);
    int rc = write_file_atomic(out_path, sb_str(&sb), sb.len, err, errlen);
    sb_free(&sb);
    free(text);
    return rc;
}

/* The reference's timing program built and run (how) in a scratch folder of
 * its own; with out_path, its report kept there as the baseline file and read
 * back into result. 0, or -1 (err). */
static int time_reference(const grade_opts_t *o, reference_timing_t how, const char *out_path,
                          perf_result_t *result, char *err, size_t errlen)
{
    grading_inputs_t in;
    if (load_inputs(o, &in, err, errlen) != 0)
        return -1;
    char scratch[PATH_MAX];
    if (tmp_dir_make("baseline-", scratch, sizeof scratch, err, errlen) != 0) {
        free_inputs(&in);
        return -1;
    }
    char report[PATH_MAX + 16];
    snprintf(report, sizeof report, "%s.report", scratch);
    build_result_t br = {0};
    int rc = build_reference_timing(o, &in, scratch, &br, err, errlen);
    if (rc == 0)
        rc = run_reference_timing(o, &in, br.program, scratch, report, how, err, errlen);
    if (rc == 0 && out_path)
        rc = keep_report(report, o->gpu_index, out_path, err, errlen);
    if (rc == 0 && out_path) {
        int gpu;
        double at;
        rc = perf_baseline_read(out_path, result, &gpu, &at, err, errlen);
    }
    build_result_free(&br);
    rm_rf(scratch);
    unlink(report);
    free_inputs(&in);
    return rc;
}

int perf_baseline_time(const grade_opts_t *o, const char *out_path, perf_result_t *result,
                       char *err, size_t errlen)
{
    return time_reference(o, TIMING_BASELINE, out_path, result, err, errlen);
}

int perf_reference_times(const grade_opts_t *o, char *err, size_t errlen)
{
    return time_reference(o, TIMING_CHECK, NULL, NULL, err, errlen);
}

int perf_baseline_read(const char *path, perf_result_t *result, int *gpu, double *at, char *err,
                       size_t errlen)
{
    char why[512];
    char *text = read_file(path, NULL, why, sizeof why);
    if (!text) {
        memset(result, 0, sizeof *result);
        return fail(err, errlen, "%s: %s", path, why);
    }
    *gpu = -1;
    *at = 0;
    if (sscanf(text, "baseline_gpu %d\nbaseline_at %lf", gpu, at) != 2) {
        free(text);
        memset(result, 0, sizeof *result);
        return fail(err, errlen, "%s: not a baseline file (no baseline_gpu and baseline_at lines)",
                    path);
    }
    int rc = perf_parse(text, result, err, errlen);
    free(text);
    return rc;
}
