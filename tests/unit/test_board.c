/* test_board.c - the class leaderboard read back from results.json files
 * written by hand with known performance numbers (no GPU): the ranking (best
 * geometric mean first, equal values share a rank and go by id), the unit
 * (TFLOP/s, GB/s for a reduction lab with % of the reference), the students
 * without a timing after the ranked with why, a malformed results.json named
 * with its line and skipped while the rest is ranked, the terminal table's
 * lines, --top, several labs, and what batch_write_class_files puts in
 * class.html (the ranked table, in order) and summary.json. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch/batch.h"
#include "report/board.h"
#include "util/util.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-board-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void put(const char *id, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, id);
    cr_assert_eq(mkdir_p(path, NULL, 0), 0);
    snprintf(path, sizeof path, "%s/%s/results.json", dir, id);
    cr_assert_eq(write_file_atomic(path, text, strlen(text), NULL, 0), 0);
}

/* A timed lab3 student: TFLOP/s at the two shapes, cuBLAS at 50 and 20. */
static void timed(const char *id, double t1, double t2)
{
    char text[4096];
    double geo = sqrt(t1 * t2), pct = 100 * sqrt(t1 / 50 * t2 / 20);
    snprintf(text, sizeof text,
             "{\"score\": 100, \"leaderboard\": ["
             "{\"name\": \"TFLOP/s (geomean)\", \"value\": %.3f, \"order\": \"desc\"},"
             "{\"name\": \"%% of cuBLAS (geomean)\", \"value\": %.1f, \"order\": \"desc\"},"
             "{\"name\": \"TFLOP/s 4096x4096x4096\", \"value\": %.3f, \"order\": \"desc\"},"
             "{\"name\": \"TFLOP/s 3001x2999x3003\", \"value\": %.3f, \"order\": \"desc\"}],\n"
             "\"extra_data\": {\"lab\": \"lab3\", \"backend\": \"gpu\", \"datasets_passed\": 20,"
             " \"datasets_total\": 20, \"hidden_passed\": 8, \"hidden_total\": 8,"
             " \"performance_shapes\": ["
             "{\"shape\": \"4096x4096x4096\", \"gflops\": %g, \"cublas_gflops\": 50000,"
             " \"reference_gflops\": 45000, \"ratio_to_cublas\": %.4f, \"ratio_to_reference\": %.4f},"
             "{\"shape\": \"3001x2999x3003\", \"gflops\": %g, \"cublas_gflops\": 20000,"
             " \"reference_gflops\": 12500, \"ratio_to_cublas\": %.4f, \"ratio_to_reference\": %.4f}]},\n"
             "\"tests\": [{\"name\": \"compiles\", \"score\": 0, \"max_score\": 0, \"status\": \"passed\"},"
             "{\"name\": \"performance\", \"score\": 10, \"max_score\": 10, \"status\": \"passed\","
             " \"output\": \"on NVIDIA H100\"}]}\n",
             geo, pct, t1, t2, t1 * 1000, t1 / 50, t1 / 45, t2 * 1000, t2 / 20, t2 / 12.5);
    put(id, text);
}

/* A lab3 student who was not timed; perf_output is the performance test's. */
static void untimed(const char *id, const char *backend, int passed, int compiled,
                    const char *perf_output, const char *why)
{
    char text[2048], extra[256] = "";
    if (why)
        snprintf(extra, sizeof extra, ", \"leaderboard_why\": \"%s\"", why);
    snprintf(text, sizeof text,
             "{\"score\": 40, \"extra_data\": {\"lab\": \"lab3\", \"backend\": \"%s\","
             " \"datasets_passed\": %d, \"datasets_total\": 20, \"hidden_passed\": 8,"
             " \"hidden_total\": 8%s},\n \"tests\": [{\"name\": \"compiles\", \"status\": \"%s\"},"
             " {\"name\": \"performance\", \"score\": 0, \"max_score\": 10, \"status\": \"failed\","
             " \"output\": \"%s\"}]}\n",
             backend, passed, extra, compiled ? "passed" : "failed", perf_output);
    put(id, text);
}

/* The class of most tests: ties, a slow one, and four without a timing. */
static void sample_class(void)
{
    make_dir();
    timed("alice", 40, 10);   /* 20 TFLOP/s */
    timed("bob", 45, 20);     /* 30 */
    timed("carol", 45, 20);   /* 30: tied with bob */
    timed("dave", 5, 2);      /* 3.162 */
    untimed("erin", "emu", 20, 1, "not scored on the emu backend (0 of 0; 10 points on a GPU)", NULL);
    untimed("frank", "gpu", 18, 1, "not scored: the output must be right on every dataset first", NULL);
    untimed("gina", "gpu", 0, 0, "not run: does not compile", NULL);
    untimed("hank", "gpu", 20, 1, "on NVIDIA H100", "timed output wrong at 4096x4096x4096 (12 elements)");
}

static char *read_out(const char *name);

static board_t load(const char *lab)
{
    board_t b;
    char err[512] = "";
    cr_assert_eq(board_load(dir, lab, &b, err, sizeof err), 0, "%s", err);
    return b;
}

Test(board, ranked_best_first_ties_share_a_rank)
{
    sample_class();
    board_t b = load(NULL);
    cr_assert_eq(b.n, 8);
    cr_assert_eq(b.nranked, 4);
    const char *order[] = {"bob", "carol", "alice", "dave"};
    const int ranks[] = {1, 1, 3, 4};
    for (int i = 0; i < 4; i++) {
        cr_assert_str_eq(b.rows[i].id, order[i]);
        cr_assert_eq(b.rows[i].rank, ranks[i], "%s", order[i]);
    }
    cr_assert_float_eq(b.rows[0].value, 30, 1e-9);
    cr_assert_float_eq(b.rows[2].percent, 63.2, 1e-9);
    cr_assert_eq(b.rows[2].nshapes, 2);
    cr_assert_str_eq(b.rows[2].shapes[1].shape, "3001x2999x3003");
    cr_assert_float_eq(b.rows[2].shapes[1].value, 10, 1e-9);
    cr_assert_float_eq(b.rows[2].shapes[1].percent, 50, 1e-9);
    cr_assert_str_eq(b.unit, "TFLOP/s");
    cr_assert_str_eq(b.baseline, "cuBLAS");
    cr_assert_str_eq(b.lab, "lab3");
    cr_assert_eq(b.nshapes, 2);
    board_free(&b);
    rm_rf(dir);
}

Test(board, students_without_a_timing_come_after_with_why)
{
    sample_class();
    board_t b = load("lab3");
    const char *ids[] = {"erin", "frank", "gina", "hank"};
    const char *why[] = {"not timed on the emu backend (timed on a GPU only)",
                         "did not pass correctness (18 of 20 datasets, 8 of 8 hidden)",
                         "did not compile", "timed output wrong at 4096x4096x4096 (12 elements)"};
    for (int i = 0; i < 4; i++) {
        cr_assert_str_eq(b.rows[4 + i].id, ids[i]);
        cr_assert_eq(b.rows[4 + i].rank, 0);
        cr_assert_str_eq(b.rows[4 + i].why, why[i]);
    }
    board_free(&b);
    rm_rf(dir);
}

Test(board, a_failed_timing_says_so_in_the_performance_tests_words)
{
    make_dir();
    untimed("kai", "gpu", 20, 1, "timed alone on GPU 0 (waited 0.0 s in its timing queue)\\n"
                                 "FAILED: the timing program was killed by signal 9\\nlog", NULL);
    put("lee", "{\"extra_data\": {\"lab\": \"lab3\"}, \"tests\": [{\"name\": \"compiles\", \"status\": \"passed\"}]}");
    board_t b = load(NULL);
    cr_assert_eq(b.nranked, 0);
    cr_assert_str_eq(b.rows[0].why, "performance test: FAILED: the timing program was killed by signal 9");
    cr_assert_str_eq(b.rows[1].why, "no performance test in its results.json");
    board_free(&b);
    rm_rf(dir);
}

Test(board, malformed_results_json_is_named_with_its_line_and_skipped)
{
    sample_class();
    put("ivan", "{\"score\": 10,\n \"tests\": [\n  {\"name\": \"x\",, }\n]}\n");
    put("jack", "{\"score\": 10, \"leaderboard\": [{\"name\": \"TFLOP/s (geomean)\", \"value\": \"fast\"}]}");
    put("kim", "{\"score\": 10,\n");
    board_t b = load(NULL);
    cr_assert_eq(b.n, 8, "the others are still ranked");
    cr_assert_eq(b.nranked, 4);
    cr_assert_eq(b.nskipped, 3);
    char want[256];
    snprintf(want, sizeof want, "%s/ivan/results.json:3: not JSON: ", dir);
    cr_assert_eq(strncmp(b.skipped[0], want, strlen(want)), 0, "%s", b.skipped[0]);
    snprintf(want, sizeof want, "%s/jack/results.json: \"leaderboard\" entry 1 needs a \"name\", "
                                "a number \"value\" and an \"order\" of \"asc\" or \"desc\"", dir);
    cr_assert_str_eq(b.skipped[1], want);
    snprintf(want, sizeof want, "%s/kim/results.json:2: not JSON: the file ends inside a value", dir);
    cr_assert_str_eq(b.skipped[2], want);
    board_free(&b);
    rm_rf(dir);
}

Test(board, reduction_lab_ranks_in_gbs_against_the_reference)
{
    make_dir();
    const char *fmt = "{\"leaderboard\": [{\"name\": \"GB/s (geomean)\", \"value\": %s, \"order\": \"desc\"},"
                      "{\"name\": \"%% of reference (geomean)\", \"value\": %s, \"order\": \"desc\"},"
                      "{\"name\": \"GB/s 67108864\", \"value\": %s, \"order\": \"desc\"}],"
                      " \"extra_data\": {\"lab\": \"dotprod\", \"performance_shapes\": [{\"shape\": "
                      "\"67108864\", \"gbs\": %s, \"cublas_gbs\": null, \"reference_gbs\": 3100,"
                      " \"ratio_to_cublas\": null, \"ratio_to_reference\": %s}]}}";
    char text[1024];
    snprintf(text, sizeof text, fmt, "2950.4", "95.2", "2950.4", "2950.44", "0.9518");
    put("s1", text);
    snprintf(text, sizeof text, fmt, "3200", "103.2", "3200", "3200", "1.0323");
    put("s2", text);
    board_t b = load(NULL);
    cr_assert_str_eq(b.unit, "GB/s");
    cr_assert_str_eq(b.baseline, "reference");
    cr_assert_str_eq(b.rows[0].id, "s2");
    cr_assert_float_eq(b.rows[1].shapes[0].percent, 95.18, 1e-9);
    strbuf_t sb = {0};
    board_text(&sb, &b, 0);
    cr_assert_str_eq(sb_str(&sb),
                     "dotprod leaderboard: 2 of 2 students ranked by GB/s (geometric mean over 1 shape), best first\n"
                     "rank  student    GB/s  % of reference         67108864\n"
                     "   1  s2       3200.0          103.2%  3200.0 (103.2%)\n"
                     "   2  s1       2950.4           95.2%   2950.4 (95.2%)\n");
    sb_free(&sb);
    board_free(&b);
    rm_rf(dir);
}

Test(board, terminal_table_one_aligned_line_per_student)
{
    sample_class();
    board_t b = load(NULL);
    strbuf_t sb = {0};
    board_text(&sb, &b, 0);
    cr_assert_str_eq(sb_str(&sb),
                     "lab3 leaderboard: 4 of 8 students ranked by TFLOP/s (geometric mean over 2 shapes), best first\n"
                     "rank  student  TFLOP/s  % of cuBLAS  4096x4096x4096   3001x2999x3003\n"
                     "   1  bob       30.000        94.9%  45.000 (90.0%)  20.000 (100.0%)\n"
                     "   1  carol     30.000        94.9%  45.000 (90.0%)  20.000 (100.0%)\n"
                     "   3  alice     20.000        63.2%  40.000 (80.0%)   10.000 (50.0%)\n"
                     "   4  dave       3.162        10.0%   5.000 (10.0%)    2.000 (10.0%)\n"
                     "   -  erin     not timed on the emu backend (timed on a GPU only)\n"
                     "   -  frank    did not pass correctness (18 of 20 datasets, 8 of 8 hidden)\n"
                     "   -  gina     did not compile\n"
                     "   -  hank     timed output wrong at 4096x4096x4096 (12 elements)\n");
    sb_free(&sb);
    board_text(&sb, &b, 1);
    cr_assert_str_eq(sb_str(&sb),
                     "lab3 leaderboard: 4 of 8 students ranked by TFLOP/s (geometric mean over 2 shapes), best first\n"
                     "rank  student  TFLOP/s  % of cuBLAS  4096x4096x4096   3001x2999x3003\n"
                     "   1  bob       30.000        94.9%  45.000 (90.0%)  20.000 (100.0%)\n"
                     "   1  carol     30.000        94.9%  45.000 (90.0%)  20.000 (100.0%)\n"
                     "(--top 1: 6 more not shown)\n");
    sb_free(&sb);
    board_free(&b);
    rm_rf(dir);
}

Test(board, no_section_in_class_html_for_a_lab_without_a_performance_test)
{
    make_dir();
    put("a", "{\"score\": 5, \"extra_data\": {\"lab\": \"lab2\", \"backend\": \"emu\"},"
             " \"tests\": [{\"name\": \"compiles\", \"status\": \"passed\"}]}");
    char err[512] = "";
    cr_assert_eq(batch_write_class_files(dir, NULL, err, sizeof err), 0, "%s", err);
    char *html = read_out("class.html");
    cr_assert_null(strstr(html, "id=\"leaderboard\""));
    free(html);
    rm_rf(dir);
}

Test(board, control_characters_never_reach_the_terminal)
{
    make_dir();
    untimed("x\033[2Jy", "emu", 20, 1, "not scored on the emu backend", NULL);
    board_t b = load(NULL);
    strbuf_t sb = {0};
    board_text(&sb, &b, 0);
    cr_assert(strstr(sb_str(&sb), "   -  x?[2Jy   not timed"), "%s", sb_str(&sb));
    cr_assert_null(strchr(sb_str(&sb), '\033'));
    sb_free(&sb);
    board_free(&b);
    rm_rf(dir);
}

Test(board, nobody_timed_on_the_emulator)
{
    make_dir();
    untimed("a", "emu", 20, 1, "not scored on the emu backend", NULL);
    untimed("bb", "emu", 3, 1, "not scored on the emu backend", NULL);
    board_t b = load(NULL);
    strbuf_t sb = {0};
    board_text(&sb, &b, 0);
    cr_assert_str_eq(sb_str(&sb),
                     "lab3 leaderboard: nobody ranked (2 students, none with a usable GPU timing)\n"
                     "rank  student  why not ranked\n"
                     "   -  a        not timed on the emu backend (timed on a GPU only)\n"
                     "   -  bb       did not pass correctness (3 of 20 datasets, 8 of 8 hidden)\n");
    sb_free(&sb);
    board_free(&b);
    rm_rf(dir);
}

/* The executor's backend: a student whose launches a GPU replayed and
 * timed is told the timing's own reason, not that vgpu is never timed; one
 * graded on the executor alone is not timed. */
Test(board, executor_students_timed_by_replay_are_told_the_timings_reason)
{
    make_dir();
    untimed("replayed", "vgpu", 20, 1, "on NVIDIA H100", "timed output wrong at 4096x4096x4096 (3 elements)");
    untimed("alone", "vgpu", 20, 1, "not scored on the vgpu backend (0 of 0; 10 points on a GPU)", NULL);
    board_t b = load(NULL);
    strbuf_t sb = {0};
    board_text(&sb, &b, 0);
    cr_assert(strstr(sb_str(&sb), "replayed  timed output wrong at 4096x4096x4096 (3 elements)\n"), "%s",
              sb_str(&sb));
    cr_assert(strstr(sb_str(&sb), "alone     not timed on the vgpu backend (timed on a GPU only)\n"), "%s",
              sb_str(&sb));
    sb_free(&sb);
    board_free(&b);
    rm_rf(dir);
}

/* --top cuts a ranking; with nobody ranked there is none to cut, and the
 * reasons stay (they were hidden behind "(--top 3: 2 more not shown)"). */
Test(board, top_with_nobody_ranked_still_shows_why)
{
    make_dir();
    untimed("a", "emu", 20, 1, "not scored on the emu backend", NULL);
    untimed("bb", "emu", 3, 1, "not scored on the emu backend", NULL);
    board_t b = load(NULL);
    strbuf_t sb = {0};
    board_text(&sb, &b, 3);
    cr_assert(strstr(sb_str(&sb), "   -  a        not timed on the emu backend"), "%s", sb_str(&sb));
    cr_assert(strstr(sb_str(&sb), "   -  bb       did not pass correctness"), "%s", sb_str(&sb));
    cr_assert_null(strstr(sb_str(&sb), "not shown"), "%s", sb_str(&sb));
    sb_free(&sb);
    board_free(&b);
    rm_rf(dir);
}

/* A submission that broke the lab's rule is off the board for that, not
 * for "did not compile" (on the emulator <mma.h> does not build): issue 38
 * item 10. */
Test(board, a_broken_rule_is_the_reason_not_the_compile)
{
    make_dir();
    put("tc", "{\"score\": 0, \"extra_data\": {\"lab\": \"challenge\", \"backend\": \"emu\","
              " \"datasets_passed\": 0, \"datasets_total\": 27, \"rule_broken\": \"rule fp32-simt:"
              " the submission uses tensor cores (tc.cu:14: #include <mma.h>)\"},\n"
              " \"tests\": [{\"name\": \"compiles\", \"status\": \"failed\"},"
              " {\"name\": \"performance\", \"score\": 0, \"max_score\": 0, \"status\": \"failed\","
              " \"output\": \"FAILED: rule fp32-simt\"}]}\n");
    board_t b = load(NULL);
    strbuf_t sb = {0};
    board_text(&sb, &b, 0);
    cr_assert(strstr(sb_str(&sb), "broke rule fp32-simt: uses tensor cores\n"), "%s", sb_str(&sb));
    cr_assert_null(strstr(sb_str(&sb), "did not compile"), "%s", sb_str(&sb));
    sb_free(&sb);
    board_free(&b);
    rm_rf(dir);
}

Test(board, several_labs_need_a_choice)
{
    sample_class();
    put("zoe", "{\"extra_data\": {\"lab\": \"dotprod\", \"backend\": \"emu\"}, \"tests\": []}");
    board_t b;
    char err[512];
    cr_assert_eq(board_load(dir, NULL, &b, err, sizeof err), -1);
    cr_assert(strstr(err, "several labs (lab3, dotprod, ...): choose one with --lab"), "%s", err);
    board_free(&b);
    b = load("dotprod");
    cr_assert_eq(b.n, 1);
    cr_assert_eq(b.other_labs, 8);
    board_free(&b);
    rm_rf(dir);
}

Test(board, empty_and_missing_folders)
{
    make_dir();
    board_t b = load(NULL);
    cr_assert_eq(b.n, 0);
    strbuf_t sb = {0};
    board_text(&sb, &b, 0);
    cr_assert_str_eq(sb_str(&sb), "no graded submissions to rank (no results.json)\n");
    sb_free(&sb);
    board_free(&b);
    char err[512], missing[128];
    snprintf(missing, sizeof missing, "%s/nope", dir);
    cr_assert_eq(board_load(missing, NULL, &b, err, sizeof err), -1);
    cr_assert(strstr(err, "cannot read the results folder"));
    board_free(&b);
    rm_rf(dir);
}

static char *read_out(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(text, "no %s", name);
    return text;
}

/* In the order they appear in the leaderboard table of class.html. */
Test(board, class_html_and_summary_json_have_the_leaderboard)
{
    sample_class();
    char err[512] = "";
    cr_assert_eq(batch_write_class_files(dir, NULL, err, sizeof err), 0, "%s", err);
    char *html = read_out("class.html");
    const char *table = strstr(html, "<table id=\"leaderboard-table\">");
    cr_assert_not_null(table);
    const char *end = strstr(table, "</table>");
    const char *ids[] = {"bob", "carol", "alice", "dave", "erin", "frank", "gina", "hank"};
    const char *at = table;
    for (int i = 0; i < 8; i++) {
        char tr[64];
        snprintf(tr, sizeof tr, "<tr class=\"%s\" data-id=\"%s\">",
                 i < 2 ? "ranked top" : i < 4 ? "ranked" : "unranked", ids[i]);
        const char *p = strstr(at, tr);
        cr_assert(p && p < end, "%s is not next in the leaderboard", ids[i]);
        at = p;
    }
    cr_assert(strstr(html, "<td class=\"num\">3</td><td><a href=\"alice/report.html\">alice</a></td>"
                           "<td class=\"num\" data-v=\"20\">20.000</td>"
                           "<td class=\"num pct\" data-v=\"63.2\">63.2%</td>"));
    cr_assert(strstr(html, "<td class=\"why\" colspan=\"6\">did not pass correctness (18 of 20 "
                           "datasets, 8 of 8 hidden)</td>"));
    free(html);
    char *text = read_out("summary.json");
    json_object *sum = json_tokener_parse(text), *lb, *ranked, *not_ranked;
    free(text);
    cr_assert(json_object_object_get_ex(sum, "leaderboard", &lb));
    cr_assert(json_object_object_get_ex(lb, "ranked", &ranked));
    cr_assert(json_object_object_get_ex(lb, "not_ranked", &not_ranked));
    cr_assert_eq(json_object_array_length(ranked), 4);
    cr_assert_eq(json_object_array_length(not_ranked), 4);
    json_object *first = json_object_array_get_idx(ranked, 0), *v;
    cr_assert(json_object_object_get_ex(first, "id", &v));
    cr_assert_str_eq(json_object_get_string(v), "bob");
    json_object_put(sum);
    rm_rf(dir);
}
