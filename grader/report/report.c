/* report.c - render a grade_run_t for a person at a terminal, on one screen.
 *
 * The short report (the default) groups what repeats: the datasets that
 * fail the same way (verdict.h's failure key) are one block, with the
 * datasets it covers, public and hidden ("datasets 4, 6, 8–14 and hidden 2
 * (8 datasets)"), the first of them's details (the hint, the first
 * mismatches, one error map) and nothing of the others; the passing datasets
 * are one line; consecutive tests with the same verdict and message (checks
 * not run, checks passed) share a line.
 * Text is wrapped to the terminal (80 columns when it is not one). The
 * verbose report is the per-test listing. results.json and the HTML page
 * keep every dataset's full detail either way. */
#include "report/report.h"
#include "run/sandbox.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define DETAIL_LINES 14       /* verbose: lines of a test's message */
#define SHORT_DETAIL_LINES 10 /* short: wrapped lines of a block's message */
#define SHORT_MISMATCHES 3    /* short: mismatch lines under "first mismatches" */
#define MAP_TEXT_ROWS 16      /* the terminal picture of the error map, at most */
#define MAP_SHORT_ROWS 8
#define MAP_TEXT_COLS 48
#define INDENT 11 /* where a test's details start */

typedef struct {
    const char *green, *red, *bold, *dim, *reset;
} palette_t;

typedef struct {
    FILE *to;
    palette_t p;
    int width; /* columns to wrap at */
} out_t;

static palette_t pick_palette(FILE *to, color_mode_t mode)
{
    int on = mode == COLOR_ALWAYS ||
             (mode == COLOR_AUTO && isatty(fileno(to)) && !getenv("NO_COLOR"));
    if (on)
        return (palette_t){"\033[32m", "\033[31m", "\033[1m", "\033[2m", "\033[0m"};
    return (palette_t){"", "", "", "", ""};
}

/* The terminal's width, or 80 when the report does not go to one. */
static int pick_width(FILE *to)
{
    struct winsize ws;
    if (isatty(fileno(to)) && ioctl(fileno(to), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
        return ws.ws_col > 160 ? 160 : ws.ws_col;
    return 80;
}

/* Display columns of n bytes of UTF-8 (continuation bytes take none). */
static int columns(const char *s, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* Prints one line of text (len bytes) wrapped at the width, breaking at
 * spaces: the first line from column first_col (its indent already printed
 * when started), the rest from column cont_col. Returns the lines printed;
 * stops after max_lines (returning max_lines + 1 if it had to). */
static int print_wrapped_from(const out_t *o, int first_col, int cont_col, int started,
                              const char *s, size_t len, int max_lines)
{
    int lines = 0;
    do {
        int col = lines ? cont_col : first_col, room = o->width - col;
        if (room < 20)
            room = 20;
        size_t take = len, last_space = 0;
        if (columns(s, len) > room) {
            int cols = 0;
            for (take = 0; take < len; take++) {
                if (s[take] == ' ')
                    last_space = take;
                cols += ((unsigned char)s[take] & 0xC0) != 0x80;
                if (cols > room)
                    break;
            }
            if (last_space > 0)
                take = last_space;
        }
        if (lines == max_lines)
            return max_lines + 1;
        fprintf(o->to, "%*s%.*s\n", lines == 0 && started ? 0 : col, "", (int)take, s);
        lines++;
        s += take;
        len -= take;
        while (len > 0 && *s == ' ')
            s++, len--;
    } while (len > 0);
    return lines;
}

/* Text at indent, its continuation lines 2 columns further in. */
static int print_wrapped(const out_t *o, int indent, const char *s, size_t len, int max_lines)
{
    return print_wrapped_from(o, indent, indent + 2, 0, s, len, max_lines);
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

static int same_text(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

/* ---- the error map -------------------------------------------------------------------- */

/* One row of the picture: runs of one state share a colour. */
static void print_map_row(const out_t *o, const char *cells, int n)
{
    fprintf(o->to, "%*s", INDENT, "");
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && cells[j] == cells[i])
            j++;
        const char *on = cells[i] == MAP_WRONG ? o->p.red : cells[i] == MAP_UNWRITTEN ? o->p.bold : "";
        fprintf(o->to, "%s%.*s%s", on, j - i, cells + i, *on ? o->p.reset : "");
        i = j;
    }
    fputc('\n', o->to);
}

/* The error map shrunk to the terminal, with a legend; nothing when every
 * cell is the same (the summary line already says it all). */
static void print_error_map(const out_t *o, const error_map_t *map, int max_rows)
{
    error_map_t m;
    error_map_shrink(map, max_rows, MAP_TEXT_COLS, &m);
    size_t n = (size_t)m.map_rows * m.map_cols;
    if (m.map_rows <= 0 || strspn(m.cells, (char[]){m.cells[0], '\0'}) == n)
        return;
    char legend[256];
    int len = snprintf(legend, sizeof legend,
                       "error map of the %dx%d output, a character per %dx%d elements, row 0 on "
                       "top: '.' right, 'x' wrong, 'o' never written",
                       m.rows, m.cols, error_map_cell_rows(&m), error_map_cell_cols(&m));
    fputs(o->p.dim, o->to);
    print_wrapped(o, INDENT, legend, (size_t)len, 3);
    fputs(o->p.reset, o->to);
    for (int r = 0; r < m.map_rows; r++)
        print_map_row(o, m.cells + (size_t)r * m.map_cols, m.map_cols);
}

/* ---- a test's message ------------------------------------------------------------------ */

/* Lines the short report leaves to the JSON: the emulator's timing (not a
 * GPU time) and its findings (the checks below report them). */
static int short_skips(const char *line, size_t len)
{
    return (len > 12 && strncmp(line, "kernel time:", 12) == 0 && memmem(line, len, "emulator", 8)) ||
           (len > 9 && strncmp(line, "emulator ", 9) == 0) ||
           (len > 1 && line[0] == '(' && memmem(line, len, "findings not shown", 18));
}

/* Prints a message under a test, wrapped, at most max_lines lines; in the
 * short form without the lines the JSON keeps and with fewer mismatches. */
static void print_message(const out_t *o, const char *text, int max_lines, int short_form)
{
    int shown = 0, more = 0, mismatches = -1;
    for (const char *s = text; s && *s;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        const char *line = s;
        s = nl ? nl + 1 : NULL;
        if (short_form && short_skips(line, len))
            continue;
        if (mismatches >= 0 && len > 2 && line[0] == ' ' && line[1] == ' ') {
            if (short_form && ++mismatches > SHORT_MISMATCHES)
                continue;
        } else {
            mismatches = strncmp(line, "first mismatches", 16) == 0 ? 0 : -1;
        }
        if (shown >= max_lines) {
            more++;
            continue;
        }
        int n = print_wrapped(o, INDENT, line, len, max_lines - shown);
        if (n > max_lines - shown) {
            shown = max_lines;
            more++;
        } else {
            shown += n;
        }
    }
    if (more)
        fprintf(o->to, "%*s%s... more in the JSON report (or cugrade run --verbose)%s\n", INDENT, "",
                o->p.dim, o->p.reset);
}

/* "PASS   4/4   what", the line of a test or a group: what is wrapped, its
 * continuation lines aligned under its start. */
static void print_head(const out_t *o, const char *label, const char *colour, double score,
                       double max, const char *what)
{
    enum { WHAT_COLUMN = 19 }; /* "  PASS  %5g/%-4g " */
    fprintf(o->to, "  %s%s%s  %5g/%-4g ", colour, label, o->p.reset, score, max);
    size_t len = strlen(what);
    while (len > 0 && what[len - 1] == '\n')
        len--;
    print_wrapped_from(o, WHAT_COLUMN, WHAT_COLUMN, 1, what, len, 5);
}

static void print_verdict_head(const out_t *o, const test_result_t *t, double score, double max,
                               const char *what)
{
    if (is_skipped(t)) {
        strbuf_t line = {0};
        sb_appendf(&line, "%s: %s", what, t->output);
        print_head(o, "SKIP", o->p.dim, score, max, sb_str(&line));
        sb_free(&line);
        return;
    }
    print_head(o, t->passed ? "PASS" : "FAIL", t->passed ? o->p.green : o->p.red, score, max, what);
}

/* ---- the verbose listing --------------------------------------------------------------- */

static void print_test(const out_t *o, const test_result_t *t, int *map_shown)
{
    print_verdict_head(o, t, t->score, t->max_score, t->name);
    if (t->passed || !t->output || is_gated(t) || is_skipped(t))
        return; /* a gated test: the compile failure above already says why */
    print_message(o, t->output, strstr(t->name, "compile") ? 40 : DETAIL_LINES, 0);
    if (t->error_map && !*map_shown) {
        print_error_map(o, t->error_map, MAP_TEXT_ROWS);
        *map_shown = 1;
    }
}

/* ---- the short report ------------------------------------------------------------------- */

/* The dataset's id from its test name, "dataset 4 (100x128x64)" -> "4",
 * "hidden dataset 2 (1x1x1)" -> "2". */
static void dataset_id(const test_result_t *t, char *id, size_t len)
{
    const char *s = t->name;
    if (strncmp(s, "hidden ", 7) == 0)
        s += 7;
    if (strncmp(s, "dataset ", 8) == 0)
        s += 8;
    size_t n = strcspn(s, " ");
    snprintf(id, len, "%.*s", (int)n, s);
}

static int numeric_id(const char *id, long *out)
{
    char *end;
    *out = strtol(id, &end, 10);
    return *id && !*end;
}

/* "4, 6, 8–14" of the tests picked[0..n). */
static void id_ranges(const grade_t *g, const int *picked, int n, strbuf_t *sb)
{
    for (int i = 0; i < n;) {
        char first[64], id[64];
        dataset_id(&g->tests[picked[i]], first, sizeof first);
        long a, b;
        int j = i + 1;
        if (numeric_id(first, &a))
            for (long next = a + 1; j < n; j++, next++) {
                dataset_id(&g->tests[picked[j]], id, sizeof id);
                if (!numeric_id(id, &b) || b != next)
                    break;
            }
        sb_appendf(sb, "%s%s", i ? ", " : "", first);
        if (j - i >= 3) {
            dataset_id(&g->tests[picked[j - 1]], id, sizeof id);
            sb_appendf(sb, "\xE2\x80\x93%s", id); /* an en dash */
            i = j;
        } else {
            i++;
        }
    }
}

/* "datasets 4, 6, 8–14 and hidden 2, 5 (9 datasets)" of the tests
 * picked[0..n): the public ones, then the hidden ones. */
static void dataset_list(const grade_t *g, const int *picked, int n, int all, strbuf_t *sb)
{
    int *pub = malloc(sizeof *pub * (size_t)n), *hid = malloc(sizeof *hid * (size_t)n);
    int npub = 0, nhid = 0;
    for (int i = 0; pub && hid && i < n; i++) {
        if (g->tests[picked[i]].is_hidden)
            hid[nhid++] = picked[i];
        else
            pub[npub++] = picked[i];
    }
    if (npub > 0) {
        sb_append(sb, "datasets ");
        id_ranges(g, pub, npub, sb);
    }
    if (nhid > 0) {
        sb_append(sb, npub ? " and hidden " : "hidden datasets ");
        id_ranges(g, hid, nhid, sb);
    }
    if (all)
        sb_appendf(sb, " (all %d)", n);
    else
        sb_appendf(sb, " (%d dataset%s)", n, n == 1 ? "" : "s");
    free(pub);
    free(hid);
}

/* One block: the datasets of one failure (or every passing one); the
 * message shown is the first whose own failure is the block's (not one
 * that joined it as consistent with it: group_key). */
static void print_dataset_block(const out_t *o, const grade_t *g, const int *picked, int n,
                                int ndatasets, const char *key)
{
    const test_result_t *first = &g->tests[picked[0]];
    int joined = 0;
    for (int i = n - 1; i >= 0; i--) {
        const test_result_t *t = &g->tests[picked[i]];
        if (t->passed || strcmp(t->failure, key) == 0)
            first = t;
        else
            joined++;
    }
    double score = 0, max = 0;
    for (int i = 0; i < n; i++)
        score += g->tests[picked[i]].score, max += g->tests[picked[i]].max_score;
    strbuf_t what = {0};
    if (n == 1) {
        sb_append(&what, first->name);
    } else {
        dataset_list(g, picked, n, n == ndatasets, &what);
    }
    print_verdict_head(o, first, score, max, sb_str(&what));
    sb_free(&what);
    if (first->passed || !first->output || is_gated(first))
        return;
    if (n > 1)
        fprintf(o->to, "%*s%s%s, the first of them:%s\n", INDENT, "", o->p.dim, first->name,
                o->p.reset);
    print_message(o, first->output, SHORT_DETAIL_LINES, 1);
    if (joined > 0)
        fprintf(o->to, "%*s%s(%d of them fit another mistake too; the rest show it is this one)%s\n", INDENT, "", o->p.dim, joined, o->p.reset);
    if (first->error_map)
        print_error_map(o, first->error_map, MAP_SHORT_ROWS);
}

/* How a dataset failed, for grouping: its key, or its whole message. */
static const char *failure_of(const test_result_t *t)
{
    if (t->passed)
        return "passed";
    if (is_gated(t))
        return "not compiled";
    return t->failure[0] ? t->failure : t->output ? t->output : "";
}

/* The block a dataset goes in: its failure, but a dataset whose output fits
 * several mistakes ("consistent:a,b") joins the block of one of them that
 * another dataset's output fits alone ("hypothesis:a"): that one tells
 * them apart (matmul_hypotheses.c says the same in its hint). */
static const char *group_key(const grade_t *g, const test_result_t *t)
{
    const char *key = failure_of(t);
    if (strncmp(key, "consistent:", 11) != 0)
        return key;
    for (int i = 0; i < g->ntests; i++) {
        const char *other = g->tests[i].is_dataset ? g->tests[i].failure : "";
        if (strncmp(other, "hypothesis:", 11) != 0)
            continue;
        size_t len = strlen(other + 11);
        for (const char *id = key + 11; *id; id += strcspn(id, ","), id += *id == ',')
            if (strncmp(id, other + 11, len) == 0 && (id[len] == ',' || id[len] == '\0'))
                return other;
    }
    return key;
}

/* Every dataset test, public and hidden: the failing ones in blocks by
 * failure (in the order they first fail), then the passing ones on one
 * line. */
static void print_datasets(const out_t *o, const grade_t *g)
{
    int n = 0;
    int *ds = malloc(sizeof *ds * (size_t)g->ntests), *picked = malloc(sizeof *ds * (size_t)g->ntests);
    char *done = calloc((size_t)g->ntests + 1, 1);
    if (!ds || !picked || !done)
        goto out;
    for (int i = 0; i < g->ntests; i++)
        if (g->tests[i].is_dataset)
            ds[n++] = i;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            const test_result_t *t = &g->tests[ds[i]];
            if (done[i] || t->passed != pass)
                continue;
            int npicked = 0;
            const char *key = group_key(g, t);
            for (int j = i; j < n; j++)
                if (!done[j] && g->tests[ds[j]].passed == pass &&
                    strcmp(group_key(g, &g->tests[ds[j]]), key) == 0) {
                    picked[npicked++] = ds[j];
                    done[j] = 1;
                }
            print_dataset_block(o, g, picked, npicked, n, key);
        }
out:
    free(ds);
    free(picked);
    free(done);
}

/* Consecutive tests from *i on with t's verdict and message, as one line:
 * "FAIL 0/20 race-free, barriers-uniform, ...". Advances *i past them. */
static void print_test_run(const out_t *o, const grade_t *g, int *i)
{
    const test_result_t *t = &g->tests[*i];
    double score = 0, max = 0;
    strbuf_t names = {0};
    int j = *i;
    for (; j < g->ntests; j++) {
        const test_result_t *u = &g->tests[j];
        if (u->is_dataset || is_skipped(u) || u->passed != t->passed ||
            (!t->passed && !same_text(u->output, t->output)) || u->error_map)
            break;
        sb_appendf(&names, "%s%s", j > *i ? ", " : "", u->name);
        score += u->score, max += u->max_score;
    }
    print_verdict_head(o, t, score, max, sb_str(&names));
    sb_free(&names);
    if (!t->passed && t->output && !is_gated(t))
        print_message(o, t->output, strstr(t->name, "compile") ? 40 : SHORT_DETAIL_LINES, 1);
    *i = j;
}

/* Why the tests were not run, from the "compiles" test's message: "no
 * matmul.cu found", "the file is empty", else "the submission does not
 * compile". */
static void gate_reason(const grade_t *g, char *why, size_t len)
{
    snprintf(why, len, "the submission does not compile");
    for (int i = 0; i < g->ntests; i++) {
        const test_result_t *t = &g->tests[i];
        if (t->passed || !t->output || !strstr(t->name, "compile"))
            continue;
        const char *found = strstr(t->output, " found");
        if (strncmp(t->output, "FAILED: no ", 11) == 0 && found)
            snprintf(why, len, "%.*s", (int)(found + 6 - (t->output + 8)), t->output + 8);
        else if (strstr(t->output, " is empty (0 bytes)"))
            snprintf(why, len, "the file is empty");
    }
}

/* The tests a compile failure kept from running, as one line. */
static void print_gated(const out_t *o, const grade_t *g)
{
    int n = 0;
    double max = 0;
    for (int i = 0; i < g->ntests; i++)
        if (is_gated(&g->tests[i]))
            n++, max += g->tests[i].max_score;
    char what[256], why[160];
    gate_reason(g, why, sizeof why);
    snprintf(what, sizeof what, "the other %d tests: not run, %s", n, why);
    print_head(o, "FAIL", o->p.red, 0, max, what);
}

static void print_short(const out_t *o, const grade_t *g)
{
    int datasets_shown = 0, gated_shown = 0;
    for (int i = 0; i < g->ntests;) {
        const test_result_t *t = &g->tests[i];
        if (is_gated(t)) {
            if (!gated_shown)
                print_gated(o, g);
            gated_shown = 1;
            i++;
        } else if (t->is_dataset) {
            if (!datasets_shown)
                print_datasets(o, g);
            datasets_shown = 1;
            i++;
        } else if (is_skipped(t)) {
            print_verdict_head(o, t, t->score, t->max_score, t->name);
            i++;
        } else {
            print_test_run(o, g, &i);
        }
    }
}

void report_print(FILE *to, const grade_run_t *run, const char *lab, color_mode_t color,
                  int verbose)
{
    out_t o = {to, pick_palette(to, color), pick_width(to)};
    const palette_t *p = &o.p;
    fprintf(to, "%scugrade%s %s  %s\n", p->bold, p->reset, lab,
            run->student_file[0] ? run->student_file : "(no student file)");
    char line[512];
    int len = snprintf(line, sizeof line, "backend: %s (%s); %s", backend_name(run->backend),
                       run->backend_why, sandbox_description());
    print_wrapped(&o, 2, line, (size_t)len, 3);
    fputc('\n', to);
    int not_run = 0, map_shown = 0;
    for (int i = 0; i < run->grade.ntests; i++) {
        not_run += is_gated(&run->grade.tests[i]);
        if (verbose)
            print_test(&o, &run->grade.tests[i], &map_shown);
    }
    if (!verbose)
        print_short(&o, &run->grade);
    if (not_run && verbose) {
        char why[160];
        gate_reason(&run->grade, why, sizeof why);
        fprintf(to, "\n  %d test%s not run: %s.\n", not_run, not_run == 1 ? "" : "s", why);
    }
    double score = grade_score(&run->grade), max = grade_max_score(&run->grade);
    fprintf(to, "\n  %sScore: %g / %g%s   (%d of %d datasets", p->bold, score, max, p->reset,
            run->datasets_passed, run->datasets_total);
    if (run->hidden_total > 0)
        fprintf(to, " and %d of %d hidden ones", run->hidden_passed, run->hidden_total);
    fprintf(to, " passed, %.1f s)\n", run->grade.execution_time);
    if (run->cannot_grade)
        fprintf(to, "  %scugrade could not grade everything:%s %s\n", p->red, p->reset, run->error);
}
