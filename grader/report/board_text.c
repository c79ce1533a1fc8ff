/* board_text.c - the class leaderboard as a terminal table (board.h): one
 * line per student, aligned columns; the ranked first, then those who are
 * not on the board with why. */
#include "report/board.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS (4 + PERF_MAX_SHAPES)

typedef struct {
    char *cells[MAX_COLS];
    char *why; /* not ranked: the rest of the line */
} line_t;

void board_number(strbuf_t *out, const char *unit, double v)
{
    if (strcmp(unit, "TFLOP/s") == 0)
        sb_appendf(out, "%.3f", v);
    else if (strcmp(unit, "GB/s") == 0)
        sb_appendf(out, "%.1f", v);
    else
        sb_appendf(out, "%g", v);
}

static char *cell_text(const char *unit, double v, double percent, int with_value)
{
    strbuf_t sb = {0};
    if (with_value)
        board_number(&sb, unit, v);
    if (percent >= 0)
        sb_appendf(&sb, with_value ? " (%.1f%%)" : "%.1f%%", percent);
    else if (!with_value)
        sb_append(&sb, "-");
    return sb_detach(&sb);
}

/* A copy safe for a terminal: control characters (an escape sequence in a
 * folder name) become '?'. */
static char *clean(const char *s)
{
    char *c = strdup(s);
    for (char *p = c; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    return c;
}

static const board_shape_t *row_shape(const board_row_t *r, const char *shape)
{
    for (int s = 0; s < r->nshapes; s++)
        if (strcmp(r->shapes[s].shape, shape) == 0)
            return &r->shapes[s];
    return NULL;
}

/* The columns of one student (ncols of them). */
static void fill_line(line_t *l, const board_t *b, const board_row_t *r, int ncols)
{
    memset(l, 0, sizeof *l);
    strbuf_t rank = {0};
    if (r->rank > 0)
        sb_appendf(&rank, "%d", r->rank);
    else
        sb_append(&rank, "-");
    l->cells[0] = sb_detach(&rank);
    l->cells[1] = clean(r->id);
    if (r->rank <= 0) {
        l->why = clean(r->why);
        return;
    }
    l->cells[2] = cell_text(b->unit, r->value, -1, 1);
    l->cells[3] = cell_text(b->unit, 0, r->percent, 0);
    for (int c = 4; c < ncols; c++) {
        const board_shape_t *s = row_shape(r, b->shapes[c - 4]);
        l->cells[c] = s ? cell_text(b->unit, s->value, s->percent, 1) : strdup("-");
    }
}

static void free_line(line_t *l)
{
    for (int c = 0; c < MAX_COLS; c++)
        free(l->cells[c]);
    free(l->why);
}

static void print_cell(strbuf_t *out, const char *text, int width, int left, int last)
{
    int pad = width - (int)strlen(text);
    if (!left)
        sb_appendf(out, "%*s", pad > 0 ? pad : 0, "");
    sb_append(out, text);
    if (left && !last)
        sb_appendf(out, "%*s", pad > 0 ? pad : 0, "");
}

static void print_line(strbuf_t *out, char *const *cells, const int *width, int ncols, const char *why)
{
    for (int c = 0; c < ncols && cells[c]; c++) {
        if (c > 0)
            sb_append(out, "  ");
        print_cell(out, cells[c], width[c], c == 1, c == ncols - 1 && !(why && why[0]));
    }
    if (why && why[0])
        sb_appendf(out, "  %s", why);
    sb_append(out, "\n");
}

static int shown(const board_row_t *r, int top)
{
    return top <= 0 || (r->rank > 0 && r->rank <= top);
}

static void title(strbuf_t *out, const board_t *b, int n)
{
    sb_appendf(out, "%s%sleaderboard: ", b->lab, b->lab[0] ? " " : "");
    if (b->nranked == 0)
        sb_appendf(out, "nobody ranked (%d student%s, none with a usable GPU timing)\n", n,
                   n == 1 ? "" : "s");
    else
        sb_appendf(out, "%d of %d student%s ranked by %s (geometric mean over %d shape%s), best "
                        "first\n", b->nranked, n, n == 1 ? "" : "s", b->unit, b->nshapes,
                   b->nshapes == 1 ? "" : "s");
}

void board_text(strbuf_t *out, const board_t *b, int top)
{
    if (b->n == 0) {
        sb_append(out, "no graded submissions to rank (no results.json)\n");
        return;
    }
    title(out, b, b->n);
    int ncols = b->nranked > 0 ? 4 + b->nshapes : 3, width[MAX_COLS] = {0};
    char pct[48];
    snprintf(pct, sizeof pct, "%% of %s", b->baseline[0] ? b->baseline : "baseline");
    char *head[MAX_COLS] = {"rank", "student", b->nranked > 0 ? (char *)b->unit : "why not ranked", pct};
    for (int s = 0; s < b->nshapes && b->nranked > 0; s++)
        head[4 + s] = (char *)b->shapes[s];
    line_t *lines = calloc((size_t)b->n, sizeof *lines);
    for (int c = 0; c < ncols; c++)
        width[c] = (int)strlen(head[c]);
    for (int i = 0; i < b->n; i++) {
        fill_line(&lines[i], b, &b->rows[i], ncols);
        for (int c = 0; c < ncols && lines[i].cells[c]; c++)
            width[c] = width[c] > (int)strlen(lines[i].cells[c]) ? width[c] : (int)strlen(lines[i].cells[c]);
    }
    print_line(out, head, width, ncols, NULL);
    if (b->nranked == 0) /* no ranking to cut: every student's reason stays */
        top = 0;
    int hidden = 0;
    for (int i = 0; i < b->n; i++) {
        if (shown(&b->rows[i], top))
            print_line(out, lines[i].cells, width, ncols, lines[i].why ? lines[i].why : NULL);
        else
            hidden++;
        free_line(&lines[i]);
    }
    free(lines);
    if (hidden > 0)
        sb_appendf(out, "(--top %d: %d more not shown)\n", top, hidden);
}
