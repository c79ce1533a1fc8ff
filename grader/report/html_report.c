/* html_report.c - a student's HTML report page, rendered from results.json,
 * and the HTML helpers the class page shares (escaping, error-map pictures,
 * the common style). */
#include "report/html_report.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_roofline.h"
#include "report/png.h"

#define MAP_PX 256 /* the error map on a student's page, at most, a side */

static const char base_css[] =
    ":root{--bg:#f4f5f8;--line:#dde1e8;--ink:#1c2230;--muted:#5b6474;--pass:#1e8449;"
    "--passbg:#e3f3e8;--fail:#c0392b;--failbg:#fbe6e4;--skip:#8b93a1}"
    "*{box-sizing:border-box}"
    "body{margin:0;background:var(--bg);color:var(--ink);"
    "font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif}"
    "header{background:#1d2943;color:#fff;padding:18px 0 16px}"
    "header h1{margin:0;font-size:22px;font-weight:600}"
    "header .sub{color:#c3cce0;margin-top:3px}"
    "header a{color:#cfe0ff}"
    ".wrap{max-width:1240px;margin:0 auto;padding:0 24px}"
    "main.wrap{padding-top:18px;padding-bottom:40px}"
    "h2{font-size:16px;margin:0 0 10px}"
    ".card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 16px}"
    "pre{white-space:pre-wrap;word-break:break-word;margin:0;"
    "font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace}"
    ".badge{display:inline-block;min-width:46px;text-align:center;border-radius:4px;"
    "padding:1px 6px;font-size:12px;font-weight:700;color:#fff;letter-spacing:.03em}"
    ".badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}"
    ".badge.skip{background:var(--skip)}"
    "img.map,img.thumb{image-rendering:crisp-edges;image-rendering:pixelated;"
    "border:1px solid #c9ced8;background:#fff}"
    ".legend{color:var(--muted);font-size:12.5px}"
    ".key{display:inline-block;width:11px;height:11px;border-radius:2px;vertical-align:-1px;"
    "margin:0 4px 0 10px}.legend .key:first-child{margin-left:0}"
    ".key.right{background:#d5e3d8;border:1px solid #b3c4b7}.key.wrong{background:#d62728}"
    ".key.unwritten{background:#2e123d}";

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

/* ---- helpers ------------------------------------------------------------------- */

void html_escape(strbuf_t *sb, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': sb_append(sb, "&amp;"); break;
        case '<': sb_append(sb, "&lt;"); break;
        case '>': sb_append(sb, "&gt;"); break;
        case '"': sb_append(sb, "&quot;"); break;
        case '\'': sb_append(sb, "&#39;"); break;
        default:
            if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
                sb_append(sb, "&#xFFFD;");
            else
                sb_appendn(sb, s, 1);
        }
    }
}

void html_url_segment(strbuf_t *sb, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            strchr("-._~", c))
            sb_appendn(sb, s, 1);
        else
            sb_appendf(sb, "%%%02X", c);
    }
}

void html_number(strbuf_t *sb, double v) { sb_appendf(sb, "%g", v); }

void html_error_map_img(strbuf_t *sb, const error_map_t *m, int max_px, const char *cls,
                        const char *alt)
{
    if (!m || m->map_rows <= 0 || m->map_cols <= 0)
        return;
    int side = m->map_rows > m->map_cols ? m->map_rows : m->map_cols;
    int scale = max_px / side > 1 ? max_px / side : 1;
    char *uri = png_error_map_uri(m, scale);
    if (!uri)
        return;
    sb_appendf(sb, "<img class=\"%s\" width=\"%d\" height=\"%d\" alt=\"", cls,
               m->map_cols * scale, m->map_rows * scale);
    html_escape(sb, alt);
    sb_appendf(sb, "\" src=\"%s\">", uri);
    free(uri);
}

void html_error_map_legend(strbuf_t *sb)
{
    sb_append(sb, "<span class=\"legend\"><span class=\"key right\"></span>all right"
                  "<span class=\"key wrong\"></span>some wrong"
                  "<span class=\"key unwritten\"></span>some never written</span>");
}

void html_page_start(strbuf_t *sb, const char *title, const char *extra_css)
{
    sb_append(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                  "<title>");
    html_escape(sb, title);
    sb_appendf(sb, "</title>\n<style>%s%s</style>\n</head>\n<body>\n", base_css,
               extra_css ? extra_css : "");
}

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
