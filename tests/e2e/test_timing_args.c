/* test_timing_args.c - end to end: the reduction kind's timing program
 * (labs/kinds/reduction/perf.cu) accepts the command line the grader gives
 * it (score/perf.h perf_command: the rubric's time cap, the lab's tolerance),
 * built on the emulator as build_timing_program builds it on a GPU (the
 * student's file, the reference with the timing symbols renamed), and checks
 * its result with the lab's tolerance. (Found on an H100: the grader passed
 * --rtol and --atol, which this program refused, and every dotprod
 * performance test failed.) The matmul timing program links cuBLAS, which
 * the emulator does not have; gpu-build and the GPU runs cover it. Runs from
 * the repository root; a small length keeps it fast on the emulator. */
#include "e2e.h"

#include "course/lab.h"
#include "course/rubric.h"
#include "score/perf.h"

typedef struct {
    char dir[64];
    char program[128];
} timing_t;

/* The timing program of lab, with student as the student's file. */
static timing_t build_timing(const lab_t *lab, const char *student)
{
    timing_t t;
    snprintf(t.dir, sizeof t.dir, "/tmp/cugrade-timing-XXXXXX");
    cr_assert_not_null(mkdtemp(t.dir));
    snprintf(t.program, sizeof t.program, "%s/timing", t.dir);
    char launch[128], timing_o[128], student_o[128], ref_o[128], renames[4][192];
    snprintf(launch, sizeof launch, "-DCUGRADE_LAUNCH=%s", lab->launch);
    snprintf(timing_o, sizeof timing_o, "%s/timing.o", t.dir);
    snprintf(student_o, sizeof student_o, "%s/student.o", t.dir);
    snprintf(ref_o, sizeof ref_o, "%s/reference.o", t.dir);
    const char *timing[] = {"-c", launch, lab->timing_program, "-o", timing_o, NULL};
    emucc_ok(timing);
    const char *own[] = {"-c", student, "-o", student_o, NULL};
    emucc_ok(own);
    const char *ref[12] = {"-c"};
    int n = 1;
    for (int i = 0; i < lab->ntiming_symbols; i++) {
        snprintf(renames[i], sizeof renames[i], "-D%s=cugrade_reference_%s",
                 lab->timing_symbols[i], lab->timing_symbols[i]);
        ref[n++] = renames[i];
    }
    ref[n++] = lab->timing_reference;
    ref[n++] = "-o";
    ref[n++] = ref_o;
    ref[n] = NULL;
    emucc_ok(ref);
    const char *link[] = {timing_o, student_o, ref_o, "-o", t.program, NULL};
    emucc_ok(link);
    return t;
}

/* Runs it with the grader's command line for lab's rubric, the shapes
 * replaced by one small length, at most 2 reps. */
static run_result_t run_as_the_grader_to(const timing_t *t, const lab_t *lab, const char *length,
                                         const char *report)
{
    lab_rubric_t rub;
    char err[512];
    cr_assert_eq(rubric_load("rubric.json", lab->name, &rub, err, sizeof err), 0, "%s", err);
    perf_rule_t rule = rub.performance;
    cr_assert_gt(rule.nshapes, 0, "the rubric times %s", lab->name);
    rule.nshapes = 1;
    snprintf(rule.shapes[0], sizeof rule.shapes[0], "%s", length);
    perf_command_t cmd;
    perf_command(t->program, &rule, lab->tol.rtol, lab->tol.atol, NULL, &cmd);
    char *argv[2 * PERF_MAX_SHAPES + 16];
    int n = 0;
    while (cmd.argv[n]) {
        argv[n] = cmd.argv[n];
        n++;
    }
    const char *few[] = {"--min-reps", "1", "--max-reps", "2"};
    for (int i = 0; i < 4; i++)
        argv[n++] = (char *)few[i];
    argv[n] = NULL;
    run_spec_t spec = {.argv = argv, .cwd = t->dir, .timeout_s = 120, .output_cap = 1 << 20,
                       .report_path = report};
    run_result_t r;
    run_one(&spec, &r);
    rubric_free(&rub);
    return r;
}

static run_result_t run_as_the_grader(const timing_t *t, const lab_t *lab, const char *length)
{
    return run_as_the_grader_to(t, lab, length, NULL);
}

Test(timing_args, the_reduction_timing_program_takes_the_graders_command_line, .timeout = 300)
{
    lab_t lab;
    char err[512];
    cr_assert_eq(lab_load(".", "dotprod", &lab, err, sizeof err), 0, "%s", err);
    timing_t t = build_timing(&lab, "reference/dotprod/dotprod.cu");
    run_result_t r = run_as_the_grader(&t, &lab, "1000");
    cr_assert(r.exited && r.exit_code == 0, "exit %d:\n%s", r.exit_code, r.output);
    perf_result_t p;
    cr_assert_eq(perf_parse(r.output, &p, err, sizeof err), 0, "%s:\n%s", err, r.output);
    cr_expect(strstr(r.output, "impl student median_ms "), "%s", r.output);
    /* the scored time is the first quartile; the emulator has no launch gate */
    const perf_impl_t *st = perf_impl(&p.shapes[0], "student");
    const perf_impl_t *ref = perf_impl(&p.shapes[0], "reference");
    cr_assert(st && ref, "%s", r.output);
    cr_expect_eq(ref->wrong, 0, "the reference is right:\n%s", r.output);
    cr_expect_gt(st->q1_ms, 0, "%s", r.output);
    int ungated = 0;
    for (const char *at = r.output; (at = strstr(at, " gated 0\n")) != NULL; at++)
        ungated++;
    cr_expect_eq(ungated, 2, "both implementations timed without the gate:\n%s", r.output);
    run_result_free(&r);

    char *bad_gate[] = {t.program, "--gate", "maybe", NULL};
    run_spec_t spec = {.argv = bad_gate, .cwd = t.dir, .timeout_s = 60, .output_cap = 1 << 16};
    run_one(&spec, &r);
    cr_expect(r.exited && r.exit_code == 2, "exit %d:\n%s", r.exit_code, r.output);
    cr_expect(strstr(r.output, "cugrade: perf: bad value for --gate (want on or off): maybe"), "%s",
              r.output);
    run_result_free(&r);
    rm_rf(t.dir);
}

/* A wrong student kernel is counted wrong by the re-check, with the lab's
 * tolerance (rtol 0, atol 0 for dotprod: the tree's bound alone). */
Test(timing_args, a_wrong_result_is_counted_not_fatal, .timeout = 300)
{
    lab_t lab;
    char err[512];
    cr_assert_eq(lab_load(".", "dotprod", &lab, err, sizeof err), 0, "%s", err);
    timing_t t = build_timing(&lab, "tests/submissions/dotprod/block0_only.cu");
    run_result_t r = run_as_the_grader(&t, &lab, "1000");
    cr_assert(r.exited && r.exit_code == 0, "exit %d:\n%s", r.exit_code, r.output);
    perf_result_t p;
    cr_assert_eq(perf_parse(r.output, &p, err, sizeof err), 0, "%s:\n%s", err, r.output);
    const perf_impl_t *st = perf_impl(&p.shapes[0], "student");
    const perf_impl_t *ref = perf_impl(&p.shapes[0], "reference");
    cr_assert(st && ref, "%s", r.output);
    cr_expect_gt(st->wrong, 0, "the student's reps are wrong:\n%s", r.output);
    cr_expect_eq(ref->wrong, 0, "the reference's are right:\n%s", r.output);
    run_result_free(&r);
    rm_rf(t.dir);
}

/* tests/attacks/forges_timing.cu prints a result line a thousand times
 * faster than the reference: on stdout it is there, in the report channel
 * the grader reads (perf_parse_file) only the measured one is. */
Test(timing_args, forged_measurements_on_stdout_do_not_count, .timeout = 300)
{
    lab_t lab;
    char err[512], report[128];
    cr_assert_eq(lab_load(".", "dotprod", &lab, err, sizeof err), 0, "%s", err);
    timing_t t = build_timing(&lab, "tests/attacks/forges_timing.cu");
    snprintf(report, sizeof report, "%s.report", t.dir);
    run_result_t r = run_as_the_grader_to(&t, &lab, "1000", report);
    cr_assert(r.exited && r.exit_code == 0, "exit %d:\n%s", r.exit_code, r.output);
    cr_assert(strstr(r.output, "gbs 999999 wrong 0"), "the forged line was printed:\n%s", r.output);
    perf_result_t p;
    cr_assert_eq(perf_parse_file(report, &p, err, sizeof err), 0, "%s", err);
    const perf_impl_t *st = perf_impl(&p.shapes[0], "student");
    cr_assert_not_null(st);
    cr_expect_lt(st->rate, 999999, "the measured rate, not the forged one");
    cr_expect_gt(st->median_ms, 0.000001, "the measured time, not the forged one");
    char *text = read_file(report, NULL, NULL, 0);
    cr_expect_null(strstr(text, "999999"), "%s", text);
    free(text);
    run_result_free(&r);
    unlink(report);
    rm_rf(t.dir);
}
