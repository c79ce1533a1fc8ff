/* test_roofline.c - where a kernel sits on its GPU's roofline
 * (score/roofline.h): the device's roofs from its attributes, the lowest
 * roof at the kernel's measured intensities named as its bound (shared
 * memory for a 16x16 tiled kernel on an H100, DRAM for an untiled one,
 * with the caches named when it runs above that roof), cuBLAS placed at
 * the shape's compulsory traffic, no roofline without the numbers it needs,
 * the JSON the pages read, and the performance test's line and
 * extra_data from a measurement (score_measured) and after a round trip
 * through measurements.json. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course/lab.h"
#include "kinds/matmul.h"
#include "kinds/reduction.h"
#include "score/measured.h"
#include "score/perf.h"
#include "score/roofline.h"

static const lab_t MATMUL = {.kind = &kind_matmul}, REDUCTION = {.kind = &kind_reduction};
#include "score/score.h"

/* An H100 SXM as the runner reports it; the student at 7.5 TFLOP/s on 4096^3
 * (18.33 ms), the reference at 7.8, cuBLAS at 50.5 */
#define H100                                                                                       \
    "device NVIDIA H100 80GB HBM3\nsm_clock_mhz 1980\nbandwidth_gbs 3352.3\nsms 132\n"              \
    "compute_capability 9.0\ndriver_version 13000\nruntime_version 13000\n"
#define SHAPE_4096 "shape 4096x4096x4096\n"

static perf_result_t timing(const char *text)
{
    perf_result_t r;
    char err[256] = "";
    cr_assert_eq(perf_parse(text, &r, err, sizeof err), 0, "%s", err);
    return r;
}

/* "impl NAME ... q1_ms Q": an implementation that reached gflops on 4096^3 */
static void impl_line(char *buf, size_t len, const char *name, double gflops, int wrong)
{
    double ms = 2.0 * 4096 * 4096 * 4096 / (gflops * 1e6);
    snprintf(buf, len, "impl %s median_ms %.6f mean_ms %.6f rse 0.01 reps 20 gflops %.3f wrong %d q1_ms %.6f\n",
             name, ms * 1.01, ms * 1.02, gflops, wrong, ms);
}

static perf_result_t h100_timing(double student, int student_wrong)
{
    char text[2048], a[256], b[256], c[256];
    impl_line(a, sizeof a, "student", student, student_wrong);
    impl_line(b, sizeof b, "reference", 7800, 0);
    impl_line(c, sizeof c, "cublas", 50500, 0);
    snprintf(text, sizeof text, H100 SHAPE_4096 "%s%s%s", a, b, c);
    return timing(text);
}

/* a 16x16 tiled kernel: 4 B of global memory and 4 B of shared-memory loads a FLOP... per 16 */
static const roofline_traffic_t TILED16 = {.flop = 1e9, .global_bytes = 2.5e8, .shared_load_bytes = 4e9};
/* an untiled kernel: 8 B loaded per 2 FLOP, no shared memory */
static const roofline_traffic_t UNTILED = {.flop = 1e9, .global_bytes = 4e9, .shared_load_bytes = 0};

Test(roofline, fp32_lanes_follow_the_compute_capability)
{
    cr_assert_eq(roofline_fp32_lanes(9, 0), 128);
    cr_assert_eq(roofline_fp32_lanes(8, 0), 64);  /* A100 */
    cr_assert_eq(roofline_fp32_lanes(8, 6), 128); /* RTX 30 */
    cr_assert_eq(roofline_fp32_lanes(7, 0), 64);
    cr_assert_eq(roofline_fp32_lanes(6, 0), 64);
    cr_assert_eq(roofline_fp32_lanes(6, 1), 128);
    cr_assert_eq(roofline_fp32_lanes(12, 0), 128);
    cr_assert_eq(roofline_fp32_lanes(0, 0), 0); /* not reported */
}

Test(roofline, a_tiled_kernel_on_an_h100_is_bound_by_shared_memory_loads)
{
    perf_result_t r = h100_timing(7500, 0);
    roofline_t rl;
    cr_assert_eq(roofline_build(&r, &MATMUL, &TILED16, &TILED16, &rl), 0);
    /* 132 SMs x 128 lanes x 2 x 1.98 GHz; 132 x 128 B x 1.98 GHz */
    cr_assert_float_eq(rl.roof.peak_gflops, 132 * 128 * 2 * 1.98, 1e-6);
    cr_assert_float_eq(rl.roof.shared_gbs, 132 * 128 * 1.98, 1e-6);
    cr_assert_float_eq(rl.roof.dram_gbs, 3352.3, 1e-9);
    cr_assert_eq(rl.npoints, 3);
    const roofline_point_t *st = &rl.points[0], *ref = &rl.points[1], *blas = &rl.points[2];
    cr_assert_str_eq(st->name, "student");
    cr_assert_float_eq(st->gflops, 7500, 1e-3);
    cr_assert_float_eq(st->intensity, 4.0, 1e-12);
    cr_assert_float_eq(st->shared_intensity, 0.25, 1e-12);
    cr_assert_eq(st->bound, ROOF_SHARED);
    cr_assert_float_eq(st->allowed_gflops, 0.25 * 132 * 128 * 1.98, 1e-6); /* 8363.5: under DRAM's 13409 */
    cr_assert_str_eq(ref->name, "reference");
    cr_assert_float_eq(ref->gflops, 7800, 1e-3);
    cr_assert(!ref->compulsory);
    cr_assert_str_eq(blas->name, "cublas");
    cr_assert(blas->compulsory);
    cr_assert_float_eq(blas->intensity, 2.0 * 4096 / (4 * 3), 1e-9); /* 682.7 FLOP/B: each matrix once */
    cr_assert_eq(blas->bound, ROOF_FP32);
    strbuf_t out = {0};
    roofline_sentence(&rl, &out);
    const char *t = sb_str(&out);
    cr_assert(strstr(t, "roofline: 7.5 TFLOP/s at 4.00 FLOP per byte of global memory (4096x4096x4096): "
                        "90% of the 8.4 TFLOP/s that intensity allows; bound by shared-memory loads "
                        "(4.00 B a FLOP at 33.5 TB/s)"), "%s", t);
    cr_assert(strstr(t, "register tiling"), "%s", t);
    cr_assert(strstr(t, "FP32 33.5 TFLOP/s") == NULL && strstr(t, "FP32 66.9 TFLOP/s, DRAM 3352 GB/s"), "%s", t);
    sb_free(&out);
}

Test(roofline, an_untiled_kernel_is_bound_by_dram_and_told_how_much_it_moves)
{
    perf_result_t r = h100_timing(500, 0);
    roofline_t rl;
    cr_assert_eq(roofline_build(&r, &MATMUL, &UNTILED, NULL, &rl), 0);
    cr_assert_eq(rl.npoints, 2, "no reference traffic: no reference point");
    cr_assert_str_eq(rl.points[1].name, "cublas");
    cr_assert_eq(rl.points[0].bound, ROOF_DRAM);
    cr_assert_float_eq(rl.points[0].allowed_gflops, 0.25 * 3352.3, 1e-9);
    strbuf_t out = {0};
    roofline_sentence(&rl, &out);
    const char *t = sb_str(&out);
    cr_assert(strstr(t, "500 GFLOP/s at 0.25 FLOP per byte of global memory (4096x4096x4096): 60% of the "
                        "838 GFLOP/s that intensity allows; bound by global-memory traffic\n"), "%s", t);
    cr_assert(strstr(t, "load and store 2731 times the bytes the shape needs"), "%s", t);
    cr_assert(strstr(t, "(a tile of side T loads 4/T bytes per FLOP)"), "matmul's example of reuse: %s", t);
    sb_free(&out);
    /* a kind with no tiles to name (an array lab's SpMV gathering x) gets no tile in its advice */
    rl.reuse_example = NULL;
    roofline_sentence(&rl, &out);
    t = sb_str(&out);
    cr_assert(strstr(t, "raises FLOP per byte, and this roof with it\n") && !strstr(t, "tile"), "%s", t);
    sb_free(&out);
}

Test(roofline, above_the_dram_roof_the_caches_are_named)
{
    perf_result_t r = h100_timing(3000, 0);
    roofline_t rl;
    cr_assert_eq(roofline_build(&r, &MATMUL, &UNTILED, NULL, &rl), 0);
    strbuf_t out = {0};
    roofline_sentence(&rl, &out);
    const char *t = sb_str(&out);
    cr_assert(strstr(t, "3.0 TFLOP/s at 0.25 FLOP per byte of global memory (4096x4096x4096): 3.6 times "
                        "what DRAM's bandwidth allows for that traffic (838 GFLOP/s): the L1 and L2 "
                        "caches served part of its loads"), "%s", t);
    cr_assert(strstr(t, "% of the") == NULL, "no percentage above 100: %s", t);
    sb_free(&out);
}

/* A few percent over a roof no cache lifts is the model's inexactness ("at
 * the roof"); more is traffic the datasets measured and the shape does not
 * have, said so, never a percentage over 100 */
Test(roofline, over_a_shared_memory_roof_is_not_a_percentage)
{
    perf_result_t r = h100_timing(8500, 0); /* 1.6% over 8363 */
    roofline_t rl;
    cr_assert_eq(roofline_build(&r, &MATMUL, &TILED16, NULL, &rl), 0);
    strbuf_t out = {0};
    roofline_sentence(&rl, &out);
    cr_assert(strstr(sb_str(&out), "(4096x4096x4096): at the 8.4 TFLOP/s that intensity allows; bound by "
                                   "shared-memory loads"), "%s", sb_str(&out));
    sb_free(&out);
    r = h100_timing(9000, 0); /* 7.6% over */
    cr_assert_eq(roofline_build(&r, &MATMUL, &TILED16, NULL, &rl), 0);
    roofline_sentence(&rl, &out);
    cr_assert(strstr(sb_str(&out), "1.08 times the 8.4 TFLOP/s its intensity allows (bound by shared-memory loads): "
                                   "the traffic measured on the datasets is not this shape's"), "%s", sb_str(&out));
    cr_assert_null(strstr(sb_str(&out), "%"), "%s", sb_str(&out));
    sb_free(&out);
}

Test(roofline, none_without_what_it_needs)
{
    roofline_t rl;
    perf_result_t r = h100_timing(7500, 1); /* a wrong timed output */
    cr_assert_eq(roofline_build(&r, &MATMUL, &TILED16, NULL, &rl), -1);
    r = h100_timing(7500, 0);
    roofline_traffic_t none = {0};
    cr_assert_eq(roofline_build(&r, &MATMUL, &none, NULL, &rl), -1, "no traffic measured");
    cr_assert_eq(roofline_build(&r, &MATMUL, NULL, NULL, &rl), -1);
    r.bandwidth_gbs = 0;
    cr_assert_eq(roofline_build(&r, &MATMUL, &TILED16, NULL, &rl), -1, "no bandwidth reported");
    /* without a compute capability: no FP32 roof, said so, the others drawn */
    r = h100_timing(7500, 0);
    r.cc_major = r.cc_minor = 0;
    cr_assert_eq(roofline_build(&r, &MATMUL, &TILED16, NULL, &rl), 0);
    cr_assert_eq(rl.roof.peak_gflops, 0);
    cr_assert_eq(rl.points[1].bound, ROOF_DRAM, "cuBLAS under DRAM's roof alone");
    strbuf_t out = {0};
    roofline_sentence(&rl, &out);
    cr_assert(strstr(sb_str(&out), "FP32 unknown (compute capability not reported)"), "%s", sb_str(&out));
    sb_free(&out);
}

Test(roofline, the_dot_product_moves_what_it_must)
{
    /* 2^24 elements, 2 FLOP per 8 B: 0.25 FLOP/B at best, 2400 GB/s reached */
    double n = 16777216, ms = 8 * n / 2400e6;
    char text[1024];
    snprintf(text, sizeof text, H100 "shape 16777216\nimpl student median_ms %.12g mean_ms %.12g rse 0.01 reps 20 "
                                     "gbs 2400 wrong 0 q1_ms %.12g\n", ms, ms, ms);
    perf_result_t r = timing(text);
    roofline_traffic_t t = {.flop = 2 * n, .global_bytes = 8 * n + 4096, .shared_load_bytes = 1024};
    roofline_t rl;
    cr_assert_eq(roofline_build(&r, &REDUCTION, &t, NULL, &rl), 0);
    cr_assert_eq(rl.npoints, 1, "no cuBLAS timing: no cuBLAS point");
    cr_assert_eq(rl.points[0].bound, ROOF_DRAM);
    cr_assert_float_eq(rl.points[0].gflops, 600, 1e-6);
    strbuf_t out = {0};
    roofline_sentence(&rl, &out);
    cr_assert(strstr(sb_str(&out), "72% of the 838 GFLOP/s"), "%s", sb_str(&out));
    cr_assert(strstr(sb_str(&out), "little more than the shape needs: what is left is reaching the bandwidth"),
              "%s", sb_str(&out));
    sb_free(&out);
}

Test(roofline, json_reads_back)
{
    perf_result_t r = h100_timing(7500, 0);
    roofline_t rl, back;
    cr_assert_eq(roofline_build(&r, &MATMUL, &TILED16, &TILED16, &rl), 0);
    json_object *o = roofline_to_json(&rl);
    cr_assert_eq(roofline_from_json(o, &back), 0);
    cr_assert_eq(back.npoints, 3);
    cr_assert_str_eq(back.device, "NVIDIA H100 80GB HBM3");
    cr_assert_eq(back.points[0].bound, ROOF_SHARED);
    cr_assert(back.points[2].compulsory && !back.points[1].compulsory);
    cr_assert_float_eq(back.points[0].gflops, 7500, 1e-3);
    cr_assert_float_eq(back.roof.peak_gflops, rl.roof.peak_gflops, 1e-3);
    json_object_put(o);
    cr_assert_eq(roofline_from_json(NULL, &back), -1);
    json_object *bad = json_tokener_parse("{\"points\": [{\"name\": \"student\", \"gflops\": -1}], \"dram_gbs\": 1}");
    cr_assert_eq(roofline_from_json(bad, &back), -1, "a point without a rate is no roofline");
    json_object_put(bad);
}

/* ---- from a measurement ---------------------------------------------------------- */

static emu_report_t traffic_report(double global, double shared, double flops)
{
    emu_report_t r;
    memset(&r, 0, sizeof r);
    emu_report_add_stat(&r, "threads", 4096);
    emu_report_add_stat(&r, "global_load_bytes", global);
    emu_report_add_stat(&r, "shared_load_bytes", shared);
    if (flops > 0) /* the executor counts the FLOP its kernels did */
        emu_report_add_stat(&r, "flops", flops);
    return r;
}

static measured_t timed_measurement(void)
{
    measured_t m;
    memset(&m, 0, sizeof m);
    snprintf(m.lab, sizeof m.lab, "lab3");
    m.backend = BACKEND_VGPU;
    m.compiled = 1;
    measured_add_dataset(&m, "dataset 0 (64x64x64)", "0", 0, 1, "passed\n", "", NULL);
    m.checks_measured = 1;
    emu_report_t rep = traffic_report(131072, 2097152, 0); /* 2*64^3 FLOP: 4 FLOP/B, 0.25 FLOP per shared byte */
    evidence_log_add(&m.evidence, "dataset 0 (64x64x64)", &rep, 2.0 * 64 * 64 * 64);
    emu_report_free(&rep);
    m.perf.measured = m.perf.timed = m.perf.on_gpu = 1;
    m.perf.result = h100_timing(7500, 0);
    m.perf.reference_traffic = TILED16;
    return m;
}

static lab_rubric_t perf_rubric(void)
{
    lab_rubric_t r;
    memset(&r, 0, sizeof r);
    snprintf(r.lab, sizeof r.lab, "lab3");
    r.datasets.points = 1;
    r.checks[CHECK_TRAFFIC_REDUCED] = (check_rule_t){.present = 1, .points = 1, .max_bytes_per_flop = 1};
    r.performance = (perf_rule_t){.present = 1, .points = 10, .zero_at = 0.5, .full_at = 0.9, .nshapes = 1,
                                  .time_cap_s = 30, .shapes = {"4096x4096x4096"}};
    return r;
}

static const test_result_t *performance_test(const grade_t *g)
{
    for (int i = 0; i < g->ntests; i++)
        if (strcmp(g->tests[i].name, "performance") == 0)
            return &g->tests[i];
    cr_assert_fail("no performance test");
    return NULL;
}

Test(roofline, the_performance_test_says_it_and_extra_data_keeps_it)
{
    measured_t m = timed_measurement();
    lab_rubric_t rub = perf_rubric();
    lab_t lab = {.tile_width = 16, .kind = &kind_matmul, .has_timing = 1};
    for (int round_trip = 0; round_trip <= 1; round_trip++) {
        measured_t *use = &m, back;
        if (round_trip) { /* a re-score reads measurements.json: the reference's traffic kept */
            char *text = measured_to_json(&m), err[512] = "";
            cr_assert_eq(measured_parse("m.json", text, &back, err, sizeof err), 0, "%s", err);
            free(text);
            cr_assert_float_eq(back.perf.reference_traffic.shared_load_bytes, 4e9, 1e-3);
            cr_assert_eq(back.perf.result.cc_major, 9);
            use = &back;
        }
        grade_t g;
        score_measured(use, &rub, &lab, &g);
        const char *out = performance_test(&g)->output;
        cr_assert(strstr(out, "roofline: 7.5 TFLOP/s at 4.00 FLOP per byte of global memory"), "%s", out);
        cr_assert(strstr(out, "bound by shared-memory loads"), "%s", out);
        cr_assert(strstr(out, "bandwidth-bound ceiling") == NULL, "the kind's bound gives way to the roofline: %s",
                  out);
        json_object *rl = NULL;
        for (int i = 0; i < g.nextra; i++)
            if (strcmp(g.extra[i].key, "roofline") == 0)
                rl = g.extra[i].json;
        roofline_t back_rl;
        cr_assert_eq(roofline_from_json(rl, &back_rl), 0, "extra_data roofline");
        cr_assert_eq(back_rl.npoints, 3);
        cr_assert_str_eq(back_rl.points[1].name, "reference");
        grade_free(&g);
        if (round_trip)
            measured_free(&back);
    }
    /* without the checks' reports there is no traffic: the kind's line, no roofline */
    evidence_log_free(&m.evidence);
    memset(&m.evidence, 0, sizeof m.evidence);
    grade_t g;
    score_measured(&m, &rub, &lab, &g);
    const char *out = performance_test(&g)->output;
    cr_assert(strstr(out, "roofline") == NULL && strstr(out, "bandwidth-bound ceiling"), "%s", out);
    grade_free(&g);
    measured_free(&m);
}

/* Where the executor counted the FLOP its kernels did, the intensities are
 * per FLOP done: a 100 x 100 x 100 product in 16 x 16 tiles does the
 * padding's multiply-adds too (112^3), which the timing's shapes, multiples
 * of the tile, have none of; per FLOP the dataset asks for it would look
 * like more traffic than the kernel's */
Test(roofline, intensity_is_per_flop_the_kernels_did_where_counted)
{
    measured_t m = timed_measurement();
    evidence_log_free(&m.evidence);
    memset(&m.evidence, 0, sizeof m.evidence);
    double asked = 2.0 * 100 * 100 * 100, done = 2.0 * 112 * 112 * 112;
    emu_report_t rep = traffic_report(done / 4, done * 4, done); /* 4 FLOP/B and 4 shared B a FLOP done */
    evidence_log_add(&m.evidence, "dataset 0 (100x100x100)", &rep, asked);
    emu_report_free(&rep);
    lab_rubric_t rub = perf_rubric();
    lab_t lab = {.tile_width = 16, .kind = &kind_matmul, .has_timing = 1};
    grade_t g;
    score_measured(&m, &rub, &lab, &g);
    const char *out = performance_test(&g)->output;
    cr_assert(strstr(out, "at 4.00 FLOP per byte of global memory"), "%s", out);
    cr_assert(strstr(out, "(4.00 B a FLOP at 33.5 TB/s)"), "%s", out);
    grade_free(&g);
    measured_free(&m);
}
