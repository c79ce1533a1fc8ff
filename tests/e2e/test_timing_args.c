/* test_timing_args.c - end to end: the timing programs of both kinds
 * (labs/kinds/reduction/perf.cu, labs/kinds/matmul/perf.cu) accept the
 * command line the grader gives them (score/perf.h perf_command: the
 * rubric's time cap, the lab's tolerance), built on the emulator as
 * build_timing_program builds them on a GPU (the student's file, the
 * reference and baseline with the timing symbols renamed), and check their
 * results with the lab's tolerance. (Found on an H100: the grader passed
 * --rtol and --atol, which the reduction's refused, and every dotprod
 * performance test failed.) On the emulator the matmul program's "cublas"
 * is a plain FP32 kernel (there is no cuBLAS); gpu-build and the GPU runs
 * cover the real one. Also the attacks on
 * the timing (tests/attacks/): forged result lines, and launch functions
 * that hand back a product kept from an earlier call. Runs from the
 * repository root; small shapes keep it fast on the emulator. */
#include "e2e.h"

#include "course/lab.h"
#include "course/rubric.h"
#include "score/perf.h"

typedef struct {
    char dir[64];
    char program[128];
} timing_t;

/* file compiled to obj with the lab's timing symbols renamed
 * cugrade_<role>_<symbol>, as build_timing_program does. */
static void compile_renamed(const lab_t *lab, const char *role, const char *file, const char *obj)
{
    char renames[4][192];
    const char *args[12] = {"-c"};
    int n = 1;
    for (int i = 0; i < lab->ntiming_symbols; i++) {
        snprintf(renames[i], sizeof renames[i], "-D%s=cugrade_%s_%s", lab->timing_symbols[i],
                 role, lab->timing_symbols[i]);
        args[n++] = renames[i];
    }
    args[n++] = file;
    args[n++] = "-o";
    args[n++] = obj;
    args[n] = NULL;
    emucc_ok(args);
}

/* The timing program of lab, with student as the student's file. */
static timing_t build_timing(const lab_t *lab, const char *student)
{
    timing_t t;
    snprintf(t.dir, sizeof t.dir, "/tmp/cugrade-timing-XXXXXX");
    cr_assert_not_null(mkdtemp(t.dir));
    snprintf(t.program, sizeof t.program, "%s/timing", t.dir);
    char launch[128], timing_o[128], student_o[128], ref_o[128], base_o[128];
    int has_baseline = lab->timing_baseline[0] != '\0';
    snprintf(launch, sizeof launch, "-DCUGRADE_LAUNCH=%s", lab->launch);
    snprintf(timing_o, sizeof timing_o, "%s/timing.o", t.dir);
    snprintf(student_o, sizeof student_o, "%s/student.o", t.dir);
    snprintf(ref_o, sizeof ref_o, "%s/reference.o", t.dir);
    snprintf(base_o, sizeof base_o, "%s/baseline.o", t.dir);
    const char *timing[] = {"-c", launch, lab->timing_program, "-o", timing_o,
                            has_baseline ? "-DCUGRADE_HAS_BASELINE" : NULL, NULL};
    emucc_ok(timing);
    const char *own[] = {"-c", student, "-o", student_o, NULL};
    emucc_ok(own);
    compile_renamed(lab, "reference", lab->timing_reference, ref_o);
    if (has_baseline)
        compile_renamed(lab, "baseline", lab->timing_baseline, base_o);
    const char *link[] = {timing_o, student_o, ref_o, "-o", t.program,
                          has_baseline ? base_o : NULL, NULL};
    emucc_ok(link);
    return t;
}

/* Runs it with the grader's command line for lab's rubric, the shapes
 * replaced by one small length, min_reps to max_reps reps, the
 * implementations impls (NULL: all); its report channel into report (NULL:
 * none). */
static run_result_t run_reps(const timing_t *t, const lab_t *lab, const char *length,
                             const char *report, const char *min_reps, const char *max_reps,
                             const char *impls)
{
    lab_rubric_t rub;
    char err[512];
    cr_assert_eq(rubric_load("rubric.json", lab->name, &rub, err, sizeof err), 0, "%s", err);
    perf_rule_t rule = rub.performance;
    cr_assert_gt(rule.nshapes, 0, "the rubric times %s", lab->name);
    rule.nshapes = 1;
    snprintf(rule.shapes[0], sizeof rule.shapes[0], "%s", length);
    perf_command_t cmd;
    perf_command(t->program, &rule, lab->tol.rtol, lab->tol.atol, impls, &cmd);
    char *argv[2 * PERF_MAX_SHAPES + 16];
    int n = 0;
    while (cmd.argv[n]) {
        argv[n] = cmd.argv[n];
        n++;
    }
    const char *reps[] = {"--min-reps", min_reps, "--max-reps", max_reps};
    for (int i = 0; i < 4; i++)
        argv[n++] = (char *)reps[i];
    argv[n] = NULL;
    run_spec_t spec = {.argv = argv, .cwd = t->dir, .timeout_s = 120, .output_cap = 1 << 20,
                       .report_path = report};
    run_result_t r;
    run_one(&spec, &r);
    rubric_free(&rub);
    return r;
}

/* The same with at most 2 reps. */
static run_result_t run_as_the_grader_to(const timing_t *t, const lab_t *lab, const char *length,
                                         const char *report)
{
    return run_reps(t, lab, length, report, "1", "2", NULL);
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
    for (const char *at = r.output; (at = strstr(at, " gated 0 host_bound 0 ")) != NULL; at++)
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

/* ---- launch functions that hand back a kept product ------------------------ */

/* A timing of lab (shape length, 4 rounds) with student as the student's
 * file: the implementations impls, every one of the lab's when NULL. */
static void time_student(const lab_t *lab, const char *student, const char *impls,
                         const char *length, perf_result_t *p, char *output, size_t outlen)
{
    char err[512];
    timing_t t = build_timing(lab, student);
    run_result_t r = run_reps(&t, lab, length, NULL, "4", "4", impls);
    cr_assert(r.exited && r.exit_code == 0, "exit %d:\n%s", r.exit_code, r.output);
    cr_assert_eq(perf_parse(r.output, p, err, sizeof err), 0, "%s:\n%s", err, r.output);
    snprintf(output, outlen, "%s", r.output);
    run_result_free(&r);
    rm_rf(t.dir);
}

/* tests/attacks/memoizes_product.cu copies the product it kept when called
 * again with the same matrices. The inputs are new every round, so every
 * timed output it copies is wrong, and a wrong timed output scores no
 * performance points; the kernel itself, computing every time
 * (tests/submissions/lab3/tile32.cu), is timed right in every round. */
Test(timing_args, a_kept_product_handed_back_is_a_wrong_timed_output, .timeout = 300)
{
    lab_t lab;
    char err[512], out[1 << 14];
    cr_assert_eq(lab_load(".", "lab3", &lab, err, sizeof err), 0, "%s", err);
    perf_result_t p;
    time_student(&lab, "tests/attacks/memoizes_product.cu", NULL, "40x33x47", &p, out, sizeof out);
    const perf_impl_t *st = perf_impl(&p.shapes[0], "student");
    cr_assert_not_null(st, "%s", out);
    cr_expect_eq(st->reps, 4, "%s", out);
    cr_expect_gt(st->wrong, 0, "the copies are wrong:\n%s", out);
    cr_expect(strstr(out, " wrong_reps 4 "), "every round's copy is wrong:\n%s", out);
    cr_expect_eq(perf_shape_ratio(&p.shapes[0], PERF_VS_REFERENCE), -1,
                 "no speed ratio from a wrong timing:\n%s", out);
    const perf_impl_t *ref = perf_impl(&p.shapes[0], "reference");
    cr_expect(ref && ref->wrong == 0, "the reference beside it is right:\n%s", out);

    time_student(&lab, "tests/submissions/lab3/tile32.cu", NULL, "40x33x47", &p, out, sizeof out);
    st = perf_impl(&p.shapes[0], "student");
    cr_assert_not_null(st, "%s", out);
    cr_expect_eq(st->wrong, 0, "computed every round, right every round:\n%s", out);
    cr_expect_gt(perf_shape_ratio(&p.shapes[0], PERF_VS_REFERENCE), 0, "%s", out);
}

/* tests/attacks/skips_rows_when_repeated.cu computes half of C's rows when
 * called again with the same matrices: the first round's whole output is
 * re-checked, and each later round's in 16 rows drawn after its launches, so
 * a round slips through only if all 16 fall in the computed half (1 in
 * 65536): at least 3 of the 4 rounds are wrong but once in about 10^9. */
Test(timing_args, rows_skipped_in_repeated_calls_are_found, .timeout = 300)
{
    lab_t lab;
    char err[512], out[1 << 14];
    cr_assert_eq(lab_load(".", "lab3", &lab, err, sizeof err), 0, "%s", err);
    perf_result_t p;
    time_student(&lab, "tests/attacks/skips_rows_when_repeated.cu", NULL, "40x33x47", &p, out,
                 sizeof out);
    const perf_impl_t *st = perf_impl(&p.shapes[0], "student");
    cr_assert_not_null(st, "%s", out);
    int wrong_reps = -1;
    const char *at = strstr(out, "impl student ");
    cr_assert(at && (at = strstr(at, " wrong_reps ")) &&
                  sscanf(at, " wrong_reps %d", &wrong_reps) == 1,
              "%s", out);
    cr_expect_geq(wrong_reps, 3, "%s", out);
    cr_expect_eq(perf_shape_ratio(&p.shapes[0], PERF_VS_REFERENCE), -1, "%s", out);
}

/* tests/attacks/memoizes_dot_product.cu copies the partial sums it kept when
 * called again with the same vectors: each round's vectors are new and its
 * sum is checked against their exact dot product, so every copied sum is
 * wrong; the reference beside it, computing every round, never is. */
Test(timing_args, kept_partial_sums_handed_back_are_wrong_timed_results, .timeout = 300)
{
    lab_t lab;
    char err[512], out[1 << 14];
    cr_assert_eq(lab_load(".", "dotprod", &lab, err, sizeof err), 0, "%s", err);
    perf_result_t p;
    time_student(&lab, "tests/attacks/memoizes_dot_product.cu", NULL, "1000", &p, out, sizeof out);
    const perf_impl_t *st = perf_impl(&p.shapes[0], "student");
    const perf_impl_t *ref = perf_impl(&p.shapes[0], "reference");
    cr_assert(st && ref, "%s", out);
    cr_expect_eq(st->reps, 4, "%s", out);
    cr_expect_eq(st->wrong, 4, "every round's copied sum is wrong:\n%s", out);
    cr_expect_eq(ref->wrong, 0, "%s", out);
    cr_expect_eq(perf_shape_ratio(&p.shapes[0], PERF_VS_REFERENCE), -1, "%s", out);
}

/* tests/attacks/overwrites_inputs.cu zeroes A (which it is given) and C from
 * its fourth call on: read as the kernel left them, the inputs would vouch
 * for C = 0. Each round's inputs are made again before the re-check, so the
 * three zeroed rounds are wrong and the first, computed, is right. Timed
 * alone, as a batch times a submission (the implementations after it in a
 * round would make the inputs again before the re-check anyway); then beside
 * the others, each of which has the round's inputs made again for it. */
Test(timing_args, inputs_a_kernel_overwrote_do_not_vouch_for_its_output, .timeout = 300)
{
    lab_t lab;
    char err[512], out[1 << 14];
    cr_assert_eq(lab_load(".", "lab3", &lab, err, sizeof err), 0, "%s", err);
    perf_result_t p;
    time_student(&lab, "tests/attacks/overwrites_inputs.cu", "student", "40x33x47",
                 &p, out, sizeof out);
    const perf_impl_t *st = perf_impl(&p.shapes[0], "student");
    cr_assert_not_null(st, "%s", out);
    const char *at = strstr(out, "impl student ");
    cr_assert(at && strstr(at, " wrong_reps 3 "), "the three zeroed rounds are wrong:\n%s", out);
    time_student(&lab, "tests/attacks/overwrites_inputs.cu", NULL, "40x33x47", &p, out,
                 sizeof out);
    at = strstr(out, "impl student ");
    cr_assert(at && strstr(at, " wrong_reps 3 "), "%s", out);
    const perf_impl_t *ref = perf_impl(&p.shapes[0], "reference");
    cr_expect(ref && ref->wrong == 0,
              "the reference, after it in each round, has the round's inputs made again:\n%s",
              out);
}
