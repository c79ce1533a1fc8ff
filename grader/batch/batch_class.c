/* batch_class.c - the class files of `cugrade batch`: gradebook.csv,
 * summary.json, class.html and every student's report.html, rebuilt from
 * every RESULTS_DIR/<id>/results.json, and the class summary printed at the
 * end of a batch. */
#include "batch/batch.h"
#include "batch/batch_baseline.h"
#include "batch/gpu_holds.h"
#include "report/board.h"
#include "report/html_class.h"
#include "report/html_report.h"
#include "report/results.h"
#include "util/util.h"

#include <dirent.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef class_row_t row_t;
typedef class_cell_t cell_t;
typedef class_data_t class_t;
typedef class_counts_t counts_t;

static const char *get_str(json_object *o, const char *key)
{
    json_object *v;
    const char *s = json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
    return s ? s : ""; /* also for a JSON null */
}

static double get_num(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) ? json_object_get_double(v) : 0;
}

/* The first failing test's error map becomes the row's thumbnail. */
static void read_map(row_t *r, json_object *t)
{
    json_object *extra, *map;
    error_map_t m;
    if (r->map || !json_object_object_get_ex(t, "extra_data", &extra) ||
        !json_object_object_get_ex(extra, "error_map", &map) || error_map_from_json(map, &m) != 0)
        return;
    r->map = malloc(sizeof *r->map);
    if (r->map) {
        *r->map = m;
        r->map_test = r->ntests - 1;
    }
}

#define WHY_MAX 110 /* bytes of a first failure's reason shown in the table */

/* One line of a failed test's output that says why, for the class table: a
 * compile's first error (the file named by its base name: "matmul.cu:12:5:
 * error: ..."), else the output's first line, "FAILED: " taken off; cut at
 * WHY_MAX bytes on a character's boundary. malloc'd. */
static char *reason_line(const char *test, const char *out)
{
    const char *line = out;
    if (strcmp(test, "compiles") == 0)
        for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
            const char *err = strstr(p, ": error:"), *eol = strchr(p, '\n');
            if (err && (!eol || err < eol)) {
                const char *base = p;
                for (const char *q = p; q < err; q++)
                    if (*q == '/')
                        base = q + 1;
                line = base;
                break;
            }
        }
    if (strncmp(line, "FAILED: ", 8) == 0)
        line += 8;
    size_t len = strcspn(line, "\n");
    int cut = len > WHY_MAX;
    if (cut) {
        len = WHY_MAX;
        while (len > 0 && ((unsigned char)line[len] & 0xC0) == 0x80)
            len--; /* not inside a UTF-8 character */
    }
    char *why = malloc(len + 4);
    if (why)
        snprintf(why, len + 4, "%.*s%s", (int)len, line, cut ? "\u2026" : "");
    return why;
}

static void read_test(row_t *r, json_object *t)
{
    cell_t *c = &r->tests[r->ntests++];
    const char *out = get_str(t, "output");
    c->name = strdup(get_str(t, "name"));
    c->score = get_num(t, "score");
    c->max_score = get_num(t, "max_score");
    c->passed = strcmp(get_str(t, "status"), "passed") == 0;
    c->skipped = c->max_score == 0 && strncmp(out, "not ", 4) == 0;
    c->not_run = !c->passed && (strncmp(out, "not run", 7) == 0 ||
                                strncmp(out, "FAILED: the program was not run", 31) == 0);
    r->max += c->max_score;
    if (!c->passed)
        read_map(r, t);
    if (!c->passed && !c->skipped && r->nfailed++ == 0) {
        r->first_fail = r->ntests - 1;
        r->first_why = reason_line(c->name, out);
    }
    if (strcmp(c->name, "compiles") == 0 && !c->passed) { /* no file, an empty one, or failed */
        if (strncmp(out, "FAILED: no ", 11) == 0)
            r->no_file = 1;
        else if (strstr(out, " is empty (0 bytes)"))
            r->empty_file = 1;
        else
            r->no_compile = 1;
    }
    if (strstr(out, "exceeded the time limit"))
        r->timed_out = 1;
    if (strstr(out, "killed by signal"))
        r->crashed = 1;
}

/* Reads one results.json into r. Returns -1 if it cannot be read. */
static int load_row(const char *path, const char *id, row_t *r)
{
    memset(r, 0, sizeof *r);
    json_object *j = json_object_from_file(path), *tests, *extra, *v;
    if (!j)
        return -1;
    r->id = strdup(id);
    r->first_fail = -1;
    r->total = get_num(j, "score");
    if (json_object_object_get_ex(j, "extra_data", &extra)) {
        r->cannot_grade = json_object_object_get_ex(extra, "batch_error", &v);
        if (r->cannot_grade)
            r->cannot_why = strdup(json_object_get_string(v));
        if (json_object_object_get_ex(extra, "submission_error", &v)) /* a refused archive */
            r->rejected = strdup(json_object_get_string(v)), r->cannot_grade = 1;
        r->perf_ratio = get_num(extra, "perf_ratio");
        roofline_t rl;
        if (json_object_object_get_ex(extra, "roofline", &v) && roofline_from_json(v, &rl) == 0 &&
            (r->roofline = malloc(sizeof rl)))
            *r->roofline = rl;
        snprintf(r->lab, sizeof r->lab, "%s", get_str(extra, "lab"));
    }
    if (json_object_object_get_ex(j, "tests", &tests) && json_object_is_type(tests, json_type_array)) {
        size_t n = json_object_array_length(tests);
        r->tests = calloc(n ? n : 1, sizeof *r->tests);
        for (size_t i = 0; i < n; i++)
            read_test(r, json_object_array_get_idx(tests, i));
    }
    json_object_put(j);
    return 0;
}

static void free_row(row_t *r)
{
    for (int i = 0; i < r->ntests; i++)
        free(r->tests[i].name);
    free(r->tests);
    free(r->map);
    free(r->roofline);
    free(r->rejected);
    free(r->cannot_why);
    free(r->first_why);
    free(r->id);
}

int batch_row_line(const char *results_path, char *buf, size_t buflen)
{
    row_t r;
    if (load_row(results_path, "", &r) != 0)
        return snprintf(buf, buflen, "results.json unreadable"), -1;
    if (r.cannot_grade) {
        snprintf(buf, buflen, "could not grade (%s)", r.cannot_why ? r.cannot_why : "");
    } else {
        snprintf(buf, buflen, "%g/%g", r.total, r.max);
    }
    free_row(&r);
    return 0;
}

/* ---- loading the class ------------------------------------------------------ */

static void add_column(class_t *c, const char *name)
{
    for (int i = 0; i < c->ncols; i++)
        if (strcmp(c->cols[i], name) == 0)
            return;
    if (c->ncols == c->colcap) {
        c->colcap = c->colcap ? 2 * c->colcap : 16;
        c->cols = realloc(c->cols, (size_t)c->colcap * sizeof *c->cols);
    }
    c->cols[c->ncols++] = strdup(name);
}

/* Columns: the tests of the first graded submission in order, then any new
 * names in the order the rows bring them. */
static void make_columns(class_t *c)
{
    for (int i = 0; i < c->n; i++) {
        if (c->rows[i].cannot_grade)
            continue;
        for (int t = 0; t < c->rows[i].ntests; t++)
            add_column(c, c->rows[i].tests[t].name);
        break;
    }
    for (int i = 0; i < c->n; i++) /* a refused archive's one test is no column */
        for (int t = 0; t < c->rows[i].ntests && !c->rows[i].rejected; t++)
            add_column(c, c->rows[i].tests[t].name);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_class(const char *out_dir, class_t *c)
{
    memset(c, 0, sizeof *c);
    DIR *d = opendir(out_dir);
    if (!d)
        return -1;
    char **ids = NULL;
    int n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            ids = realloc(ids, (size_t)cap * sizeof *ids);
        }
        ids[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n > 0)
        qsort(ids, (size_t)n, sizeof *ids, cmp_name);
    c->rows = calloc((size_t)n + 1, sizeof *c->rows);
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s/results.json", out_dir, ids[i]);
        if (is_file(path) && load_row(path, ids[i], &c->rows[c->n]) == 0)
            c->n++;
        free(ids[i]);
    }
    free(ids);
    make_columns(c);
    return 0;
}

/* One sentence on the batch's baseline timings (batch_baseline.h): how
 * often the reference was timed, and its largest spread over a shape. */
static char *gpu_spread_text(json_object *all)
{
    int timings = 0;
    double worst = -1;
    const char *shape = "";
    for (size_t f = 0; all && f < json_object_array_length(all); f++) {
        json_object *file = json_object_array_get_idx(all, f), *list, *spreads;
        if (json_object_object_get_ex(file, "timings", &list))
            timings += (int)json_object_array_length(list);
        if (!json_object_object_get_ex(file, "spread", &spreads))
            continue;
        for (size_t i = 0; i < json_object_array_length(spreads); i++) {
            json_object *one = json_object_array_get_idx(spreads, i), *v, *name;
            if (json_object_object_get_ex(one, "spread", &v) &&
                json_object_get_double(v) > worst &&
                json_object_object_get_ex(one, "shape", &name)) {
                worst = json_object_get_double(v);
                shape = json_object_get_string(name);
            }
        }
    }
    if (timings == 0 || worst < 0)
        return NULL;
    strbuf_t sb = {0};
    sb_appendf(&sb, "The batch timed the reference %d time(s) on its GPUs (perf-baselines*.json); "
                    "its speed varied by at most %.1f%% (%s), the most a ratio here can owe to "
                    "the GPU or the moment that timed it.", timings, 100 * worst, shape);
    return sb_detach(&sb);
}

static void free_class(class_t *c)
{
    free(c->gpu_spread);
    free(c->gpu_use);
    for (int i = 0; i < c->n; i++)
        free_row(&c->rows[i]);
    for (int i = 0; i < c->ncols; i++)
        free(c->cols[i]);
    free(c->rows);
    free(c->cols);
}

/* ---- gradebook.csv ---------------------------------------------------------- */

static void csv_field(strbuf_t *sb, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        sb_append(sb, s);
        return;
    }
    sb_append(sb, "\"");
    for (; *s; s++)
        sb_appendn(sb, *s == '"' ? "\"\"" : s, *s == '"' ? 2 : 1);
    sb_append(sb, "\"");
}

static char *gradebook_csv(const class_t *c)
{
    strbuf_t sb = {0};
    sb_append(&sb, "id,total,max");
    for (int k = 0; k < c->ncols; k++) {
        sb_append(&sb, ",");
        csv_field(&sb, c->cols[k]);
    }
    sb_append(&sb, "\n");
    for (int i = 0; i < c->n; i++) {
        const row_t *r = &c->rows[i];
        csv_field(&sb, r->id);
        if (r->rejected) { /* not graded: no number to import */
            sb_append(&sb, ",,");
            for (int k = 0; k < c->ncols; k++)
                sb_append(&sb, ",");
            sb_append(&sb, "\n");
            continue;
        }
        sb_appendf(&sb, ",%g,%g", r->total, r->max);
        for (int k = 0; k < c->ncols; k++) {
            const cell_t *cell = class_find_cell(r, c->cols[k]);
            sb_append(&sb, ",");
            if (cell)
                sb_appendf(&sb, "%g", cell->score);
        }
        sb_append(&sb, "\n");
    }
    return sb_detach(&sb);
}

/* ---- summary.json ----------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static json_object *totals_json(const class_t *c, double *mean_out)
{
    double *v = calloc((size_t)c->n + 1, sizeof *v), sum = 0, top = 0;
    int n = 0;
    for (int i = 0; i < c->n; i++) {
        if (c->rows[i].cannot_grade)
            continue;
        v[n++] = c->rows[i].total;
        sum += c->rows[i].total;
        top = fmax(top, c->rows[i].max);
    }
    json_object *o = json_object_new_object();
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    *mean_out = n ? sum / n : 0;
    double median = n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
    json_object_object_add(o, "mean", n ? json_object_new_double(sum / n) : NULL);
    json_object_object_add(o, "median", n ? json_object_new_double(median) : NULL);
    json_object_object_add(o, "min", n ? json_object_new_double(v[0]) : NULL);
    json_object_object_add(o, "max", n ? json_object_new_double(v[n - 1]) : NULL);
    json_object_object_add(o, "max_possible", json_object_new_double(top));
    int bins[10] = {0};
    for (int i = 0; i < n; i++) {
        int b = top > 0 ? (int)floor(v[i] / top * 10) : 0;
        bins[b < 0 ? 0 : b > 9 ? 9 : b]++;
    }
    json_object *h = json_object_new_array();
    for (int b = 0; b < 10; b++)
        json_object_array_add(h, json_object_new_int(bins[b]));
    json_object_object_add(o, "histogram", h);
    json_object_object_add(o, "histogram_bin_width", json_object_new_double(top / 10));
    free(v);
    return o;
}

static json_object *pass_rates_json(const class_t *c)
{
    json_object *o = json_object_new_object();
    for (int k = 0; k < c->ncols; k++) { /* null: run for nobody (performance on the emulator) */
        int have, pass;
        class_pass_count(c, c->cols[k], &pass, &have);
        json_object_object_add(o, c->cols[k],
                               have > 0 ? json_object_new_double((double)pass / have) : NULL);
    }
    return o;
}

/* The students whose archive was refused, each with why. */
static json_object *not_graded_json(const class_t *c)
{
    json_object *a = json_object_new_array();
    for (int i = 0; i < c->n; i++)
        if (c->rows[i].rejected) {
            json_object *o = json_object_new_object();
            json_object_object_add(o, "id", json_object_new_string(c->rows[i].id));
            json_object_object_add(o, "why", json_object_new_string(c->rows[i].rejected));
            json_object_array_add(a, o);
        }
    return a;
}

static counts_t count_class(const class_t *c)
{
    counts_t k = {0};
    for (int i = 0; i < c->n; i++) {
        const row_t *r = &c->rows[i];
        k.rejected += r->rejected != NULL;
        k.cannot += r->cannot_grade && !r->rejected;
        k.graded += !r->cannot_grade;
        k.no_compile += r->no_compile;
        k.no_file += r->no_file;
        k.empty_file += r->empty_file;
        k.timed_out += r->timed_out;
        k.crashed += r->crashed;
        k.max = fmax(k.max, r->max);
    }
    return k;
}

/* summary.json; it takes baselines (may be NULL). */
static char *summary_json(const class_t *c, counts_t *k, const board_t *board,
                          json_object *baselines, json_object *gpu_queues)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "submissions", json_object_new_int(c->n));
    json_object_object_add(o, "graded", json_object_new_int(k->graded));
    json_object_object_add(o, "could_not_grade", json_object_new_int(k->cannot));
    json_object_object_add(o, "not_graded", not_graded_json(c));
    json_object_object_add(o, "did_not_compile", json_object_new_int(k->no_compile));
    json_object_object_add(o, "no_file", json_object_new_int(k->no_file));
    json_object_object_add(o, "empty_file", json_object_new_int(k->empty_file));
    json_object_object_add(o, "timed_out", json_object_new_int(k->timed_out));
    json_object_object_add(o, "crashed", json_object_new_int(k->crashed));
    json_object_object_add(o, "total", totals_json(c, &k->mean));
    json_object_object_add(o, "pass_rate", pass_rates_json(c));
    json_object_object_add(o, "leaderboard", board_to_json(board));
    if (baselines) /* the GPUs' reference timings */
        json_object_object_add(o, "perf_baselines", baselines);
    if (gpu_queues) /* where the GPUs' time went */
        json_object_object_add(o, "gpu_queues", gpu_queues);
    char *text = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
    json_object_put(o);
    return text;
}

static int write_text(const char *dir, const char *name, const char *text, char *err, size_t errlen)
{
    char path[PATH_MAX];
    if (path_join(path, sizeof path, dir, name) != 0)
        return fail(err, errlen, "%s/%s: path too long", dir, name);
    return write_file_atomic(path, text, strlen(text), err, errlen);
}

/* Every student's report.html (linking back to the class page), then
 * class.html. */
static int write_html(const char *out_dir, const class_t *c, const counts_t *k,
                      const board_t *board, char *err, size_t errlen)
{
    for (int i = 0; i < c->n; i++) {
        char src[PATH_MAX], dst[PATH_MAX];
        int a = snprintf(src, sizeof src, "%s/%s/results.json", out_dir, c->rows[i].id);
        int b = snprintf(dst, sizeof dst, "%s/%s/report.html", out_dir, c->rows[i].id);
        if (a < 0 || (size_t)a >= sizeof src || b < 0 || (size_t)b >= sizeof dst)
            return fail(err, errlen, "%s/%s: path too long", out_dir, c->rows[i].id);
        if (html_write_student_page(src, c->rows[i].id, dst, "../class.html", err, errlen) != 0)
            return -1;
    }
    char *html = html_class_page(c, k, board);
    int rc = write_text(out_dir, "class.html", html, err, errlen);
    free(html);
    return rc;
}

/* The leaderboard of the class's lab (the first row's). */
static void load_board(const char *out_dir, const class_t *c, board_t *b)
{
    const char *lab = NULL;
    for (int i = 0; i < c->n && !lab; i++)
        lab = c->rows[i].lab[0] ? c->rows[i].lab : NULL;
    char err[512];
    if (board_load(out_dir, lab, b, err, sizeof err) != 0) { /* the folder just read: unlikely */
        board_free(b);
        memset(b, 0, sizeof *b);
    }
}

int batch_write_class_files(const char *out_dir, FILE *out, char *err, size_t errlen)
{
    class_t c;
    if (load_class(out_dir, &c) != 0)
        return fail(err, errlen, "%s: cannot read the results folder", out_dir);
    counts_t k = count_class(&c);
    board_t board;
    load_board(out_dir, &c, &board);
    json_object *baselines = baselines_load_all(out_dir);
    c.gpu_spread = gpu_spread_text(baselines);
    char queue[PATH_MAX];
    snprintf(queue, sizeof queue, "%.4000s/.gpu-queue", out_dir);
    gpu_holds_t holds;
    gpu_holds_read(queue, &holds);
    c.gpu_use = gpu_holds_text(&holds);
    char *csv = gradebook_csv(&c);
    char *sum = summary_json(&c, &k, &board, baselines, gpu_holds_json(&holds));
    int rc = write_text(out_dir, "gradebook.csv", csv, err, errlen);
    if (rc == 0)
        rc = write_text(out_dir, "summary.json", sum, err, errlen);
    if (rc == 0)
        rc = write_html(out_dir, &c, &k, &board, err, errlen);
    if (out)
        fprintf(out,
                "class: %d submission(s), %d graded, %d not graded (archive refused), %d could "
                "not grade, mean total %.4g / %g;"
                " %d did not compile, %d had no file, %d an empty one, %d timed out, %d crashed\n",
                c.n, k.graded, k.rejected, k.cannot, k.mean, k.max, k.no_compile, k.no_file,
                k.empty_file,
                k.timed_out, k.crashed);
    for (char *save, *line = out && c.gpu_use ? strtok_r(c.gpu_use, "\n", &save) : NULL; line;
         line = strtok_r(NULL, "\n", &save)) /* the last use of gpu_use: cut into lines */
        fprintf(out, "gpu: %s\n", line);
    free(csv);
    free(sum);
    free_class(&c);
    board_free(&board);
    return rc;
}
