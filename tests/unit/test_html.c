/* test_html.c - the HTML reports without a browser: escaping (student
 * output is untrusted: a <script> in it comes out as text), URL segments,
 * the student page from a results.json (score, every test, the error map
 * picture only on the failing dataset, the link to the class), and the
 * class page's pieces (one row per student, the SVG charts, the performance
 * plot or the sentence that replaces it, nothing from the network). */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_class.h"
#include "report/html_report.h"
#include "util/util.h"

#define EVIL "</pre><script>alert(1)</script><img src=x onerror=\"alert(2)\">'"

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static char *escaped(const char *s)
{
    strbuf_t sb = {0};
    html_escape(&sb, s);
    return sb_detach(&sb);
}

Test(html_escape, markup_quotes_and_control_characters)
{
    char *s = escaped("<script>alert(\"x\" & 'y')</script>");
    cr_assert_str_eq(s, "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;");
    free(s);
    s = escaped("a\tb\nc\033[31md\x7f");
    cr_assert_str_eq(s, "a\tb\nc&#xFFFD;[31md&#xFFFD;");
    free(s);
    s = escaped("caf\xc3\xa9");
    cr_assert_str_eq(s, "caf\xc3\xa9", "UTF-8 passes through");
    free(s);
    strbuf_t sb = {0};
    html_url_segment(&sb, "o'neil <x>/a b.c_d~e-f");
    cr_assert_str_eq(sb_str(&sb), "o%27neil%20%3Cx%3E%2Fa%20b.c_d~e-f");
    sb_free(&sb);
}

/* A grade like a real run's: compile, a passing and a failing dataset (with
 * an error map), a test whose output is an attack. */
static grade_t sample_grade(void)
{
    grade_t g;
    memset(&g, 0, sizeof g);
    grade_add_test(&g, "compiles", 0, 0, 1, VIS_VISIBLE, "compiled\n");
    grade_add_test(&g, "dataset 0 (16x16x16)", 3.5, 3.5, 1, VIS_VISIBLE, "passed: all\n");
    error_map_t m;
    memset(&m, 0, sizeof m);
    m.rows = 40, m.cols = 33, m.map_rows = 40, m.map_cols = 33;
    for (int i = 0; i < 40 * 33; i++)
        m.cells[i] = i / 33 >= 32 || i % 33 == 32 ? 'o' : '.';
    grade_attach_error_map(&m);
    grade_add_test(&g, "dataset 10 (40x7x33)", 0, 3.5, 0, VIS_VISIBLE,
                   "FAILED: 296 of 1320 elements never written\nprogram output:\n" EVIL "\n");
    grade_add_test(&g, "race-free <b>", 0, 4, 0, VIS_VISIBLE, EVIL);
    grade_set_extra_text(&g, "lab", "lab3");
    grade_set_extra_text(&g, "backend", "emu");
    g.output = strdup("1 of 2 datasets passed " EVIL);
    return g;
}

static char *student_page(const grade_t *g, const char *who, const char *back)
{
    char *text = grade_to_json(g);
    json_object *j = json_tokener_parse(text);
    cr_assert_not_null(j);
    char *html = html_student_page(j, who, back);
    json_object_put(j);
    free(text);
    return html;
}

Test(html_student, student_output_cannot_inject_markup)
{
    grade_t g = sample_grade();
    char *html = student_page(&g, "alice<script>", "../class.html");
    cr_assert_null(strstr(html, "<script"), "a script element in the page");
    cr_assert_null(strstr(html, "<img src=x"), "student markup survived");
    cr_assert_null(strstr(html, "</pre><script"));
    cr_assert_geq(count(html, "&lt;script&gt;alert(1)&lt;/script&gt;"), 3, "shown as text");
    cr_assert(strstr(html, "<h1>alice&lt;script&gt;</h1>"));
    cr_assert(strstr(html, "race-free &lt;b&gt;"));
    free(html);
    grade_free(&g);
}

Test(html_student, score_tests_error_map_and_the_link_back)
{
    grade_t g = sample_grade();
    char *html = student_page(&g, "alice", "../class.html");
    cr_assert_eq(strncmp(html, "<!DOCTYPE html>", 15), 0);
    cr_assert(strstr(html, "<b>3.5</b><span>of 11 points</span>"), "score of max");
    cr_assert_eq(count(html, "<details class=\"test "), 4, "one section per test");
    cr_assert(strstr(html, "id=\"t2\" open>"), "the failing dataset is open");
    cr_assert_eq(count(html, "data:image/png;base64,"), 1, "a map only on the failing dataset");
    cr_assert(strstr(html, "width=\"198\" height=\"240\""), "33x40 cells at 6 px each");
    cr_assert(strstr(html, "The 40x33 output, one square per 1x1 elements"));
    cr_assert(strstr(html, "<a href=\"../class.html\">"));
    cr_assert_null(strstr(html, "http"), "nothing from the network");
    free(html);
    html = student_page(&g, "build/report.html", NULL);
    cr_assert_null(strstr(html, "class.html"), "no class to link to");
    free(html);
    grade_free(&g);
}

/* ---- the class page ------------------------------------------------------------ */

typedef struct {
    class_data_t c;
    class_row_t rows[3];
    class_cell_t cells[3][2];
    char *cols[2];
    error_map_t map;
} sample_class_t;

static void sample_class(sample_class_t *s, int with_perf)
{
    memset(s, 0, sizeof *s);
    static const char *ids[3] = {"alice", "bob o'neil", "x<y>"};
    static const double totals[3] = {7, 3.5, 0};
    s->cols[0] = "compiles";
    s->cols[1] = "dataset 0 (16x16x16)";
    s->map = (error_map_t){.rows = 2, .cols = 2, .map_rows = 2, .map_cols = 2, .cells = "..xo"};
    for (int i = 0; i < 3; i++) {
        class_row_t *r = &s->rows[i];
        r->id = (char *)ids[i];
        snprintf(r->lab, sizeof r->lab, "lab3");
        r->total = totals[i];
        r->max = 7;
        r->tests = s->cells[i];
        r->ntests = 2;
        s->cells[i][0] = (class_cell_t){"compiles", 0, 0, i < 2, 0};
        s->cells[i][1] = (class_cell_t){"dataset 0 (16x16x16)", totals[i], 7, i == 0, 0};
        r->perf_ratio = with_perf && i == 0 ? 0.83 : 0;
    }
    s->rows[0].first_fail = -1;
    s->rows[1].map = &s->map;
    s->rows[1].map_test = 1;
    s->rows[1].nfailed = 1, s->rows[1].first_fail = 1;
    s->rows[1].first_why = "4 of 256 elements wrong";
    s->rows[2].no_compile = 1;
    s->rows[2].nfailed = 2, s->rows[2].first_fail = 0;
    s->c = (class_data_t){s->rows, 3, s->cols, 2, 2, NULL};
}

Test(html_class, one_row_per_student_charts_and_links)
{
    sample_class_t s;
    sample_class(&s, 0);
    class_counts_t k = {.graded = 3, .no_compile = 1, .mean = 3.5, .max = 7};
    char *html = html_class_page(&s.c, &k, NULL);
    cr_assert_eq(count(html, "<tr data-id="), 3);
    cr_assert(strstr(html, "<tr data-id=\"x&lt;y&gt;\">"));
    cr_assert(strstr(html, "<a href=\"x%3Cy%3E/report.html\">x&lt;y&gt;</a>"));
    cr_assert(strstr(html, "<a href=\"bob%20o%27neil/report.html#t1\"><img class=\"thumb\""),
              "the thumbnail links to the failing test");
    cr_assert_eq(count(html, "data:image/png;base64,"), 1);
    cr_assert(strstr(html, "data-v=\"all passed\"><span class=\"state ok\">all passed</span>"));
    cr_assert(strstr(html, "<span class=\"state bad\">1 test failed</span>"));
    cr_assert(strstr(html, "dataset 0</a><span class=\"why\">4 of 256 elements wrong</span>"));
    cr_assert(strstr(html, "<span class=\"state bad\">did not compile</span>"));
    cr_assert(strstr(html, "<a href=\"x%3Cy%3E/report.html#t0\">compiles</a>"));
    cr_assert(strstr(html, "<svg id=\"histogram\""));
    cr_assert_eq(count(html, "<rect class=\"bar\""), 10, "ten bins");
    cr_assert(strstr(html, "<svg id=\"passrate\""));
    cr_assert(strstr(html, "67% (2/3)"), "compiles passed by two of three");
    cr_assert(strstr(html, "id=\"perf-none\""), "no ratios on the emu backend: said so");
    cr_assert_null(strstr(html, "<svg id=\"perf\""));
    cr_assert(strstr(html, "<div class=\"card bad\" id=\"n-no-compile\"><b>1</b>"));
    cr_assert(strstr(html, "document.body.dataset.ready='1'"));
    cr_assert_null(strstr(html, "http:"), "nothing from the network");
    cr_assert_null(strstr(html, "https:"));
    cr_assert_null(strstr(html, "src=\"//"));
    free(html);
}

Test(html_class, performance_ratios_are_plotted_when_there_are_some)
{
    sample_class_t s;
    sample_class(&s, 1);
    class_counts_t k = {.graded = 3, .mean = 3.5, .max = 7};
    char *html = html_class_page(&s.c, &k, NULL);
    cr_assert(strstr(html, "<svg id=\"perf\""));
    cr_assert_null(strstr(html, "perf-none"));
    cr_assert_eq(count(html, "<rect class=\"bar perf\""), 15, "0.1-wide bins up to 1.5");
    cr_assert(strstr(html, "<td data-v=\"0.8300\">0.83</td>"));
    cr_assert_null(strstr(html, "perf-gpus"), "no baseline timings: no sentence on them");
    free(html);
}

/* A batch on GPUs says how much the reference's speed varied across its
 * GPUs and time (batch_baseline.h), under the ratios it qualifies. */
Test(html_class, the_gpus_spread_is_shown_under_the_ratios)
{
    sample_class_t s;
    sample_class(&s, 1);
    s.c.gpu_spread = "The batch timed the reference 3 time(s) on its GPUs; varied by 1.2% (<4096>)";
    class_counts_t k = {.graded = 3, .mean = 3.5, .max = 7};
    char *html = html_class_page(&s.c, &k, NULL);
    const char *p = strstr(html, "<p id=\"perf-gpus\">");
    cr_assert_not_null(p);
    cr_assert(p > strstr(html, "<svg id=\"perf\""), "under the ratios' chart");
    cr_assert(strstr(p, "varied by 1.2% (&lt;4096&gt;)"), "escaped");
    free(html);
}
