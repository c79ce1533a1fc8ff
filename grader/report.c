/* report.c - render a grade_run_t for a person at a terminal; under the
 * first failing dataset with an error map, that map as a small picture. */
#include "report.h"
#include "sandbox.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DETAIL_LINES 14
#define MAP_TEXT_ROWS 16 /* the terminal picture of the error map, at most */
#define MAP_TEXT_COLS 48

typedef struct {
    const char *green, *red, *bold, *dim, *reset;
} palette_t;

static palette_t pick_palette(FILE *to, color_mode_t mode)
{
    int on = mode == COLOR_ALWAYS ||
             (mode == COLOR_AUTO && isatty(fileno(to)) && !getenv("NO_COLOR"));
    if (on)
        return (palette_t){"\033[32m", "\033[31m", "\033[1m", "\033[2m", "\033[0m"};
    return (palette_t){"", "", "", "", ""};
}

/* Prints up to max_lines lines of text, indented; says how many were left. */
static void print_indented(FILE *to, const char *text, int max_lines, const palette_t *p)
{
    int shown = 0, total = 0;
    for (const char *s = text; s && *s;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        if (shown < max_lines) {
            fprintf(to, "           %.*s\n", (int)len, s);
            shown++;
        }
        total++;
        s = nl ? nl + 1 : NULL;
    }
    if (total > shown)
        fprintf(to, "           %s... %d more lines in the JSON report%s\n", p->dim, total - shown,
                p->reset);
}

/* A test not run because the submission does not compile. */
static int is_gated(const test_result_t *t)
{
    return t->output && strcmp(t->output, "not run: does not compile\n") == 0;
}

/* A test that does not apply here (0 of 0, "not scored ..."). */
static int is_skipped(const test_result_t *t)
{
    return t->max_score == 0 && t->output && strncmp(t->output, "not scored", 10) == 0;
}

/* One row of the picture: runs of one state share a colour. */
static void print_map_row(FILE *to, const char *cells, int n, const palette_t *p)
{
    fputs("           ", to);
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && cells[j] == cells[i])
            j++;
        const char *on = cells[i] == MAP_WRONG ? p->red : cells[i] == MAP_UNWRITTEN ? p->bold : "";
        fprintf(to, "%s%.*s%s", on, j - i, cells + i, *on ? p->reset : "");
        i = j;
    }
    fputc('\n', to);
}

/* The error map shrunk to the terminal, with a one-line legend. */
static void print_error_map(FILE *to, const error_map_t *map, const palette_t *p)
{
    error_map_t m;
    error_map_shrink(map, MAP_TEXT_ROWS, MAP_TEXT_COLS, &m);
    if (m.map_rows <= 0)
        return;
    fprintf(to, "           %serror map of the %dx%d output, a character per %dx%d elements, row 0 "
                "on top: '.' right, 'x' wrong, 'o' never written%s\n",
            p->dim, m.rows, m.cols, error_map_cell_rows(&m), error_map_cell_cols(&m), p->reset);
    for (int r = 0; r < m.map_rows; r++)
        print_map_row(to, m.cells + (size_t)r * m.map_cols, m.map_cols, p);
}

static void print_test(FILE *to, const test_result_t *t, const palette_t *p, int *map_shown)
{
    if (is_skipped(t)) {
        fprintf(to, "  %sSKIP%s  %5g/%-4g %s: %s", p->dim, p->reset, t->score, t->max_score,
                t->name, t->output);
        return;
    }
    fprintf(to, "  %s%s%s  %5g/%-4g %s\n", t->passed ? p->green : p->red,
            t->passed ? "PASS" : "FAIL", p->reset, t->score, t->max_score, t->name);
    if (t->passed || !t->output)
        return;
    if (is_gated(t))
        return; /* the compile failure above already says why */
    print_indented(to, t->output, strstr(t->name, "compile") ? 40 : DETAIL_LINES, p);
    if (t->error_map && !*map_shown) {
        print_error_map(to, t->error_map, p);
        *map_shown = 1;
    }
}

void report_print(FILE *to, const grade_run_t *run, const char *lab, color_mode_t color)
{
    palette_t p = pick_palette(to, color);
    fprintf(to, "%scugrade%s %s  %s\n", p.bold, p.reset, lab,
            run->student_file[0] ? run->student_file : "(no student file)");
    fprintf(to, "  backend: %s (%s); %s\n\n", backend_name(run->backend), run->backend_why,
            sandbox_description());
    int not_run = 0, map_shown = 0;
    for (int i = 0; i < run->grade.ntests; i++) {
        const test_result_t *t = &run->grade.tests[i];
        not_run += is_gated(t);
        print_test(to, t, &p, &map_shown);
    }
    if (not_run)
        fprintf(to, "\n  %d test%s not run: the submission does not compile.\n", not_run,
                not_run == 1 ? "" : "s");
    double score = grade_score(&run->grade), max = grade_max_score(&run->grade);
    fprintf(to, "\n  %sScore: %g / %g%s   (%d of %d datasets passed, %.1f s)\n",
            p.bold, score, max, p.reset, run->datasets_passed, run->datasets_total,
            run->grade.execution_time);
    if (run->cannot_grade)
        fprintf(to, "  %scugrade could not grade everything:%s %s\n", p.red, p.reset, run->error);
}
