/* test_hidden_set.c - end to end: the hidden datasets (issue 14, item 3).
 * A correct kernel passes every one; a submission that hard-codes the
 * public outputs (tests/attacks/hardcodes_public.cu) passes the public
 * datasets it knows and fails every hidden one, scoring less than an honest
 * kernel; another secret gives other hidden datasets; the report (terminal,
 * results.json, HTML) names them only by their shapes and never prints
 * their expected values; a malformed "hidden" section in the rubric stops
 * grading with its file and line; and the sandbox hides their folder from a
 * program that looks for it (tests/attacks/reads_hidden_expected.cu, the
 * object check off). The hidden datasets come from tests/fixtures/hidden/seed
 * (e2e.h). Runs from the repository root. */
#include <regex.h>

#include "e2e.h"
#include "run/sandbox.h"

#define ATTACKS "tests/attacks/"
#define NHIDDEN 8
#define HIDDEN_POINTS 2.5

static json_object *extra_of(const graded_t *g)
{
    json_object *extra;
    cr_assert(json_object_object_get_ex(g->json, "extra_data", &extra), "%s", g->run.output);
    return extra;
}

/* "hidden dataset K (MxKxN)" for K = 1..NHIDDEN, in order after the public ones. */
static void expect_hidden_names(const graded_t *g, const char *shape_re, char names[][64])
{
    regex_t re;
    char pattern[128];
    snprintf(pattern, sizeof pattern, "^hidden dataset ([1-8]) \\(%s\\)$", shape_re);
    cr_assert_eq(regcomp(&re, pattern, REG_EXTENDED), 0);
    json_object *tests = tests_of(g);
    int k = 0;
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        const char *name = str(json_object_array_get_idx(tests, i), "name");
        if (strncmp(name, "hidden", 6) != 0)
            continue;
        regmatch_t m[2];
        cr_assert_eq(regexec(&re, name, 2, m, 0), 0, "test name '%s'", name);
        cr_expect_eq(atoi(name + m[1].rm_so), ++k, "%s", name);
        if (names)
            snprintf(names[k - 1], 64, "%s", name);
    }
    cr_expect_eq(k, NHIDDEN);
    regfree(&re);
}

static int hidden_passed(const graded_t *g) { return (int)num(extra_of(g), "hidden_passed"); }

Test(hidden_set, a_correct_kernel_passes_every_hidden_dataset, .timeout = 180)
{
    const char *extra[] = {"--checks", "none", NULL};
    graded_t g = grade("reference", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    expect_hidden_names(&g, "[0-9]+x[0-9]+x[0-9]+", NULL);
    cr_expect_eq(hidden_passed(&g), NHIDDEN);
    cr_expect_eq((int)num(extra_of(&g), "hidden_total"), NHIDDEN);
    for (int k = 1; k <= NHIDDEN; k++) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "hidden dataset %d (", k);
        json_object *t = test_named(&g, prefix);
        cr_expect(passed(t), "%s", str(t, "output"));
        cr_expect_float_eq(num(t, "score"), HIDDEN_POINTS, 1e-9);
    }
    cr_expect(strstr(g.run.output, "PASS     90/90   datasets 0\xE2\x80\x93" "19 and hidden "
                                   "1\xE2\x80\x93" "8 (all 28)"), "%s", g.run.output);
    cr_expect(strstr(g.run.output, "(20 of 20 datasets and 8 of 8 hidden ones passed"), "%s",
              g.run.output);
    release(&g);
}

/* The attack knows datasets 8, 10, 15, 17 and 18 and nothing else. */
Test(hidden_set, hard_coded_public_outputs_fail_every_hidden_dataset, .timeout = 180)
{
    graded_t g = grade(ATTACKS "hardcodes_public.cu", NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    static const int known[] = {8, 10, 15, 17, 18};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "dataset %d (", known[i]);
        cr_expect(passed(test_named(&g, prefix)), "%s: the stored answer passes", prefix);
    }
    cr_expect_eq((int)num(extra_of(&g), "datasets_passed"), 5);
    cr_expect_eq(hidden_passed(&g), 0, "%s", g.run.output);
    for (int k = 1; k <= NHIDDEN; k++) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "hidden dataset %d (", k);
        cr_expect(!passed(test_named(&g, prefix)), "%s passed", prefix);
    }
    double cheat = num(g.json, "score");
    release(&g);
    const char *extra[] = {"--checks", "all", NULL};
    graded_t honest = grade("reference", extra);
    cr_expect_float_eq(cheat, 5 * 3.5, 1e-9, "the five public datasets only");
    cr_expect_lt(cheat, num(honest.json, "score"), "hard-coding %g, an honest kernel %g", cheat,
                 num(honest.json, "score"));
    release(&honest);
}

Test(hidden_set, another_secret_other_hidden_datasets, .timeout = 180)
{
    const char *mine[] = {"--checks", "none", NULL};
    const char *other[] = {"--checks", "none", "--hidden-seed", OTHER_HIDDEN_SEED, NULL};
    char a[NHIDDEN][64], b[NHIDDEN][64];
    graded_t ga = grade("reference", mine), gb = grade("reference", other);
    expect_hidden_names(&ga, "[0-9x]+", a);
    expect_hidden_names(&gb, "[0-9x]+", b);
    cr_expect_str_eq(a[0], "hidden dataset 1 (1x1x1)", "the tiny family comes first");
    cr_expect_str_eq(b[0], a[0]);
    int same = 0;
    for (int k = 1; k < NHIDDEN; k++)
        same += strcmp(a[k], b[k]) == 0;
    cr_expect_lt(same, 2, "another secret draws other shapes");
    cr_expect_eq(hidden_passed(&gb), NHIDDEN);
    release(&ga);
    release(&gb);
}

Test(hidden_set, a_malformed_hidden_section_stops_grading_naming_the_file_and_line,
     .timeout = 60)
{
    char dir[] = "/tmp/cugrade-e2e-hr-XXXXXX", rubric[64], where[160];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(rubric, sizeof rubric, "%s/rubric.json", dir);
    write_text(rubric, "{\n  \"version\": 1,\n  \"labs\": {\n    \"lab3\": {\n"
                       "      \"datasets\": { \"points\": 3.5 },\n"
                       "      \"hidden\": {\n        \"count\": \"eight\"\n      }\n    }\n  }\n}\n");
    const char *extra[] = {"--rubric", rubric, NULL};
    graded_t g = grade("reference", extra);
    cr_assert_eq(exit_code(&g), 2, "%s", g.run.output);
    cr_assert_null(g.json, "no grade from a broken rubric");
    snprintf(where, sizeof where, "%s:7: labs.lab3.hidden.count: must be a whole number from 0",
             rubric);
    cr_assert(strstr(g.run.output, where), "%s", g.run.output);
    release(&g);
    rm_rf(dir);
}

/* ---- what the report shows ------------------------------------------------------------ */

/* Hidden dataset k's expected output, as the tests' secret makes it (the
 * same as `cugrade dataset --hidden` writes): rows*cols values. */
typedef struct {
    int rows, cols;
    float *v;
} expected_t;

static void hidden_expected(const char *lab, expected_t *out)
{
    char dir[64], path[128];
    snprintf(dir, sizeof dir, "/tmp/cugrade-e2e-hv-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char *argv[] = {"bin/cugrade", "dataset", "--lab", (char *)lab, "--hidden", "8", "--out", dir,
                    NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 60};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    run_result_free(&r);
    for (int k = 0; k < NHIDDEN; k++) {
        snprintf(path, sizeof path, "%s/%d/output.raw", dir, k + 1);
        FILE *f = fopen(path, "r");
        cr_assert_not_null(f, "%s", path);
        char header[64]; /* "rows cols", or a vector's "n" */
        cr_assert_not_null(fgets(header, sizeof header, f));
        if (sscanf(header, "%d %d", &out[k].rows, &out[k].cols) != 2)
            out[k].cols = 1;
        out[k].v = malloc(sizeof(float) * (size_t)out[k].rows * out[k].cols);
        for (int i = 0; i < out[k].rows * out[k].cols; i++)
            cr_assert_eq(fscanf(f, "%f", &out[k].v[i]), 1, "%s", path);
        fclose(f);
    }
    rm_rf(dir);
}

/* Hidden dataset k's message: no errors against the expected output, and
 * for each mismatch it shows, the expected value at that place is not in
 * the line (a reduction's: the one expected sum is nowhere). */
static void expect_message_without_values(const char *name, const char *out, const expected_t *e)
{
    cr_expect_null(strstr(out, "expected, got"), "%s: %s", name, out);
    cr_expect_null(strstr(out, "max abs err"), "%s: %s", name, out);
    char value[32];
    if (e->rows * e->cols == 1) {
        snprintf(value, sizeof value, "%.9g", (double)e->v[0]);
        cr_expect_null(strstr(out, value), "%s shows its expected %s: %s", name, value, out);
    }
    for (const char *line = strstr(out, "\n  ("); line; line = strstr(line + 1, "\n  (")) {
        int r, c;
        if (sscanf(line, "\n  (%d, %d):", &r, &c) != 2 || r >= e->rows || c >= e->cols)
            continue;
        snprintf(value, sizeof value, "%.9g", (double)e->v[(size_t)r * e->cols + c]);
        size_t len = strcspn(line + 1, "\n");
        char text[256];
        snprintf(text, sizeof text, "%.*s", (int)(len < 255 ? len : 255), line + 1);
        cr_expect_null(strstr(text, value), "%s: the expected value %s at (%d, %d): %s", name,
                       value, r, c, text);
    }
}

/* The terminal: a block whose first dataset is a hidden one never has an
 * "expected, got" mismatch list. */
static void expect_terminal_without_values(const char *report)
{
    int hidden_block = 0;
    for (const char *line = report; line && *line;) {
        const char *nl = strchr(line, '\n');
        int len = nl ? (int)(nl - line) : (int)strlen(line);
        char text[512];
        snprintf(text, sizeof text, "%.*s", len < 511 ? len : 511, line);
        if (strncmp(text, "  PASS", 6) == 0 || strncmp(text, "  FAIL", 6) == 0)
            hidden_block = strstr(text, "hidden dataset ") && !strstr(text, " datasets ");
        if (strstr(text, "the first of them:"))
            hidden_block = strncmp(text + strspn(text, " "), "hidden ", 7) == 0;
        cr_expect(!hidden_block || !strstr(text, "expected, got"), "%s", report);
        line = nl ? nl + 1 : NULL;
    }
}

static void expect_hidden_values_never_shown(const char *lab, const char *submission)
{
    expected_t e[NHIDDEN];
    hidden_expected(lab, e);
    char html[128];
    const char *extra[] = {"--lab", lab, "--checks", "none", "--html", html, NULL};
    snprintf(html, sizeof html, "/tmp/cugrade-e2e-hv-%d.html", (int)getpid());
    graded_t g = grade(submission, extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_expect_lt(hidden_passed(&g), NHIDDEN, "%s fails some", submission);
    json_object *tests = tests_of(&g);
    int shown_publicly = 0, shown_hidden = 0;
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        json_object *t = json_object_array_get_idx(tests, i);
        const char *name = str(t, "name"), *out = str(t, "output");
        int k;
        if (sscanf(name, "hidden dataset %d (", &k) == 1 && k >= 1 && k <= NHIDDEN) {
            expect_message_without_values(name, out, &e[k - 1]);
            shown_hidden += !passed(t);
        } else {
            shown_publicly += strstr(out, "expected, got") != NULL;
        }
    }
    cr_expect_gt(shown_hidden, 0);
    expect_terminal_without_values(g.run.output);
    /* the page shows the messages results.json has: the public ones with the
     * expected values, no hidden one */
    char *page = read_file(html, NULL, NULL, 0);
    cr_assert_not_null(page, "no HTML report");
    int on_page = 0;
    for (const char *p = strstr(page, "expected, got"); p; p = strstr(p + 1, "expected, got"))
        on_page++;
    cr_expect_eq(on_page, shown_publicly, "%d mismatch lists with expected values on the page, "
                 "%d public datasets have one", on_page, shown_publicly);
    free(page);
    unlink(html);
    for (int k = 0; k < NHIDDEN; k++)
        free(e[k].v);
    release(&g);
}

Test(hidden_set, the_report_never_shows_a_hidden_expected_value, .timeout = 240)
{
    expect_hidden_values_never_shown("lab3", SUB "transposed_b.cu");
}

Test(hidden_set, nor_a_hidden_expected_sum, .timeout = 300)
{
    expect_hidden_values_never_shown("dotprod", "tests/submissions/dotprod/non_pow2_block.cu");
}

/* The sandbox alone (no object check): the hidden set's folder next to the
 * scratch folder is not there for the program. */
Test(hidden_set, the_program_cannot_read_the_hidden_outputs, .timeout = 180)
{
    if (!sandbox_available())
        cr_skip_test("%s", sandbox_description());
    char *env[] = {"CUGRADE_OBJCHECK=off", NULL};
    const char *extra[] = {"--checks", "none", NULL};
    graded_t g = grade_on("emu", ATTACKS "reads_hidden_expected.cu", extra, env);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_expect_eq(hidden_passed(&g), 0, "%s", g.run.output);
    cr_expect_eq(num(g.json, "score"), 0, "%s", g.run.output);
    for (int k = 1; k <= NHIDDEN; k++) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "hidden dataset %d (", k);
        const char *out = str(test_named(&g, prefix), "output");
        cr_expect(strstr(out, "never written"), "%s: %s", prefix, out);
    }
    release(&g);
}
