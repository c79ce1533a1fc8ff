/* html_class_table.c - the students' table of class.html (html_class.h):
 * a row a student with their total, performance ratio, status and first
 * failure, the datasets and the hidden datasets as a strip of squares
 * each, and a column for every other test; each cell's data-v is what the
 * page's script sorts by. */
#include "report/html_class.h"
#include "report/html_report.h"

#include <stdio.h>
#include <string.h>

#define THUMB_PX 64 /* a first failure's error map, at most this many pixels a side */

/* "dataset 4 (100x128x64)" -> "dataset 4": the column's short label. */
static void short_name(strbuf_t *sb, const char *name)
{
    const char *paren = strstr(name, " (");
    strbuf_t s = {0};
    sb_appendn(&s, name, paren ? (size_t)(paren - name) : strlen(name));
    html_escape(sb, sb_str(&s));
    sb_free(&s);
}

/* The columns a group of tests shares: the datasets, and the hidden ones,
 * each drawn as one strip of small squares (a class of 20 datasets and 8
 * hidden ones would need 28 columns); every other test has its own. */
typedef enum { COL_OWN, COL_DATASETS, COL_HIDDEN } col_group_t;

static col_group_t col_group(const char *name)
{
    if (strncmp(name, "dataset ", 8) == 0)
        return COL_DATASETS;
    if (strncmp(name, "hidden dataset ", 15) == 0)
        return COL_HIDDEN;
    return COL_OWN;
}

/* 1 if column k is the first of its group (or a column of its own). */
static int col_starts(const class_data_t *c, int k)
{
    col_group_t g = col_group(c->cols[k]);
    for (int i = 0; g != COL_OWN && i < k; i++)
        if (col_group(c->cols[i]) == g)
            return 0;
    return 1;
}

static void table_head(strbuf_t *sb, const class_data_t *c)
{
    sb_append(sb, "<thead><tr><th data-key=\"id\" data-type=\"str\">student</th>"
                  "<th data-key=\"total\" data-type=\"num\">total</th>"
                  "<th data-key=\"perf\" data-type=\"num\">perf</th>"
                  "<th data-key=\"status\" data-type=\"str\">status</th>"
                  "<th data-key=\"map\" data-type=\"str\">first failure</th>");
    for (int k = 0; k < c->ncols; k++) {
        col_group_t g = col_group(c->cols[k]);
        if (!col_starts(c, k))
            continue;
        if (g != COL_OWN) {
            sb_appendf(sb, "<th data-key=\"%s\" data-type=\"num\" title=\"passed, of those "
                           "run; a square each, in order\">%s</th>",
                       g == COL_DATASETS ? "datasets" : "hidden",
                       g == COL_DATASETS ? "datasets" : "hidden datasets");
            continue;
        }
        sb_appendf(sb, "<th class=\"t\" data-key=\"t%d\" data-type=\"num\" title=\"", k);
        html_escape(sb, c->cols[k]);
        sb_append(sb, "\"><span>");
        short_name(sb, c->cols[k]);
        sb_append(sb, "</span></th>");
    }
    sb_append(sb, "</tr></thead>\n");
}

static void report_link(strbuf_t *sb, const class_row_t *r, const char *anchor)
{
    sb_append(sb, "<a href=\"");
    html_url_segment(sb, r->id);
    sb_appendf(sb, "/report.html%s\">", anchor);
}

/* The row's status, a few words (bad: in red), and why where the batch said:
 * not graded, could not grade, no file, an empty one, did not compile, timed
 * out, crashed, how many tests failed, or all passed. */
static void status_cell(strbuf_t *sb, const class_row_t *r)
{
    char text[96];
    const char *why = NULL;
    int bad = 1;
    if (r->rejected)
        snprintf(text, sizeof text, "not graded"), why = r->rejected;
    else if (r->cannot_grade)
        snprintf(text, sizeof text, "could not grade"), why = r->cannot_why;
    else if (r->no_file)
        snprintf(text, sizeof text, "no file");
    else if (r->empty_file)
        snprintf(text, sizeof text, "empty file");
    else if (r->no_compile)
        snprintf(text, sizeof text, "did not compile");
    else if (r->timed_out || r->crashed)
        snprintf(text, sizeof text, "%s%s%s", r->timed_out ? "timed out" : "",
                 r->timed_out && r->crashed ? ", " : "", r->crashed ? "crashed" : "");
    else if (r->nfailed > 0)
        snprintf(text, sizeof text, "%d test%s failed", r->nfailed, r->nfailed == 1 ? "" : "s");
    else
        snprintf(text, sizeof text, "all passed"), bad = 0;
    sb_append(sb, "<td class=\"wraps st\" data-v=\"");
    html_escape(sb, text);
    sb_appendf(sb, "\"><span class=\"state %s\">", bad ? "bad" : "ok");
    html_escape(sb, text);
    sb_append(sb, "</span>");
    if (why && *why) {
        sb_append(sb, "<span class=\"why\">");
        html_escape(sb, why);
        sb_append(sb, "</span>");
    }
    sb_append(sb, "</td>");
}

/* The first failed test: its error map (a thumbnail) when it has one, its
 * name, linked to that test in the student's report, and one line of why. */
static void first_failure_cell(strbuf_t *sb, const class_row_t *r)
{
    if (r->cannot_grade || r->first_fail < 0 || r->first_fail >= r->ntests) { /* the status says why */
        sb_append(sb, "<td data-v=\"\"></td>");
        return;
    }
    const char *name = r->tests[r->first_fail].name;
    int has_map = r->map && r->map_test == r->first_fail;
    char anchor[32];
    snprintf(anchor, sizeof anchor, "#t%d", r->first_fail);
    sb_append(sb, "<td class=\"wraps\" data-v=\"");
    html_escape(sb, name);
    sb_append(sb, "\">");
    report_link(sb, r, anchor);
    if (has_map) {
        strbuf_t alt = {0};
        sb_appendf(&alt, "error map of %s", name);
        html_error_map_img(sb, r->map, THUMB_PX, "thumb", sb_str(&alt));
        sb_free(&alt);
    }
    short_name(sb, name);
    sb_append(sb, "</a>");
    if (r->first_why && *r->first_why) {
        sb_append(sb, "<span class=\"why\">");
        html_escape(sb, r->first_why);
        sb_append(sb, "</span>");
    }
    sb_append(sb, "</td>");
}

static void test_cell(strbuf_t *sb, const class_cell_t *cell, const char *col)
{
    if (!cell || cell->skipped) {
        sb_append(sb, cell ? "<td class=\"c na\" data-v=\"\" title=\"not scored\">&ndash;</td>"
                           : "<td class=\"c na\" data-v=\"\">&middot;</td>");
        return;
    }
    sb_appendf(sb, "<td class=\"c %s\" data-v=\"%g\" title=\"", cell->passed ? "pass" : "fail",
               cell->score);
    html_escape(sb, col);
    sb_appendf(sb, ": %g / %g\">", cell->score, cell->max_score);
    if (cell->max_score == 0)
        sb_append(sb, cell->passed ? "&#10003;" : "&#10007;");
    else
        html_number(sb, cell->score);
    sb_append(sb, "</td>");
}

/* A group's tests as a strip of squares (pass, fail, grey: not run, or
 * does not apply), each titled with its test and points, and "passed/of"
 * (a test not run counts as failed, as in the score). */
static void strip_cell(strbuf_t *sb, const class_data_t *c, const class_row_t *r, col_group_t g)
{
    strbuf_t squares = {0};
    int pass = 0, have = 0;
    for (int k = 0; k < c->ncols; k++) {
        if (col_group(c->cols[k]) != g)
            continue;
        const class_cell_t *cell = class_find_cell(r, c->cols[k]);
        int applies = cell && !cell->skipped;
        have += applies;
        pass += applies && cell->passed;
        sb_appendf(&squares, "<i class=\"%s\" title=\"",
                   !applies || cell->not_run ? "na" : cell->passed ? "pass" : "fail");
        html_escape(&squares, c->cols[k]);
        if (applies)
            sb_appendf(&squares, ": %g / %g%s", cell->score, cell->max_score,
                       cell->not_run ? ", not run" : "");
        else
            sb_append(&squares, ": does not apply");
        sb_append(&squares, "\"></i>");
    }
    if (have == 0 || r->cannot_grade) {
        sb_append(sb, "<td class=\"strip na\" data-v=\"\">&middot;</td>");
    } else {
        sb_appendf(sb, "<td class=\"strip\" data-v=\"%d\">%s<span class=\"n\">%d/%d</span></td>",
                   pass, sb_str(&squares), pass, have);
    }
    sb_free(&squares);
}

static void table_row(strbuf_t *sb, const class_data_t *c, const class_row_t *r)
{
    sb_append(sb, "<tr data-id=\"");
    html_escape(sb, r->id);
    sb_append(sb, "\"><td data-v=\"");
    html_escape(sb, r->id);
    sb_append(sb, "\">");
    report_link(sb, r, "");
    html_escape(sb, r->id);
    if (r->cannot_grade) /* not graded, or could not be: no total (the status says why) */
        sb_append(sb, "</a></td><td data-v=\"\" class=\"na\">&ndash;");
    else
        sb_appendf(sb, "</a></td><td data-v=\"%g\"><b>%g</b> <span class=\"of\">/ %g</span>",
                   r->total, r->total, r->max);
    if (r->perf_ratio > 0)
        sb_appendf(sb, "</td><td data-v=\"%.4f\">%.2f</td>", r->perf_ratio, r->perf_ratio);
    else
        sb_append(sb, "</td><td data-v=\"\" class=\"na\">&ndash;</td>");
    status_cell(sb, r);
    first_failure_cell(sb, r);
    for (int k = 0; k < c->ncols; k++) {
        if (!col_starts(c, k))
            continue;
        if (col_group(c->cols[k]) == COL_OWN)
            test_cell(sb, class_find_cell(r, c->cols[k]), c->cols[k]);
        else
            strip_cell(sb, c, r, col_group(c->cols[k]));
    }
    sb_append(sb, "</tr>\n");
}

void html_class_table(strbuf_t *sb, const class_data_t *c)
{
    sb_append(sb, "<div class=\"card tablewrap\"><table id=\"students\">\n");
    table_head(sb, c);
    sb_append(sb, "<tbody>\n");
    for (int i = 0; i < c->n; i++)
        table_row(sb, c, &c->rows[i]);
    sb_append(sb, "</tbody></table></div>\n");
}
