/* html_report.c - a student's HTML report page, rendered from results.json
 * (the helpers every page shares are html_common.c's). */
#include "report/html_report.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_roofline.h"

#define MAP_PX 256 /* the error map on a student's page, at most, a side */

static const char student_css[] =
    ".scorebox{float:right;text-align:right;margin-top:-2px}"
    ".scorebox b{font-size:30px;font-weight:650;display:block;line-height:1.1}"
    ".scorebox span{color:#c3cce0}"
    ".summary{margin-bottom:14px}"
    ".tests{display:flex;flex-direction:column;gap:8px}"
    "details.test{background:#fff;border:1px solid var(--line);border-left:5px solid var(--pass);"
    "border-radius:6px}"
    "details.test.fail{border-left-color:var(--fail)}details.test.skip{border-left-color:var(--skip)}"
    "details.test summary{cursor:pointer;padding:7px 12px;display:flex;gap:12px;align-items:center}"
    "summary .name{flex:1;font-weight:600}"
    "summary .pts{font-variant-numeric:tabular-nums;color:var(--muted);white-space:nowrap}"
    ".testbody{padding:2px 12px 12px;display:flex;gap:18px;align-items:flex-start;flex-wrap:wrap}"
    ".testbody pre{flex:1;min-width:340px;background:#f7f8fa;border:1px solid #eceff4;"
    "border-radius:4px;padding:8px 10px}"
    "figure{margin:0}figcaption{max-width:330px;margin-top:6px}"
    "figure.roof{flex:1 1 520px;max-width:640px}figure.roof figcaption{max-width:640px}";

/* ---- reading results.json ---------------------------------------------------------- */

static json_object *member(json_object *o, const char *key)
{
    json_object *v = NULL;
    return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *text_of(json_object *o, const char *key)
{
    json_object *v = member(o, key);
    return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

static double number_of(json_object *o, const char *key)
{
    json_object *v = member(o, key);
    return v ? json_object_get_double(v) : 0;
}

static double max_total(json_object *tests)
{
    double max = 0;
    for (size_t i = 0; tests && i < json_object_array_length(tests); i++)
        max += number_of(json_object_array_get_idx(tests, i), "max_score");
    return max;
}

/* ---- the student page --------------------------------------------------------------- */

static void student_header(strbuf_t *sb, json_object *results, const char *who,
                           const char *class_href)
{
    json_object *extra = member(results, "extra_data");
    sb_append(sb, "<header><div class=\"wrap\"><div class=\"scorebox\"><b>");
    html_number(sb, number_of(results, "score"));
    sb_append(sb, "</b><span>of ");
    html_number(sb, max_total(member(results, "tests")));
    sb_append(sb, " points</span></div><h1>");
    html_escape(sb, who);
    sb_append(sb, "</h1><div class=\"sub\">");
    if (*text_of(extra, "lab")) {
        html_escape(sb, text_of(extra, "lab"));
        sb_append(sb, " &middot; ");
    }
    if (*text_of(extra, "backend")) {
        html_escape(sb, text_of(extra, "backend"));
        sb_append(sb, " backend &middot; ");
    }
    html_escape(sb, text_of(extra, "submission_file"));
    if (class_href) {
        sb_append(sb, " &middot; <a href=\"");
        html_escape(sb, class_href);
        sb_append(sb, "\">&larr; class report</a>");
    }
    sb_append(sb, "</div></div></header>\n");
}

/* passed, failed, or skipped (0 of 0, "not scored ...") */
static const char *test_state(json_object *t)
{
    if (number_of(t, "max_score") == 0 && strncmp(text_of(t, "output"), "not scored", 10) == 0)
        return "skip";
    return strcmp(text_of(t, "status"), "passed") == 0 ? "pass" : "fail";
}

static void test_map(strbuf_t *sb, json_object *t)
{
    error_map_t m;
    if (error_map_from_json(member(member(t, "extra_data"), "error_map"), &m) != 0)
        return;
    strbuf_t alt = {0};
    sb_appendf(&alt, "error map of %s", text_of(t, "name"));
    sb_append(sb, "<figure>");
    html_error_map_img(sb, &m, MAP_PX, "map", sb_str(&alt));
    sb_appendf(sb, "<figcaption class=\"legend\">The %dx%d output, one square per %dx%d "
                   "elements, row 0 on top.<br>",
               m.rows, m.cols, error_map_cell_rows(&m), error_map_cell_cols(&m));
    html_error_map_legend(sb);
    sb_append(sb, "</figcaption></figure>");
    sb_free(&alt);
}

/* The performance test's roofline (results.json extra_data "roofline"). */
static void test_roofline(strbuf_t *sb, json_object *t, const roofline_t *rl)
{
    if (!rl || strcmp(text_of(t, "name"), "performance") != 0)
        return;
    sb_append(sb, "<figure class=\"roof\">");
    html_roofline_svg(sb, rl, NULL, 0, "roofline");
    sb_append(sb, "<figcaption class=\"legend\">");
    html_roofline_caption(sb, rl);
    sb_append(sb, "</figcaption></figure>");
}

static void test_section(strbuf_t *sb, json_object *t, size_t index, const roofline_t *rl)
{
    const char *state = test_state(t);
    sb_appendf(sb, "<details class=\"test %s\" id=\"t%zu\"%s><summary><span class=\"badge %s\">%s"
                   "</span><span class=\"name\">",
               state, index, strcmp(state, "fail") == 0 ? " open" : "", state,
               strcmp(state, "pass") == 0 ? "PASS" : strcmp(state, "fail") == 0 ? "FAIL" : "SKIP");
    html_escape(sb, text_of(t, "name"));
    sb_append(sb, "</span><span class=\"pts\">");
    html_number(sb, number_of(t, "score"));
    sb_append(sb, " / ");
    html_number(sb, number_of(t, "max_score"));
    sb_append(sb, "</span></summary><div class=\"testbody\">");
    test_map(sb, t);
    test_roofline(sb, t, rl);
    sb_append(sb, "<pre>");
    html_escape(sb, text_of(t, "output"));
    sb_append(sb, "</pre></div></details>\n");
}

/* A test a compile failure kept from running ("not run: does not compile"). */
static int is_gated(json_object *t)
{
    return strcmp(text_of(t, "output"), "not run: does not compile\n") == 0;
}

/* The tests a compile failure kept from running, as one card (as the
 * terminal report has one line for them): how many, their points, names. */
static void gated_section(strbuf_t *sb, json_object *tests, size_t n)
{
    size_t count = 0;
    double max = 0;
    for (size_t i = 0; i < n; i++)
        if (is_gated(json_object_array_get_idx(tests, i)))
            count++, max += number_of(json_object_array_get_idx(tests, i), "max_score");
    char why[160] = "the submission does not compile";
    for (size_t i = 0; i < n; i++) { /* the "compiles" test says why, as in the terminal */
        const char *out = text_of(json_object_array_get_idx(tests, i), "output");
        const char *found = strstr(out, " found");
        if (strncmp(out, "FAILED: no ", 11) == 0 && found)
            snprintf(why, sizeof why, "%.*s", (int)(found + 6 - (out + 8)), out + 8);
        else if (strncmp(out, "FAILED: ", 8) == 0 && strstr(out, " is empty (0 bytes)"))
            snprintf(why, sizeof why, "the file is empty");
    }
    sb_appendf(sb, "<details class=\"test fail\" id=\"not-run\"><summary><span class=\"badge "
                   "fail\">FAIL</span><span class=\"name\">the other %zu tests: not run, ",
               count);
    html_escape(sb, why);
    sb_append(sb, "</span><span class=\"pts\">0 / ");
    html_number(sb, max);
    sb_append(sb, "</span></summary><div class=\"testbody\"><pre>");
    for (size_t i = 0, shown = 0; i < n; i++) {
        json_object *t = json_object_array_get_idx(tests, i);
        if (!is_gated(t))
            continue;
        sb_append(sb, shown++ ? ", " : "");
        html_escape(sb, text_of(t, "name"));
    }
    sb_append(sb, "</pre></div></details>\n");
}

char *html_student_page(json_object *results, const char *who, const char *class_href)
{
    strbuf_t sb = {0}, title = {0};
    sb_appendf(&title, "cugrade: %s", who);
    html_page_start(&sb, sb_str(&title), student_css);
    sb_free(&title);
    student_header(&sb, results, who, class_href);
    sb_append(&sb, "<main class=\"wrap\">\n");
    if (*text_of(results, "output")) {
        sb_append(&sb, "<div class=\"card summary\"><pre>");
        html_escape(&sb, text_of(results, "output"));
        sb_append(&sb, "</pre></div>\n");
    }
    sb_append(&sb, "<div class=\"tests\">\n");
    json_object *tests = member(results, "tests");
    size_t n = tests && json_object_is_type(tests, json_type_array)
                   ? json_object_array_length(tests) : 0;
    int grouped = 0;
    roofline_t rl;
    int has_roofline = roofline_from_json(member(member(results, "extra_data"), "roofline"), &rl) == 0;
    for (size_t i = 0; i < n; i++) {
        json_object *t = json_object_array_get_idx(tests, i);
        if (!is_gated(t))
            test_section(&sb, t, i, has_roofline ? &rl : NULL);
        else if (!grouped++) /* where the first of them was */
            gated_section(&sb, tests, n);
    }
    sb_append(&sb, "</div>\n</main>\n</body>\n</html>\n");
    return sb_detach(&sb);
}

static int write_page(json_object *results, const char *who, const char *html_path,
                      const char *class_href, char *err, size_t errlen)
{
    char *html = html_student_page(results, who, class_href);
    int rc = write_file_atomic(html_path, html, strlen(html), err, errlen);
    free(html);
    return rc;
}

int html_write_student_page(const char *results_path, const char *who, const char *html_path,
                            const char *class_href, char *err, size_t errlen)
{
    json_object *results = json_object_from_file(results_path);
    if (!results)
        return fail(err, errlen, "%s: cannot read it as JSON", results_path);
    int rc = write_page(results, who, html_path, class_href, err, errlen);
    json_object_put(results);
    return rc;
}

int html_write_grade_page(const grade_t *g, const char *who, const char *html_path, char *err,
                          size_t errlen)
{
    char *text = grade_to_json(g);
    json_object *results = json_tokener_parse(text);
    free(text);
    if (!results)
        return fail(err, errlen, "internal error: results.json does not parse");
    int rc = write_page(results, who, html_path, NULL, err, errlen);
    json_object_put(results);
    return rc;
}
