/* test_html_roofline.c - the roofline on the HTML pages
 * (report/html_roofline.h): a student's page draws it in the performance
 * test (the roofs, the three kernels, the shared-memory roof that bounds a
 * tiled kernel, its caption), escapes the device's name, and draws nothing
 * without a roofline; the class page puts every student's kernel on the
 * roofline of the device most of the class was timed on and counts the
 * others out. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course/lab.h"
#include "kinds/matmul.h"
#include "kinds/reduction.h"
#include "report/html_class.h"
#include "report/html_report.h"
#include "score/perf.h"
#include "score/roofline.h"

static const lab_t MATMUL = {.kind = &kind_matmul};

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* A roofline of an H100-like device named device, the student at gflops. */
static roofline_t roofline(const char *device, double gflops, double flop_per_byte)
{
    char text[1024];
    double ms = 2.0 * 4096 * 4096 * 4096 / (gflops * 1e6), blas = 2.0 * 4096 * 4096 * 4096 / (50500 * 1e6);
    snprintf(text, sizeof text,
             "device %s\nsm_clock_mhz 1980\nbandwidth_gbs 3352\nsms 132\ncompute_capability 9.0\n"
             "shape 4096x4096x4096\nimpl student median_ms %.9g mean_ms %.9g rse 0.01 reps 9 gflops %.3f wrong 0\n"
             "impl reference median_ms %.9g mean_ms %.9g rse 0.01 reps 9 gflops 7800 wrong 0\n"
             "impl cublas median_ms %.9g mean_ms %.9g rse 0.01 reps 9 gflops 50500 wrong 0\n",
             device, ms, ms, gflops, ms, ms, blas, blas);
    perf_result_t r;
    char err[256] = "";
    cr_assert_eq(perf_parse(text, &r, err, sizeof err), 0, "%s", err);
    roofline_traffic_t t = {.flop = 1e9, .global_bytes = 1e9 / flop_per_byte, .shared_load_bytes = 4e9};
    roofline_t rl;
    cr_assert_eq(roofline_build(&r, &MATMUL, &t, &t, &rl), 0);
    return rl;
}

static char *page_with(const roofline_t *rl)
{
    grade_t g;
    memset(&g, 0, sizeof g);
    grade_add_test(&g, "dataset 0 (16x16x16)", 1, 1, 1, VIS_VISIBLE, "passed\n");
    grade_add_test(&g, "performance", 8, 10, 0, VIS_VISIBLE, "roofline: ...\n");
    if (rl)
        grade_set_extra_json(&g, "roofline", roofline_to_json(rl));
    char *text = grade_to_json(&g);
    json_object *j = json_tokener_parse(text);
    char *html = html_student_page(j, "alice", NULL);
    json_object_put(j);
    free(text);
    grade_free(&g);
    return html;
}

Test(html_roofline, the_student_page_draws_it_in_the_performance_test)
{
    roofline_t rl = roofline("NVIDIA H100 <script>x</script>", 7500, 4);
    char *html = page_with(&rl);
    const char *svg = strstr(html, "<svg class=\"roofline\" id=\"roofline\"");
    cr_assert_not_null(svg, "%s", html);
    cr_assert(svg > strstr(html, "<span class=\"name\">performance</span>"), "inside the performance test");
    cr_assert_eq(count(html, "<polyline class=\"roof\""), 1);
    cr_assert(strstr(html, "<circle class=\"pt student\""));
    cr_assert(strstr(html, "<circle class=\"pt reference\""));
    cr_assert(strstr(html, "<circle class=\"pt cublas\""));
    cr_assert(strstr(html, "cuBLAS: 50500 GFLOP/s at 683 FLOP/B (compulsory traffic)"), "its tooltip");
    cr_assert_eq(count(html, "<line class=\"sroof\""), 1, "the tiled kernels' shared-memory roof, the same for both");
    cr_assert_eq(count(html, ">shared-memory loads</text>"), 1);
    cr_assert(strstr(html, "FP32 peak 66.9 TFLOP/s"));
    cr_assert(strstr(html, "DRAM 3352 GB/s"));
    cr_assert(strstr(html, "Tiling moves a kernel right."));
    cr_assert_null(strstr(html, "<script>x"), "the device's name escaped");
    cr_assert(strstr(html, "NVIDIA H100 &lt;script&gt;x&lt;/script&gt;"));
    free(html);
    html = page_with(NULL);
    cr_assert_null(strstr(html, "class=\"roofline\""), "no roofline: none drawn");
    free(html);
}

Test(html_roofline, the_class_page_draws_each_kernel_on_the_most_common_device)
{
    roofline_t a = roofline("NVIDIA H100", 7500, 4), b = roofline("NVIDIA H100", 2000, 8),
               other = roofline("NVIDIA A100", 1000, 4);
    class_row_t rows[4];
    memset(rows, 0, sizeof rows);
    const char *ids[4] = {"alice", "bob", "carol", "dave<"};
    roofline_t *rls[4] = {&a, &b, &other, NULL};
    for (int i = 0; i < 4; i++) {
        rows[i].id = (char *)ids[i];
        rows[i].first_fail = -1;
        rows[i].roofline = rls[i];
        rows[i].perf_ratio = rls[i] ? 0.9 : 0;
    }
    class_data_t c = {rows, 4, NULL, 0, 0, NULL, NULL};
    class_counts_t k = {.graded = 4, .mean = 1, .max = 1};
    char *html = html_class_page(&c, &k, NULL);
    const char *card = strstr(html, "<div class=\"card\" id=\"roofline-card\">");
    cr_assert_not_null(card, "%s", html);
    cr_assert_eq(count(card, "<circle class=\"dot\""), 2, "alice and bob, on the H100");
    cr_assert(strstr(card, "<title>alice: 7500 GFLOP/s at 4 FLOP/B</title>"));
    cr_assert(strstr(card, "<title>bob: 2000 GFLOP/s at 8 FLOP/B</title>"));
    cr_assert_null(strstr(card, "<circle class=\"pt student\""), "students are dots on the class page");
    cr_assert(strstr(card, "<circle class=\"pt reference\""));
    cr_assert(strstr(card, "2 student kernels (blue dots)."));
    cr_assert(strstr(card, "1 kernel timed on another device or shape is not drawn."));
    free(html);
    for (int i = 0; i < 4; i++)
        rows[i].roofline = NULL;
    html = html_class_page(&c, &k, NULL);
    cr_assert_null(strstr(html, "roofline-card"), "no roofline in the class: no card");
    free(html);
}
