/* html_class.c - the class page class.html: counts, the score histogram,
 * the pass rate per test and the performance ratios as inline SVG, the
 * leaderboard (html_board.c), and a table of the students that sorts in the
 * page (inline JS, no network). */
#include "report/html_class.h"
#include "report/html_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIST_BINS 10
#define PERF_BIN 0.1     /* width of a performance-ratio bin */
#define PERF_MAX_HI 3.0  /* ratios from here on share the last bin */
#define THUMB_PX 64

static const char class_css[] =
    ".cards{display:flex;flex-wrap:wrap;gap:10px;margin-bottom:16px}"
    ".cards .card{min-width:118px;padding:9px 14px}"
    ".cards b{display:block;font-size:22px;font-weight:650;font-variant-numeric:tabular-nums}"
    ".cards span{color:var(--muted);font-size:12.5px}"
    ".cards .bad b{color:var(--fail)}"
    ".charts{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:14px;"
    "margin-bottom:16px}"
    ".charts .tall{grid-row:span 2}"
    "svg text{font:11px system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;fill:#4a5262}"
    "svg .axis{stroke:#aeb5c2;stroke-width:1}svg .grid{stroke:#eceef3;stroke-width:1}"
    "svg .bar{fill:#3d6fc4}svg .bar.perf{fill:#7a4fb8}"
    "svg .rate{fill:var(--pass)}svg .rate.mid{fill:#d4a017}svg .rate.lo{fill:var(--fail)}"
    "svg .track{fill:#eef0f4}svg .ref{stroke:#1c2230;stroke-dasharray:4 3}"
    "svg .count{fill:#1c2230;font-weight:600}"
    ".empty{color:var(--muted);font-style:italic;margin:28px 8px}"
    ".tablewrap{display:inline-block;max-width:100%;overflow-x:auto;padding:0}"
    "table{border-collapse:collapse;font-variant-numeric:tabular-nums}"
    "th,td{border-bottom:1px solid #e8ebf0;padding:5px 8px;text-align:left;white-space:nowrap}"
    "thead th{background:#f0f2f6;cursor:pointer;user-select:none;vertical-align:bottom;"
    "position:sticky;top:0}"
    "thead th:hover{background:#e4e8ef}"
    "th[aria-sort=ascending]::after{content:' \\25B2';font-size:10px}"
    "th[aria-sort=descending]::after{content:' \\25BC';font-size:10px}"
    "th.t{padding:6px 2px;width:26px;text-align:center}"
    "th.t span{writing-mode:vertical-rl;transform:rotate(180deg);font-weight:500}"
    "tbody tr:nth-child(even){background:#fafbfc}tbody tr:hover{background:#f1f5fd}"
    "td.c{text-align:center;font-size:12px;padding:5px 4px;min-width:30px}"
    "td.pass{background:var(--passbg);color:#17603a}td.fail{background:var(--failbg);"
    "color:#962d22}td.na{color:#b0b6c0}"
    "td .of{color:var(--muted);font-size:12px}"
    "img.thumb{width:44px;height:44px;object-fit:contain;vertical-align:middle;background:#eef0f4}"
    ".tname{color:var(--muted);font-size:12px;margin-left:6px}"
    "td.wraps{white-space:normal;min-width:9em;max-width:24em;font-size:12.5px}"
    "td.wraps .why{display:block;color:var(--muted);font-size:12px;overflow-wrap:anywhere}"
    "td.wraps img.thumb{float:left;margin-right:6px}td.wraps.st{min-width:7em;max-width:15em}"
    ".state.bad{color:var(--fail);font-weight:600}.state.ok{color:#17603a}"
    "td.strip{font-size:12px;padding:5px 6px}"
    ".strip i{display:inline-block;width:7px;height:14px;margin-right:1px;vertical-align:middle;"
    "border-radius:1px}.strip i.pass{background:var(--pass)}.strip i.fail{background:var(--fail)}"
    ".strip i.na{background:#d5d9e0}.strip .n{margin-left:5px;color:var(--muted)}"
    "a{color:#2450a8;text-decoration:none}a:hover{text-decoration:underline}"
    "#leaderboard{display:block;margin-bottom:16px;padding:10px 16px}"
    "#leaderboard thead th{cursor:default}#leaderboard td.num{text-align:right}"
    "#leaderboard td.why{color:var(--muted)}#leaderboard tr.top td{font-weight:650}"
    ".skipped{color:var(--fail)}";

static const char class_js[] =
    "(function(){\n"
    "var table=document.getElementById('students'),body=table.tBodies[0];\n"
    "var heads=Array.prototype.slice.call(table.tHead.rows[0].cells),current='';\n"
    "function isNum(th){return th.getAttribute('data-type')==='num';}\n"
    "function value(row,i,num){var v=row.cells[i].getAttribute('data-v')||'';\n"
    "  if(!num)return v;var x=parseFloat(v);return isNaN(x)?-Infinity:x;}\n"
    "function sortBy(spec){\n"
    "  var desc=spec.charAt(0)==='-',key=desc?spec.slice(1):spec,th=null;\n"
    "  heads.forEach(function(h){if(h.getAttribute('data-key')===key)th=h;});\n"
    "  if(!th)return;\n"
    "  var i=th.cellIndex,num=isNum(th),rows=Array.prototype.slice.call(body.rows);\n"
    "  rows.sort(function(a,b){var x=value(a,i,num),y=value(b,i,num),c=x<y?-1:x>y?1:0;\n"
    "    if(desc)c=-c;if(c===0){x=a.getAttribute('data-id');y=b.getAttribute('data-id');\n"
    "      c=x<y?-1:x>y?1:0;}return c;});\n"
    "  rows.forEach(function(r){body.appendChild(r);});\n"
    "  heads.forEach(function(h){h.removeAttribute('aria-sort');});\n"
    "  th.setAttribute('aria-sort',desc?'descending':'ascending');current=spec;}\n"
    "function fromHash(){var m=/(?:^#|&)sort=([^&]*)/.exec(location.hash);\n"
    "  if(m){try{sortBy(decodeURIComponent(m[1]));}catch(e){}}\n"
    "  document.body.dataset.ready='1';}\n"
    "heads.forEach(function(th){th.addEventListener('click',function(){\n"
    "  var key=th.getAttribute('data-key');\n"
    "  var next=current===key?'-'+key:current==='-'+key?key:(isNum(th)?'-':'')+key;\n"
    "  location.hash='sort='+encodeURIComponent(next);});});\n"
    "window.addEventListener('hashchange',fromHash);\n"
    "fromHash();\n"
    "})();\n";

const class_cell_t *class_find_cell(const class_row_t *r, const char *name)
{
    for (int t = 0; t < r->ntests; t++)
        if (strcmp(r->tests[t].name, name) == 0)
            return &r->tests[t];
    return NULL;
}

/* ---- SVG pieces ------------------------------------------------------------------- */

static void svg_open(strbuf_t *sb, const char *id, int w, int h, const char *label)
{
    sb_appendf(sb, "<svg id=\"%s\" viewBox=\"0 0 %d %d\" width=\"100%%\" role=\"img\" "
                   "aria-label=\"",
               id, w, h);
    html_escape(sb, label);
    sb_append(sb, "\">");
}

static void svg_text(strbuf_t *sb, double x, double y, const char *anchor, const char *cls,
                     const char *text)
{
    sb_appendf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s%s>", x, y, anchor,
               cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    html_escape(sb, text);
    sb_append(sb, "</text>");
}

static void svg_line(strbuf_t *sb, double x1, double y1, double x2, double y2, const char *cls)
{
    sb_appendf(sb, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", cls, x1,
               y1, x2, y2);
}

/* A vertical bar chart of counts, bins[i] over [edges i, i+1], with count
 * labels, a y grid and the x labels every label_every edges. */
typedef struct {
    const char *id, *label, *bar_class;
    const int *bins;
    int nbins;
    double lo, hi; /* the x range */
    int label_every;
    double ref;    /* draw a dashed line here when lo < ref < hi */
} bar_chart_t;

enum { CH_W = 560, CH_H = 236, CH_L = 38, CH_R = 12, CH_T = 22, CH_B = 44 };

static void chart_axes(strbuf_t *sb, int ymax)
{
    double ph = CH_H - CH_T - CH_B;
    int step = ymax <= 5 ? 1 : (ymax + 4) / 5;
    for (int v = 0; v <= ymax; v += step) {
        double y = CH_T + ph - ph * v / ymax;
        char label[16];
        snprintf(label, sizeof label, "%d", v);
        svg_line(sb, CH_L, y, CH_W - CH_R, y, "grid");
        svg_text(sb, CH_L - 6, y + 4, "end", NULL, label);
    }
    svg_line(sb, CH_L, CH_H - CH_B, CH_W - CH_R, CH_H - CH_B, "axis");
}

static void bar_chart(strbuf_t *sb, const bar_chart_t *c, const char *x_title)
{
    int ymax = 1;
    for (int i = 0; i < c->nbins; i++)
        ymax = c->bins[i] > ymax ? c->bins[i] : ymax;
    double pw = CH_W - CH_L - CH_R, ph = CH_H - CH_T - CH_B, bw = pw / c->nbins;
    svg_open(sb, c->id, CH_W, CH_H, c->label);
    chart_axes(sb, ymax);
    for (int i = 0; i < c->nbins; i++) {
        double h = ph * c->bins[i] / ymax, x = CH_L + i * bw;
        char n[16];
        snprintf(n, sizeof n, "%d", c->bins[i]);
        sb_appendf(sb, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
                       "<title>%s</title></rect>",
                   c->bar_class, x + 1.5, CH_T + ph - h, bw - 3, h, n);
        if (c->bins[i] > 0)
            svg_text(sb, x + bw / 2, CH_T + ph - h - 4, "middle", "count", n);
    }
    for (int i = 0; i <= c->nbins; i += c->label_every) {
        char label[32];
        snprintf(label, sizeof label, "%.3g", c->lo + (c->hi - c->lo) * i / c->nbins);
        svg_text(sb, CH_L + i * bw, CH_H - CH_B + 15, "middle", NULL, label);
    }
    if (c->ref > c->lo && c->ref < c->hi) {
        double x = CH_L + pw * (c->ref - c->lo) / (c->hi - c->lo);
        svg_line(sb, x, CH_T - 6, x, CH_H - CH_B, "ref");
        svg_text(sb, x, CH_T - 10, "middle", NULL, "reference = 1");
    }
    svg_text(sb, CH_L + pw / 2, CH_H - 8, "middle", NULL, x_title);
    sb_append(sb, "</svg>");
}

/* ---- the panels ------------------------------------------------------------------- */

static void score_histogram(strbuf_t *sb, const class_data_t *c, const class_counts_t *k)
{
    int bins[HIST_BINS] = {0};
    for (int i = 0; i < c->n; i++) {
        if (c->rows[i].cannot_grade)
            continue;
        int b = k->max > 0 ? (int)floor(c->rows[i].total / k->max * HIST_BINS) : 0;
        bins[b < 0 ? 0 : b >= HIST_BINS ? HIST_BINS - 1 : b]++;
    }
    bar_chart_t ch = {"histogram", "score histogram", "bar", bins, HIST_BINS, 0, k->max, 1, -1};
    sb_append(sb, "<div class=\"card\"><h2>Scores</h2>");
    bar_chart(sb, &ch, "total score (students per bin)");
    sb_append(sb, "</div>\n");
}

static void perf_panel(strbuf_t *sb, const class_data_t *c)
{
    double top = 0;
    int n = 0;
    for (int i = 0; i < c->n; i++)
        if (c->rows[i].perf_ratio > 0) {
            top = fmax(top, c->rows[i].perf_ratio);
            n++;
        }
    sb_append(sb, "<div class=\"card\"><h2>Performance: student speed / reference speed</h2>");
    if (n == 0) {
        sb_append(sb, "<p class=\"empty\" id=\"perf-none\">No performance ratio: no submission "
                      "was timed on a GPU (on the emu backend kernels are not timed).</p></div>\n");
        return;
    }
    double hi = fmin(PERF_MAX_HI, fmax(1.5, ceil(top / 0.5) * 0.5));
    int nbins = (int)lround(hi / PERF_BIN), bins[64] = {0};
    for (int i = 0; i < c->n; i++)
        if (c->rows[i].perf_ratio > 0) {
            int b = (int)floor(c->rows[i].perf_ratio / PERF_BIN);
            bins[b >= nbins ? nbins - 1 : b]++;
        }
    bar_chart_t ch = {"perf", "performance ratio histogram", "bar perf", bins, nbins, 0, hi, 5, 1.0};
    bar_chart(sb, &ch, "speed relative to the reference kernel (students per 0.1)");
    if (c->gpu_spread) {
        sb_append(sb, "<p id=\"perf-gpus\">");
        html_escape(sb, c->gpu_spread);
        sb_append(sb, "</p>");
    }
    sb_append(sb, "</div>\n");
}

static void rate_bar(strbuf_t *sb, const char *name, int pass, int have, double y)
{
    double rate = have ? (double)pass / have : 0, bw = 250;
    char label[64];
    if (have > 0)
        snprintf(label, sizeof label, "%.0f%% (%d/%d)", 100 * rate, pass, have);
    else
        snprintf(label, sizeof label, "not scored");
    sb_append(sb, "<g>");
    svg_text(sb, 196, y + 12, "end", NULL, name);
    sb_appendf(sb, "<rect class=\"track\" x=\"204\" y=\"%.1f\" width=\"%.0f\" height=\"14\"/>", y + 2,
               bw);
    sb_appendf(sb, "<rect class=\"rate%s\" x=\"204\" y=\"%.1f\" width=\"%.1f\" height=\"14\"/>",
               rate >= 0.8 ? "" : rate >= 0.4 ? " mid" : " lo", y + 2, bw * rate);
    svg_text(sb, 210 + bw, y + 12, "start", NULL, label);
    sb_append(sb, "</g>");
}

void class_pass_count(const class_data_t *c, const char *col, int *pass, int *have)
{
    *pass = *have = 0;
    for (int i = 0; i < c->n; i++) {
        const class_cell_t *cell =
            c->rows[i].cannot_grade ? NULL : class_find_cell(&c->rows[i], col);
        if (cell && cell->skipped)
            cell = NULL; /* e.g. performance on the emu backend */
        *have += cell != NULL;
        *pass += cell && cell->passed;
    }
}

static void pass_rates(strbuf_t *sb, const class_data_t *c)
{
    int h = 20 * c->ncols + 10;
    sb_appendf(sb, "<div class=\"card%s\"><h2>Pass rate per test</h2>", c->ncols > 12 ? " tall" : "");
    svg_open(sb, "passrate", CH_W, h > 40 ? h : 40, "pass rate per test");
    for (int k = 0; k < c->ncols; k++) {
        int have, pass;
        class_pass_count(c, c->cols[k], &pass, &have);
        rate_bar(sb, c->cols[k], pass, have, 4 + 20 * k);
    }
    sb_append(sb, "</svg></div>\n");
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_total(const class_data_t *c)
{
    double *v = calloc((size_t)c->n + 1, sizeof *v);
    int n = 0;
    for (int i = 0; i < c->n; i++)
        if (!c->rows[i].cannot_grade)
            v[n++] = c->rows[i].total;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double m = n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    free(v);
    return m;
}

static void card(strbuf_t *sb, const char *id, const char *value, const char *what, int bad)
{
    sb_appendf(sb, "<div class=\"card%s\" id=\"%s\"><b>%s</b><span>%s</span></div>",
               bad ? " bad" : "", id, value, what);
}

static void count_card(strbuf_t *sb, const char *id, int n, const char *what, int bad)
{
    char v[32];
    snprintf(v, sizeof v, "%d", n);
    card(sb, id, v, what, bad && n > 0);
}

static void counts(strbuf_t *sb, const class_data_t *c, const class_counts_t *k)
{
    char mean[64], median[64];
    snprintf(mean, sizeof mean, "%.3g <small>/ %g</small>", k->mean, k->max);
    snprintf(median, sizeof median, "%.3g", median_total(c));
    sb_append(sb, "<div class=\"cards\">");
    count_card(sb, "n-submissions", c->n, "submissions", 0);
    count_card(sb, "n-graded", k->graded, "graded", 0);
    card(sb, "mean", mean, "mean total", 0);
    card(sb, "median", median, "median total", 0);
    count_card(sb, "n-no-compile", k->no_compile, "did not compile", 1);
    count_card(sb, "n-no-file", k->no_file, "no file", 1);
    count_card(sb, "n-empty-file", k->empty_file, "empty file", 1);
    count_card(sb, "n-timed-out", k->timed_out, "timed out", 1);
    count_card(sb, "n-crashed", k->crashed, "crashed", 1);
    count_card(sb, "n-cannot", k->cannot, "could not grade", 1);
    count_card(sb, "n-rejected", k->rejected, "not graded (archive refused)", 1);
    sb_append(sb, "</div>\n");
}

/* ---- the table -------------------------------------------------------------------- */

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

static void student_table(strbuf_t *sb, const class_data_t *c)
{
    sb_append(sb, "<div class=\"card tablewrap\"><table id=\"students\">\n");
    table_head(sb, c);
    sb_append(sb, "<tbody>\n");
    for (int i = 0; i < c->n; i++)
        table_row(sb, c, &c->rows[i]);
    sb_append(sb, "</tbody></table></div>\n");
}

/* ---- the page ---------------------------------------------------------------------- */

static const char *class_lab(const class_data_t *c)
{
    for (int i = 0; i < c->n; i++)
        if (c->rows[i].lab[0])
            return c->rows[i].lab;
    return "";
}

char *html_class_page(const class_data_t *c, const class_counts_t *k, const board_t *board)
{
    strbuf_t sb = {0}, title = {0};
    const char *lab = class_lab(c);
    sb_appendf(&title, "%s%sclass report", lab, *lab ? " " : "");
    html_page_start(&sb, sb_str(&title), class_css);
    sb_append(&sb, "<header><div class=\"wrap\"><h1>");
    html_escape(&sb, sb_str(&title));
    sb_appendf(&sb, "</h1><div class=\"sub\">%d submission%s, from each student's results.json; "
                    "click a column to sort, a student for their report</div></div></header>\n"
                    "<main class=\"wrap\">\n",
               c->n, c->n == 1 ? "" : "s");
    sb_free(&title);
    counts(&sb, c, k);
    sb_append(&sb, "<div class=\"charts\">\n");
    score_histogram(&sb, c, k);
    pass_rates(&sb, c);
    perf_panel(&sb, c);
    sb_append(&sb, "</div>\n");
    html_board_section(&sb, board);
    if (c->gpu_use) {
        sb_append(&sb, "<div class=\"card\" id=\"gpu-use\"><h2>The GPUs' time</h2><pre>");
        html_escape(&sb, c->gpu_use);
        sb_append(&sb, "</pre><p>A shared hold longer than 2 s is a driver's list of datasets or a "
                       "kernel running to its time limit (<code>datasets.gpu_time_limit_s</code> "
                       "in rubric.json); every timed run waits for it.</p></div>\n");
    }
    student_table(&sb, c);
    sb_append(&sb, "<p class=\"legend\">Error maps: ");
    html_error_map_legend(&sb);
    sb_append(&sb, "</p>\n</main>\n<script>\n");
    sb_append(&sb, class_js);
    sb_append(&sb, "</script>\n</body>\n</html>\n");
    return sb_detach(&sb);
}
