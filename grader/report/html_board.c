/* html_board.c - the leaderboard section of class.html (board.h): a table
 * in rank order (rank, student, the rate's geometric mean, % of cuBLAS or of
 * the reference, then the rate and the % at each shape), then the students
 * who are not on it with why, then any results.json that was skipped. */
#include "report/html_class.h"
#include "report/html_report.h"

#include <stdio.h>
#include <string.h>

static void number_cell(strbuf_t *sb, const char *unit, double v)
{
    sb_appendf(sb, "<td class=\"num\" data-v=\"%.6g\">", v);
    board_number(sb, unit, v);
    sb_append(sb, "</td>");
}

static void percent_cell(strbuf_t *sb, double p)
{
    if (p >= 0)
        sb_appendf(sb, "<td class=\"num pct\" data-v=\"%.4g\">%.1f%%</td>", p, p);
    else
        sb_append(sb, "<td class=\"na\">&ndash;</td>");
}

static void student_cell(strbuf_t *sb, const board_row_t *r)
{
    sb_append(sb, "<td><a href=\"");
    html_url_segment(sb, r->id);
    sb_append(sb, "/report.html\">");
    html_escape(sb, r->id);
    sb_append(sb, "</a></td>");
}

static const board_shape_t *shape_of(const board_row_t *r, const char *shape)
{
    for (int s = 0; s < r->nshapes; s++)
        if (strcmp(r->shapes[s].shape, shape) == 0)
            return &r->shapes[s];
    return NULL;
}

static void head(strbuf_t *sb, const board_t *b)
{
    sb_append(sb, "<thead><tr><th>rank</th><th>student</th><th>");
    html_escape(sb, b->unit);
    sb_append(sb, " <span class=\"of\">geomean</span></th><th>% of ");
    html_escape(sb, b->baseline[0] ? b->baseline : "baseline");
    sb_append(sb, "</th>");
    for (int s = 0; s < b->nshapes; s++) {
        sb_append(sb, "<th>");
        html_escape(sb, b->shapes[s]);
        sb_append(sb, " <span class=\"of\">");
        html_escape(sb, b->unit);
        sb_append(sb, "</span></th><th>%</th>");
    }
    sb_append(sb, "</tr></thead>\n");
}

static void ranked_row(strbuf_t *sb, const board_t *b, const board_row_t *r)
{
    sb_appendf(sb, "<tr class=\"ranked%s\" data-id=\"", r->rank == 1 ? " top" : "");
    html_escape(sb, r->id);
    sb_appendf(sb, "\"><td class=\"num\">%d</td>", r->rank);
    student_cell(sb, r);
    number_cell(sb, b->unit, r->value);
    percent_cell(sb, r->percent);
    for (int s = 0; s < b->nshapes; s++) {
        const board_shape_t *sh = shape_of(r, b->shapes[s]);
        if (sh) {
            number_cell(sb, b->unit, sh->value);
            percent_cell(sb, sh->percent);
        } else {
            sb_append(sb, "<td class=\"na\">&ndash;</td><td class=\"na\">&ndash;</td>");
        }
    }
    sb_append(sb, "</tr>\n");
}

static void unranked_row(strbuf_t *sb, const board_row_t *r, int span)
{
    sb_append(sb, "<tr class=\"unranked\" data-id=\"");
    html_escape(sb, r->id);
    sb_append(sb, "\"><td class=\"na\">&ndash;</td>");
    student_cell(sb, r);
    sb_appendf(sb, "<td class=\"why\" colspan=\"%d\">", span);
    html_escape(sb, r->why);
    sb_append(sb, "</td></tr>\n");
}

static void skipped(strbuf_t *sb, const board_t *b)
{
    for (int i = 0; i < b->nskipped; i++) {
        sb_append(sb, "<p class=\"skipped\">skipped ");
        html_escape(sb, b->skipped[i]);
        sb_append(sb, "</p>\n");
    }
}

/* The students not on the board, under the ranked ones (or alone). */
static void table(strbuf_t *sb, const board_t *b)
{
    int span = b->nranked > 0 ? 2 + 2 * b->nshapes : 1;
    sb_append(sb, "<table id=\"leaderboard-table\">\n");
    if (b->nranked > 0)
        head(sb, b);
    else
        sb_append(sb, "<thead><tr><th>rank</th><th>student</th><th>why not ranked</th></tr></thead>\n");
    sb_append(sb, "<tbody>\n");
    for (int i = 0; i < b->n; i++) {
        if (b->rows[i].rank > 0)
            ranked_row(sb, b, &b->rows[i]);
        else
            unranked_row(sb, &b->rows[i], span);
    }
    sb_append(sb, "</tbody></table>\n");
}

void html_board_section(strbuf_t *sb, const board_t *b)
{
    if (!b || (b->perf_tests == 0 && b->nskipped == 0))
        return; /* nobody graded, or a lab without a performance test */
    sb_append(sb, "<div class=\"card tablewrap\" id=\"leaderboard\"><h2>Leaderboard</h2>\n");
    if (b->nranked > 0) {
        sb_appendf(sb, "<p class=\"note\">%d of %d ranked by ", b->nranked, b->n);
        html_escape(sb, b->unit);
        sb_appendf(sb, " (geometric mean over %d shape%s), best first; equal rates share a rank. "
                       "Timed on a GPU after passing every dataset.</p>\n",
                   b->nshapes, b->nshapes == 1 ? "" : "s");
        table(sb, b);
    } else {
        sb_append(sb, "<p class=\"empty\" id=\"board-none\">Nobody is on the leaderboard: no "
                      "submission has a usable GPU timing (kernels are timed on a GPU only, once "
                      "every dataset passes).</p>\n");
        sb_appendf(sb, "<details><summary>why, per student (%d)</summary>\n", b->n);
        table(sb, b);
        sb_append(sb, "</details>\n");
    }
    skipped(sb, b);
    sb_append(sb, "</div>\n");
}
