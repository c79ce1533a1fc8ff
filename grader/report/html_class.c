/* html_class.c - the class page class.html: counts, the score histogram,
 * the pass rate per test and the performance ratios as inline SVG, the
 * leaderboard (html_board.c), and a table of the students
 * (html_class_table.c) that sorts in the page (inline JS, no network). */
#include "report/html_class.h"
#include "report/html_roofline.h"
#include "report/html_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIST_BINS 10
#define PERF_BIN 0.1     /* width of a performance-ratio bin */
#define PERF_MAX_HI 3.0  /* ratios from here on share the last bin */

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

static int same_roofline(const roofline_t *a, const roofline_t *b)
{
    return strcmp(a->device, b->device) == 0 && strcmp(a->shape, b->shape) == 0;
}

/* Every timed kernel on the roofline of the device (and shape) most of the
 * class was timed on, the reference and cuBLAS as one student's grading
 * measured them there. */
static void roofline_panel(strbuf_t *sb, const class_data_t *c)
{
    const roofline_t *base = NULL;
    int most = 0, drawn = 0;
    for (int i = 0; i < c->n; i++) {
        if (!c->rows[i].roofline)
            continue;
        int same = 0;
        for (int j = 0; j < c->n; j++)
            same += c->rows[j].roofline && same_roofline(c->rows[i].roofline, c->rows[j].roofline);
        if (same > most)
            most = same, base = c->rows[i].roofline;
    }
    if (!base)
        return;
    roofline_dot_t *dots = calloc((size_t)most, sizeof *dots);
    for (int i = 0; i < c->n && dots; i++) {
        const roofline_t *rl = c->rows[i].roofline;
        if (rl && same_roofline(rl, base))
            dots[drawn++] = (roofline_dot_t){rl->points[0].gflops, rl->points[0].intensity, c->rows[i].id};
    }
    sb_append(sb, "<div class=\"card\" id=\"roofline-card\"><h2>The class on the roofline</h2>");
    html_roofline_svg(sb, base, dots, drawn, "class-roofline");
    sb_appendf(sb, "<p class=\"legend\">%d student kernel%s (blue dots). ", drawn, drawn == 1 ? "" : "s");
    html_roofline_caption(sb, base);
    int other = 0;
    for (int i = 0; i < c->n; i++)
        other += c->rows[i].roofline && !same_roofline(c->rows[i].roofline, base);
    if (other)
        sb_appendf(sb, " %d kernel%s timed on another device or shape %s not drawn.", other,
                   other == 1 ? "" : "s", other == 1 ? "is" : "are");
    sb_append(sb, "</p></div>\n");
    free(dots);
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
    roofline_panel(&sb, c);
    html_board_section(&sb, board);
    if (c->gpu_use) {
        sb_append(&sb, "<div class=\"card\" id=\"gpu-use\"><h2>The GPUs' time</h2><pre>");
        html_escape(&sb, c->gpu_use);
        sb_append(&sb, "</pre><p>A shared hold longer than 2 s is a driver's list of datasets or a "
                       "kernel running to its time limit (<code>datasets.gpu_time_limit_s</code> "
                       "in rubric.json); every timed run waits for it.</p></div>\n");
    }
    html_class_table(&sb, c);
    sb_append(&sb, "<p class=\"legend\">Error maps: ");
    html_error_map_legend(&sb);
    sb_append(&sb, "</p>\n</main>\n<script>\n");
    sb_append(&sb, class_js);
    sb_append(&sb, "</script>\n</body>\n</html>\n");
    return sb_detach(&sb);
}
