/* test_perf.c - the performance test without a GPU: the timing program's
 * output is parsed and scored on the rubric's linear scale (geometric mean
 * of the speed relative to the reference, or to cuBLAS with "relative_to",
 * over the shapes, also kept as a number for the class report); wrong timed
 * outputs and missing timings earn nothing and have no ratio. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "course/lab.h"
#include "kinds/matmul.h"
#include "score/perf.h"

#define DEVICE                                                                                     \
    "device NVIDIA H200\nsm_clock_mhz 1980\nbandwidth_gbs 4800\nl2_bytes 62914560\nsms 132\n"     \
    "driver_version 13000\nruntime_version 13000\n"

static perf_rule_t rule(void)
{
    perf_rule_t r;
    memset(&r, 0, sizeof r);
    r.present = 1;
    r.points = 10;
    r.zero_at = 0.5;
    r.full_at = 0.9;
    return r;
}

static double score_of(const char *text, strbuf_t *out, int *ok)
{
    perf_result_t res;
    char err[256] = "";
    cr_assert_eq(perf_parse(text, &res, err, sizeof err), 0, "%s", err);
    perf_rule_t r = rule();
    lab_t lab = {.tile_width = 16, .kind = &kind_matmul};
    return perf_score(&r, &res, &lab, NULL, out, ok);
}

Test(perf, parses_device_and_every_implementation)
{
    perf_result_t r;
    char err[256];
    cr_assert_eq(perf_parse(DEVICE "shape 4096x4096x4096\n"
                                   "impl student median_ms 16.9 mean_ms 17.0 rse 0.004 reps 30 gflops 8130 wrong 0\n"
                                   "impl cublas median_ms 2.67 mean_ms 2.7 rse 0.002 reps 30 gflops 51400 wrong 0\n",
                            &r, err, sizeof err),
                 0, "%s", err);
    cr_assert_str_eq(r.device, "NVIDIA H200");
    cr_assert_float_eq(r.bandwidth_gbs, 4800, 1e-9);
    cr_assert_eq(r.driver_version, 13000);
    cr_assert_eq(r.nshapes, 1);
    cr_assert_str_eq(r.shapes[0].shape, "4096x4096x4096");
    cr_assert_eq(r.shapes[0].nimpls, 2);
    const perf_impl_t *st = perf_impl(&r.shapes[0], "student");
    cr_assert_not_null(st);
    cr_assert_float_eq(st->rate, 8130, 1e-9);
    cr_assert_eq(st->reps, 30);
    cr_assert_null(perf_impl(&r.shapes[0], "naive"));
}

Test(perf, malformed_output_is_an_error)
{
    perf_result_t r;
    char err[256];
    cr_assert_eq(perf_parse(DEVICE, &r, err, sizeof err), -1);
    cr_assert_str_eq(err, "the timing program printed no results");
    cr_assert_eq(perf_parse("shape 8x8x8\nimpl student median_ms x\n", &r, err, sizeof err), -1);
    cr_assert_str_eq(err, "timing output line 2: malformed: impl student median_ms x");
}

Test(perf, reference_speed_earns_full_points_and_the_report_has_every_number)
{
    strbuf_t out = {0};
    int ok;
    double s = score_of(DEVICE "shape 4096x4096x4096\n"
                               "impl student median_ms 16.9 mean_ms 17.0 rse 0.004 reps 30 gflops 8130 wrong 0\n"
                               "impl reference median_ms 16.9 mean_ms 17.0 rse 0.004 reps 30 gflops 8130 wrong 0\n"
                               "impl naive median_ms 25.4 mean_ms 25.5 rse 0.003 reps 30 gflops 5400 wrong 0\n"
                               "impl cublas median_ms 2.67 mean_ms 2.7 rse 0.002 reps 30 gflops 51400 wrong 0\n",
                        &out, &ok);
    cr_assert_float_eq(s, 10, 1e-9);
    cr_assert(ok);
    const char *t = sb_str(&out);
    cr_assert(strstr(t, "4096x4096x4096: 8130 GFLOP/s (median of 30, rse 0.40%), 1.00x the reference"), "%s", t);
    cr_assert(strstr(t, "0.16x cuBLAS FP32 (51400 GFLOP/s)"), "%s", t);
    cr_assert(strstr(t, "1.51x the untiled kernel"), "%s", t);
    cr_assert(strstr(t, "bandwidth-bound ceiling of a kernel with 16x16 tiles in shared memory: 19200 GFLOP/s"), "%s", t);
    sb_free(&out);
}

/* A timing program that reports the first quartile (q1_ms) computes its
 * rate from it: the report says so; without q1_ms (stored timings of an
 * older grader) the rate is the median's and the report says that. */
Test(perf, the_report_names_the_statistic_the_rate_is_from)
{
    perf_result_t r;
    char err[256];
    cr_assert_eq(perf_parse(DEVICE "shape 8x8x8\n"
                                   "impl student median_ms 2 mean_ms 2 rse 0.004 reps 12 gflops 5 wrong 0 "
                                   "wrong_reps 0 min_ms 1.9 max_ms 2.6 q1_ms 1.95 gated 1\n"
                                   "impl reference median_ms 2 mean_ms 2 rse 0.004 reps 12 gflops 5 wrong 0\n",
                            &r, err, sizeof err),
                 0, "%s", err);
    cr_assert_float_eq(r.shapes[0].impls[0].q1_ms, 1.95, 1e-12);
    cr_assert_float_eq(r.shapes[0].impls[1].q1_ms, 0, 1e-12);
    strbuf_t out = {0};
    int ok;
    score_of(DEVICE "shape 8x8x8\n"
                    "impl student median_ms 2 mean_ms 2 rse 0.004 reps 12 gflops 5 wrong 0 q1_ms 1.95\n"
                    "impl reference median_ms 2 mean_ms 2 rse 0.004 reps 12 gflops 5 wrong 0 q1_ms 1.95\n",
             &out, &ok);
    cr_assert(strstr(sb_str(&out), "8x8x8: 5 GFLOP/s (first quartile of 12, rse 0.40%)"), "%s",
              sb_str(&out));
    sb_free(&out);
    cr_assert_eq(perf_parse("shape 8x8x8\nimpl student median_ms 2 mean_ms 2 rse 0 reps 12 gflops 5 "
                            "wrong 0 q1_ms x\n",
                            &r, err, sizeof err),
                 -1);
    cr_assert(strstr(err, "timing output line 2: malformed"), "%s", err);
}

Test(perf, linear_scale_on_the_geometric_mean_over_shapes)
{
    strbuf_t out = {0};
    int ok;
    /* 0.64 and 0.81 of the reference: geometric mean 0.72 -> (0.72-0.5)/0.4 = 55% */
    double s = score_of(DEVICE "shape 4096x4096x4096\n"
                               "impl student median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 640 wrong 0\n"
                               "impl reference median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 1000 wrong 0\n"
                               "shape 3001x2999x3003\n"
                               "impl student median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 810 wrong 0\n"
                               "impl reference median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 1000 wrong 0\n",
                        &out, &ok);
    cr_assert_float_eq(s, 5.5, 1e-9, "%s", sb_str(&out));
    cr_assert(!ok);
    sb_free(&out);
    s = score_of(DEVICE "shape 8x8x8\n"
                        "impl student median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 400 wrong 0\n"
                        "impl reference median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 1000 wrong 0\n",
                 &out, &ok);
    cr_assert_float_eq(s, 0, 1e-9, "below zero_at: nothing");
    sb_free(&out);
}

Test(perf, wrong_timed_output_earns_nothing)
{
    strbuf_t out = {0};
    int ok;
    double s = score_of(DEVICE "shape 4096x4096x4096\n"
                               "impl student median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 9000 wrong 17\n"
                               "impl reference median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 8000 wrong 0\n",
                        &out, &ok);
    cr_assert_float_eq(s, 0, 1e-9);
    cr_assert(!ok);
    cr_assert(strstr(sb_str(&out), "FAILED: 17 wrong elements in the timed outputs"), "%s", sb_str(&out));
    sb_free(&out);
}

static double ratio_of(const char *text)
{
    perf_result_t res;
    char err[256] = "";
    cr_assert_eq(perf_parse(text, &res, err, sizeof err), 0, "%s", err);
    return res.speed_ratio;
}

Test(perf, speed_ratio_is_the_geometric_mean_or_0_when_unusable)
{
    cr_assert_float_eq(ratio_of(DEVICE "shape 4096x4096x4096\n"
                                       "impl student median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 640 wrong 0\n"
                                       "impl reference median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 1000 wrong 0\n"
                                       "shape 3001x2999x3003\n"
                                       "impl student median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 810 wrong 0\n"
                                       "impl reference median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 1000 wrong 0\n"),
                       0.72, 1e-12);
    cr_assert_eq(ratio_of(DEVICE "shape 8x8x8\n"
                                 "impl student median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 9000 wrong 17\n"
                                 "impl reference median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 8000 wrong 0\n"),
                 0, "a wrong timed output has no ratio");
    cr_assert_eq(ratio_of(DEVICE "shape 8x8x8\n"
                                 "impl student median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 9000 wrong 0\n"),
                 0, "no reference timing, no ratio");
}

/* The challenge lab's scale: relative to cuBLAS, 0 at 0.2, full at 0.9. */
Test(perf, relative_to_cublas)
{
    perf_result_t res;
    char err[256] = "";
    const char *text = DEVICE "shape 4096x4096x4096\n"
        "impl student median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 25000 wrong 0\n"
        "impl reference median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 47000 wrong 0\n"
        "impl cublas median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 50000 wrong 0\n"
        "shape 1024x1024x8192\n"
        "impl student median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 32000 wrong 0\n"
        "impl reference median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 45000 wrong 0\n"
        "impl cublas median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 50000 wrong 0\n";
    cr_assert_eq(perf_parse(text, &res, err, sizeof err), 0, "%s", err);
    /* 0.5 and 0.64 of cuBLAS: geometric mean 0.5657 -> (0.5657-0.2)/0.7 = 52.2% of 30 */
    cr_assert_float_eq(perf_shape_ratio(&res.shapes[0], PERF_VS_CUBLAS), 0.5, 1e-9);
    cr_assert_float_eq(perf_speed_ratio(&res, PERF_VS_CUBLAS), sqrt(0.5 * 0.64), 1e-9);
    cr_assert_float_eq(res.speed_ratio, sqrt(25.0 / 47 * 32 / 45), 1e-9, "perf_parse's: the reference");
    perf_rule_t r = rule();
    r.points = 30;
    r.zero_at = 0.2;
    r.full_at = 0.9;
    r.relative_to = PERF_VS_CUBLAS;
    lab_t lab = {.tile_width = 128, .kind = &kind_matmul};
    strbuf_t out = {0};
    int ok;
    double s = perf_score(&r, &res, &lab, NULL, &out, &ok);
    cr_assert_float_eq(s, round(30 * (sqrt(0.32) - 0.2) / 0.7 * 100) / 100, 1e-9, "%s", sb_str(&out));
    cr_assert(!ok);
    const char *t = sb_str(&out);
    cr_assert(strstr(t, "4096x4096x4096: 25000 GFLOP/s (median of 10, rse 1.00%), 0.50x cuBLAS FP32 "
                        "(50000 GFLOP/s), 0.53x the reference (47000 GFLOP/s)"), "%s", t);
    cr_assert(strstr(t, "speed relative to cuBLAS FP32 (geometric mean): 0.57; 0 points at 0.20, "
                        "full points at 0.90"), "%s", t);
    sb_free(&out);
    /* a shape without cuBLAS is no usable timing against it */
    cr_assert_eq(perf_parse(DEVICE "shape 8x8x8\n"
                            "impl student median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 10 wrong 0\n"
                            "impl reference median_ms 1 mean_ms 1 rse 0.01 reps 10 gflops 10 wrong 0\n",
                            &res, err, sizeof err), 0);
    cr_assert_float_eq(perf_speed_ratio(&res, PERF_VS_CUBLAS), 0, 1e-9);
    cr_assert_float_eq(perf_speed_ratio(&res, PERF_VS_REFERENCE), 1, 1e-9);
}

/* A batch's baseline (the reference and cuBLAS timed alone on the GPU) and
 * a student-only timing of the same shapes make the same score as one
 * interleaved timing with the same numbers. */
Test(perf, a_student_only_timing_is_scored_against_the_batch_baseline)
{
    const char *student = DEVICE "shape 64x64x64\n"
                          "impl student median_ms 2.0 mean_ms 2.0 rse 0.001 reps 10 gflops 500 "
                          "wrong 0\n";
    const char *base = "baseline_gpu 1\nbaseline_at 1790000000.5\n" DEVICE "shape 64x64x64\n"
                       "impl reference median_ms 1.0 mean_ms 1.0 rse 0.001 reps 10 gflops 1000 "
                       "wrong 0\n"
                       "impl cublas median_ms 0.5 mean_ms 0.5 rse 0.001 reps 10 gflops 2000 "
                       "wrong 0\n";
    perf_result_t r, b;
    char err[256] = "";
    cr_assert_eq(perf_parse(student, &r, err, sizeof err), 0, "%s", err);
    cr_assert(r.speed_ratio == 0, "no reference yet, no ratio");
    cr_assert_eq(perf_parse(base, &b, err, sizeof err), 0, "%s", err);
    cr_assert_eq(perf_merge_baseline(&r, &b, err, sizeof err), 0, "%s", err);
    cr_assert_eq(r.shapes[0].nimpls, 3);
    cr_assert_float_eq(r.speed_ratio, 0.5, 1e-9);
    cr_assert_float_eq(perf_speed_ratio(&r, PERF_VS_CUBLAS), 0.25, 1e-9);
}

Test(perf, a_baseline_of_another_device_or_without_the_shape_is_refused)
{
    const char *student = DEVICE "shape 64x64x64\n"
                          "impl student median_ms 2.0 mean_ms 2.0 rse 0.001 reps 10 gflops 500 "
                          "wrong 0\n";
    const char *other = "device NVIDIA H100 80GB HBM3\nshape 64x64x64\n"
                        "impl reference median_ms 1 mean_ms 1 rse 0.001 reps 10 gflops 1000 "
                        "wrong 0\n";
    const char *shapeless = DEVICE "shape 32x32x32\n"
                            "impl reference median_ms 1 mean_ms 1 rse 0.001 reps 10 gflops 1000 "
                            "wrong 0\n";
    perf_result_t r, b;
    char err[256] = "";
    cr_assert_eq(perf_parse(student, &r, err, sizeof err), 0);
    cr_assert_eq(perf_parse(other, &b, err, sizeof err), 0);
    cr_assert_eq(perf_merge_baseline(&r, &b, err, sizeof err), -1);
    cr_assert(strstr(err, "NVIDIA H100 80GB HBM3"), "%s", err);
    cr_assert_eq(perf_parse(shapeless, &b, err, sizeof err), 0);
    cr_assert_eq(perf_merge_baseline(&r, &b, err, sizeof err), -1);
    cr_assert(strstr(err, "64x64x64"), "%s", err);
}

/* "gated" says how each implementation was timed. A student timed without
 * the launch gate while the reference was timed through it had a launch
 * function that did not return while the gate held the GPU: the report says
 * what that can be, and none of it when both were ungated (the emulator has
 * no gate) or the timing program did not say (an older one). */
Test(perf, a_launch_function_that_waits_is_named_only_when_the_gate_shows_it)
{
    perf_result_t r;
    char err[256];
    cr_assert_eq(perf_parse(DEVICE "shape 8x8x8\n"
                                   "impl student median_ms 2 mean_ms 2 rse 0 reps 12 gflops 5 wrong 0 "
                                   "q1_ms 2 gated 0 host_bound 0\n"
                                   "impl reference median_ms 2 mean_ms 2 rse 0 reps 12 gflops 5 wrong 0 "
                                   "q1_ms 2 gated 1\n"
                                   "impl cublas median_ms 2 mean_ms 2 rse 0 reps 12 gflops 5 wrong 0\n",
                            &r, err, sizeof err),
                 0, "%s", err);
    cr_assert_eq(r.shapes[0].impls[0].gate, PERF_UNGATED);
    cr_assert_eq(r.shapes[0].impls[1].gate, PERF_GATED);
    cr_assert_eq(r.shapes[0].impls[2].gate, PERF_GATE_UNKNOWN);
    const char *hint = "unlike the reference's, its reps were timed without the launch gate: "
                       "its launch function had not returned 20 ms after its call";
    const char *cases[][2] = {
        {"gated 0", "gated 1"}, /* the hint */
        {"gated 0", "gated 0"}, /* the emulator: no gate for anyone */
        {"gated 1", "gated 1"},
        {"gated 0", ""},        /* an older reference timing */
    };
    for (int i = 0; i < 4; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 DEVICE "shape 8x8x8\n"
                        "impl student median_ms 2 mean_ms 2 rse 0 reps 12 gflops 5 wrong 0 q1_ms 2 %s\n"
                        "impl reference median_ms 2 mean_ms 2 rse 0 reps 12 gflops 5 wrong 0 q1_ms 2 %s\n",
                 cases[i][0], cases[i][1]);
        strbuf_t out = {0};
        int ok;
        double score = score_of(text, &out, &ok);
        cr_assert_float_eq(score, 10, 1e-9, "the hint changes no score: %s", sb_str(&out));
        cr_assert_eq(strstr(sb_str(&out), hint) != NULL, i == 0, "case %d: %s", i, sb_str(&out));
        sb_free(&out);
    }
    cr_assert_eq(perf_parse("shape 8x8x8\nimpl student median_ms 2 mean_ms 2 rse 0 reps 12 gflops 5 "
                            "wrong 0 gated 2\n",
                            &r, err, sizeof err),
                 -1);
}

/* A student wrong in some timed rounds and not found wrong in the others is
 * told so, with what can make its output change from call to call; not when
 * every round was wrong (a plain bug, the datasets say which), nor when the
 * timing did not report its rounds (an older one). */
Test(perf, wrong_in_some_rounds_only_is_told_what_changes_between_calls)
{
    const char *hint = "wrong in 2 of its 12 timed rounds, not found wrong in the others: what "
                       "it computes changes from call to call";
    const char *cases[] = {"wrong 5 wrong_reps 2", "wrong 5 wrong_reps 12", "wrong 5"};
    for (int i = 0; i < 3; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 DEVICE "shape 8x8x8\n"
                        "impl student median_ms 2 mean_ms 2 rse 0 reps 12 gflops 5 %s q1_ms 2\n"
                        "impl reference median_ms 2 mean_ms 2 rse 0 reps 12 gflops 5 wrong 0\n",
                 cases[i]);
        strbuf_t out = {0};
        int ok;
        cr_assert_float_eq(score_of(text, &out, &ok), 0, 1e-9, "%s", sb_str(&out));
        cr_assert(strstr(sb_str(&out), "FAILED: 5 wrong elements in the timed outputs"), "%s",
                  sb_str(&out));
        cr_assert_eq(strstr(sb_str(&out), hint) != NULL, i == 0, "case %d: %s", i, sb_str(&out));
        sb_free(&out);
    }
    perf_result_t r;
    char err[256];
    cr_assert_eq(perf_parse("shape 8x8x8\nimpl student median_ms 2 mean_ms 2 rse 0 reps 12 gflops 5 "
                            "wrong 5 wrong_reps 13\n",
                            &r, err, sizeof err),
                 -1, "more wrong rounds than rounds");
}
