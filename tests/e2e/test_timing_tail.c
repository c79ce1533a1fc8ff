/* test_timing_tail.c - end to end: the list mode's timing tail
 * (labs/common/harness.h, driver --each LIST --time ARG...; run/ds_run.h),
 * with the real harness and the reduction kind's timing program linked into
 * a timed driver on the emulator, as build_timed_driver links it for a GPU,
 * run on dotprod's datasets by runs_execute as a GPU grading runs them
 * (grouped, its turns asked for; no queue, so every turn is given at once).
 * The matmul timing program links cuBLAS, which the emulator does not have;
 * the GPU runs cover it. Runs from the repository root. */
#include "e2e.h"

#include "build/harness_flags.h"
#include "compare/verdict.h"
#include "course/lab.h"
#include "course/rubric.h"
#include "run/runs.h"
#include "score/perf.h"

#define FIRST 2 /* datasets/dotprod/2..4: lengths 256, 257, 1000 (one block, and more) */
#define NDS 3   /* datasets run: enough for a list, few for the emulator */

typedef struct {
    char dir[64];
    char program[128];
    char report[160];
    lab_t lab;
    lab_rubric_t rub;
    dataset_ref_t *refs;
    ds_job_t *jobs;
    perf_command_t cmd;
    char *args[2 * PERF_MAX_SHAPES + 16];
} tail_case_t;

/* obj from src with the lab's harness flags and the extra ones. */
static void compile_with_flags(const lab_t *lab, const char *src, const char *obj,
                               const char *const *extra)
{
    char flags[HARNESS_MAX_FLAGS][HARNESS_FLAG_LEN];
    int nflags = harness_flags(lab, flags);
    const char *args[32] = {"-c"};
    int n = 1;
    for (int i = 0; i < nflags; i++)
        args[n++] = flags[i];
    for (int i = 0; extra && extra[i]; i++)
        args[n++] = extra[i];
    args[n++] = src;
    args[n++] = "-o";
    args[n++] = obj;
    args[n] = NULL;
    emucc_ok(args);
}

/* The timed driver of dotprod with student as the student's file, NDS of
 * its datasets loaded, and the grader's timing arguments (the
 * rubric's, one small length, at most 2 reps). */
static void set_up(tail_case_t *c, const char *student)
{
    memset(c, 0, sizeof *c);
    setenv("CUGRADE_SANDBOX", "none", 1); /* the program lives in the test's folder */
    char err[512];
    cr_assert_eq(lab_load(".", "dotprod", &c->lab, err, sizeof err), 0, "%s", err);
    cr_assert_eq(rubric_load("rubric.json", "dotprod", &c->rub, err, sizeof err), 0, "%s", err);
    snprintf(c->dir, sizeof c->dir, "/tmp/cugrade-tail-XXXXXX");
    cr_assert_not_null(mkdtemp(c->dir));
    char driver_o[128], perf_o[128], student_o[128], ref_o[128], renames[4][192];
    snprintf(driver_o, sizeof driver_o, "%s/driver.o", c->dir);
    snprintf(perf_o, sizeof perf_o, "%s/perf.o", c->dir);
    snprintf(student_o, sizeof student_o, "%s/student.o", c->dir);
    snprintf(ref_o, sizeof ref_o, "%s/reference.o", c->dir);
    snprintf(c->program, sizeof c->program, "%s/program-timed", c->dir);
    snprintf(c->report, sizeof c->report, "%s/tail.report", c->dir);
    const char *tail[] = {"-DCUGRADE_TIMING_TAIL", NULL};
    compile_with_flags(&c->lab, c->lab.driver_path, driver_o, tail);
    const char *entry[] = {"-DCUGRADE_TIMING_ENTRY=cugrade_timing_main", NULL};
    compile_with_flags(&c->lab, c->lab.timing_program, perf_o, entry);
    compile_with_flags(&c->lab, student, student_o, NULL);
    const char *ref[8];
    for (int i = 0; i < c->lab.ntiming_symbols; i++) {
        snprintf(renames[i], sizeof renames[i], "-D%s=cugrade_reference_%s",
                 c->lab.timing_symbols[i], c->lab.timing_symbols[i]);
        ref[i] = renames[i];
    }
    ref[c->lab.ntiming_symbols] = NULL;
    compile_with_flags(&c->lab, c->lab.timing_reference, ref_o, ref);
    const char *link[] = {driver_o, perf_o, student_o, ref_o, "-o", c->program, NULL};
    emucc_ok(link);

    int n = 0;
    cr_assert_eq(dataset_list("datasets/dotprod", &c->refs, &n, err, sizeof err), 0, "%s", err);
    cr_assert_geq(n, FIRST + NDS);
    c->jobs = jobs_load(c->refs + FIRST, NDS, &c->lab, &c->rub);

    perf_rule_t rule = c->rub.performance;
    rule.nshapes = 1;
    snprintf(rule.shapes[0], sizeof rule.shapes[0], "1000");
    perf_command(c->program, &rule, c->lab.tol.rtol, c->lab.tol.atol, NULL, &c->cmd);
    int a = 0;
    for (; c->cmd.argv[a + 1]; a++)
        c->args[a] = c->cmd.argv[a + 1];
    const char *few[] = {"--min-reps", "1", "--max-reps", "2"};
    for (int i = 0; i < 4; i++)
        c->args[a++] = (char *)few[i];
    c->args[a] = NULL;
}

/* Frees the case, its runs and the tail's ending. */
static void tear_down(tail_case_t *c, ds_run_t *runs, run_tail_t *tail)
{
    runs_free(runs, NDS);
    run_result_free(&tail->proc);
    jobs_free(c->jobs, NDS);
    free(c->refs);
    rubric_free(&c->rub);
    rm_rf(c->dir);
}

/* The judge: a count of its calls, and either the grader's (every output
 * right) or a fixed answer. */
typedef struct {
    const lab_t *lab;
    int calls;
    int answer; /* -1: the outputs decide */
} judge_t;

static int judge(void *ctx, const ds_run_t *runs)
{
    judge_t *j = ctx;
    j->calls++;
    if (j->answer >= 0)
        return j->answer;
    for (int i = 0; i < NDS; i++)
        if (!runs[i].started || !verdict_output_passes(&runs[i], j->lab))
            return 0;
    return 1;
}

/* Runs the datasets as a GPU grading does, offering the tail. */
static ds_run_t *run_with_tail(tail_case_t *c, judge_t *j, run_tail_t *tail)
{
    runs_how_t how = {.lab = &c->lab, .program = c->program, .scratch = c->dir, .prefix = "run",
                      .max_parallel = 1, .grouped = 1, .on_gpu = 1, .tail_args = c->args,
                      .tail_limit_s = 120, .tail_report = c->report, .tail_judge = judge,
                      .tail_ctx = j, .tail = tail};
    return runs_execute(c->jobs, NDS, &how);
}

/* No line of the tail's in what the datasets keep: their own output and
 * their report channel files. */
static void expect_datasets_clean(const ds_run_t *runs)
{
    for (int i = 0; i < NDS; i++) {
        cr_expect(runs[i].result.exited && runs[i].result.exit_code == 0, "dataset %d: %s", i,
                  runs[i].result.output);
        cr_expect_null(strstr(runs[i].result.output ? runs[i].result.output : "", "impl "),
                       "dataset %d's output:\n%s", i, runs[i].result.output);
        char *diag = read_file(runs[i].diag_path, NULL, NULL, 0);
        cr_expect_null(strstr(diag ? diag : "", "impl "), "dataset %d's report:\n%s", i, diag);
        free(diag);
    }
}

/* Right outputs: the judge lets it time; the timing's results come on its
 * report channel, after the datasets', which keep theirs. */
Test(timing_tail, right_outputs_are_timed_in_the_same_process, .timeout = 300)
{
    tail_case_t c;
    set_up(&c, "reference/dotprod/dotprod.cu");
    judge_t j = {&c.lab, 0, -1};
    run_tail_t tail;
    ds_run_t *runs = run_with_tail(&c, &j, &tail);
    cr_expect_eq(j.calls, 1);
    cr_expect(tail.offered && tail.turn.asked && tail.turn.granted);
    cr_expect(tail.proc.exited && tail.proc.exit_code == 0, "exit %d:\n%s", tail.proc.exit_code,
              tail.proc.output);
    cr_expect_gt(tail.turn.tail_s, 0);
    cr_expect_not_null(strstr(tail.proc.output ? tail.proc.output : "", "impl student"),
                       "the tail's output:\n%s", tail.proc.output);
    perf_result_t p;
    char err[512];
    cr_expect_eq(perf_parse_file(c.report, &p, err, sizeof err), 0, "%s", err);
    char *report = read_file(c.report, NULL, NULL, 0);
    cr_expect_not_null(strstr(report ? report : "", "impl student median_ms "), "%s", report);
    cr_expect_null(strstr(report ? report : "", "cugrade-dataset-"), "%s", report);
    free(report);
    expect_datasets_clean(runs);
    for (int i = 0; i < NDS; i++)
        cr_expect(verdict_output_passes(&runs[i], &c.lab), "dataset %d", i);
    tear_down(&c, runs, &tail);
}

/* Wrong outputs: the judge says no, and the process ends without timing. */
Test(timing_tail, wrong_outputs_are_not_timed, .timeout = 300)
{
    tail_case_t c;
    set_up(&c, "tests/submissions/dotprod/block0_only.cu");
    judge_t j = {&c.lab, 0, -1};
    run_tail_t tail;
    ds_run_t *runs = run_with_tail(&c, &j, &tail);
    cr_expect_eq(j.calls, 1);
    cr_expect(tail.offered && tail.turn.asked && !tail.turn.granted);
    cr_expect(tail.proc.exited && tail.proc.exit_code == 0, "exit %d", tail.proc.exit_code);
    cr_expect_not(is_file(c.report), "no timing report without a timing");
    int wrong = 0;
    for (int i = 0; i < NDS; i++)
        wrong += !verdict_output_passes(&runs[i], &c.lab);
    cr_expect_gt(wrong, 0, "block0_only is wrong past the first block");
    expect_datasets_clean(runs);
    tear_down(&c, runs, &tail);
}

/* Whatever the judge would say, a dataset that did not end with status 0
 * (here the launch broke the lab's contract, status 4, which ends the
 * process) means no "T" and no judge. */
Test(timing_tail, a_failed_dataset_is_never_judged, .timeout = 300)
{
    tail_case_t c;
    set_up(&c, "tests/submissions/dotprod/returns_zero.cu");
    judge_t j = {&c.lab, 0, 1};
    run_tail_t tail;
    ds_run_t *runs = run_with_tail(&c, &j, &tail);
    cr_expect_eq(j.calls, 0);
    cr_expect(tail.offered && !tail.turn.asked && !tail.turn.granted);
    for (int i = 0; i < NDS; i++)
        cr_expect(runs[i].result.exited && runs[i].result.exit_code == 4, "dataset %d: exit %d",
                  i, runs[i].result.exit_code);
    tear_down(&c, runs, &tail);
}
