/* board.c - the class leaderboard read back from results.json files
 * (board.h): parse, say why a student is not ranked, rank, and as JSON. */
#include "report/board.h"
#include "report/results.h"

#include <dirent.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading one results.json ------------------------------------------------------ */

static json_object *member(json_object *o, const char *key)
{
    json_object *v = NULL;
    return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *str_of(json_object *o, const char *key)
{
    json_object *v = member(o, key);
    return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static int is_number(json_object *v)
{
    return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

static double num_of(json_object *o, const char *key, double dflt)
{
    json_object *v = member(o, key);
    return v && is_number(v) ? json_object_get_double(v) : dflt;
}

/* The 1-based line of a byte offset. */
static int line_at(const char *text, size_t offset)
{
    int line = 1;
    for (size_t i = 0; i < offset && text[i]; i++)
        line += text[i] == '\n';
    return line;
}

static void add_skipped(board_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_skipped(board_t *b, const char *fmt, ...)
{
    strbuf_t sb = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vappendf(&sb, fmt, ap);
    va_end(ap);
    b->skipped = realloc(b->skipped, (size_t)(b->nskipped + 1) * sizeof *b->skipped);
    b->skipped[b->nskipped++] = sb_detach(&sb);
}

/* The text as one JSON object, or NULL with the skip recorded. */
static json_object *parse(board_t *b, const char *text, const char *path)
{
    json_tokener *tok = json_tokener_new();
    size_t len = strlen(text);
    json_object *j = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error e = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (!j && e == json_tokener_continue)
        add_skipped(b, "%s:%d: not JSON: the file ends inside a value", path, line_at(text, len));
    else if (!j)
        add_skipped(b, "%s:%d: not JSON: %s", path, line_at(text, end), json_tokener_error_desc(e));
    else if (end + strspn(text + end, " \t\r\n") < len)
        add_skipped(b, "%s:%d: not JSON: text after the value", path, line_at(text, end));
    else if (!json_object_is_type(j, json_type_object))
        add_skipped(b, "%s: not a results.json: not a JSON object", path);
    else
        return j;
    json_object_put(j);
    return NULL;
}

/* "TFLOP/s (geomean)" -> "TFLOP/s"; "% of cuBLAS (geomean)" -> "cuBLAS". */
static void name_part(const char *name, const char *prefix, char *out, size_t outlen)
{
    name += strlen(prefix);
    const char *paren = strstr(name, " (");
    snprintf(out, outlen, "%.*s", (int)(paren ? paren - name : (long)strlen(name)), name);
}

/* The per-shape percent from extra_data.performance_shapes. */
static double shape_percent(json_object *shapes, const char *shape, const char *baseline)
{
    const char *key = strcmp(baseline, "cuBLAS") == 0 ? "ratio_to_cublas" : "ratio_to_reference";
    size_t n = json_object_is_type(shapes, json_type_array) ? json_object_array_length(shapes) : 0;
    for (size_t i = 0; i < n; i++) {
        json_object *s = json_object_array_get_idx(shapes, i);
        const char *name = str_of(s, "shape");
        double ratio = num_of(s, key, -1); /* null where it was not timed */
        if (name && strcmp(name, shape) == 0)
            return ratio >= 0 ? 100 * ratio : -1;
    }
    return -1;
}

/* One entry of the list after the first: the percent or a shape's rate. */
static void read_entry(board_row_t *r, const char *name, double value, json_object *shapes)
{
    size_t ulen = strlen(r->unit);
    if (strncmp(name, "% of ", 5) == 0 && r->percent < 0) {
        name_part(name, "% of ", r->baseline, sizeof r->baseline);
        r->percent = value;
    } else if (strncmp(name, r->unit, ulen) == 0 && name[ulen] == ' ' && r->nshapes < PERF_MAX_SHAPES) {
        board_shape_t *s = &r->shapes[r->nshapes++];
        snprintf(s->shape, sizeof s->shape, "%s", name + ulen + 1);
        s->value = value;
        s->percent = r->baseline[0] ? shape_percent(shapes, s->shape, r->baseline) : -1;
    }
}

/* The "leaderboard" list into r; -1 (skip recorded) when it is malformed. */
static int read_board(board_t *b, board_row_t *r, json_object *list, json_object *extra,
                      const char *path)
{
    if (!json_object_is_type(list, json_type_array) || json_object_array_length(list) == 0) {
        add_skipped(b, "%s: \"leaderboard\" is not a list of entries", path);
        return -1;
    }
    size_t n = json_object_array_length(list);
    for (size_t i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(list, i), *v = member(e, "value");
        const char *name = str_of(e, "name"), *order = str_of(e, "order");
        if (!name || !v || !is_number(v) || !isfinite(json_object_get_double(v)) ||
            (order && strcmp(order, "asc") != 0 && strcmp(order, "desc") != 0)) {
            add_skipped(b, "%s: \"leaderboard\" entry %zu needs a \"name\", a number \"value\" "
                           "and an \"order\" of \"asc\" or \"desc\"", path, i + 1);
            return -1;
        }
        if (i == 0) {
            name_part(name, "", r->unit, sizeof r->unit);
            r->value = json_object_get_double(v);
            r->ascending = order && strcmp(order, "asc") == 0;
        } else {
            read_entry(r, name, json_object_get_double(v), member(extra, "performance_shapes"));
        }
    }
    r->rank = -1; /* ranked: board_rank numbers it */
    return 0;
}

static json_object *find_test(json_object *j, const char *name)
{
    json_object *tests = member(j, "tests");
    size_t n = json_object_is_type(tests, json_type_array) ? json_object_array_length(tests) : 0;
    for (size_t i = 0; i < n; i++) {
        json_object *t = json_object_array_get_idx(tests, i);
        const char *tn = str_of(t, "name");
        if (tn && strcmp(tn, name) == 0)
            return t;
    }
    return NULL;
}

/* The line of the performance test's output that says why it was not timed. */
static void perf_line(const char *out, char *buf, size_t len)
{
    const char *line = out;
    for (const char *p = out; *p;) {
        if (strncmp(p, "FAILED", 6) == 0 || strncmp(p, "not ", 4) == 0 || strncmp(p, "no ", 3) == 0) {
            line = p;
            break;
        }
        const char *nl = strchr(p, '\n');
        if (!nl)
            break;
        p = nl + 1;
    }
    size_t n = strcspn(line, "\n");
    snprintf(buf, len, "performance test: %.*s", (int)(n > 150 ? 150 : n), line);
}

static int failed(json_object *test)
{
    const char *status = str_of(test, "status");
    return test && !(status && strcmp(status, "passed") == 0);
}

/* A broken rule in the board's words: "rule fp32-simt: the submission uses
 * tensor cores (file:line: ...)" is "broke rule fp32-simt: uses tensor cores". */
static void rule_why(const char *rule, char *why, size_t len)
{
    const char *colon = strstr(rule, ": "), *what = colon ? colon + 2 : rule;
    int name = colon && strncmp(rule, "rule ", 5) == 0 ? (int)(colon - rule - 5) : 0;
    if (strncmp(what, "the submission ", 15) == 0)
        what += 15;
    int n = (int)strcspn(what, "(");
    while (n > 0 && what[n - 1] == ' ')
        n--;
    snprintf(why, len, "broke rule %.*s%s%.*s", name, rule + 5, name ? ": " : "", n, what);
}

/* Why the build failed, in the board's words: no file, an empty one, or
 * one that does not compile (the "compiles" test's message tells). */
static const char *compile_why(json_object *compiles)
{
    const char *out = compiles ? str_of(compiles, "output") : NULL;
    if (out && strncmp(out, "FAILED: no ", 11) == 0)
        return "no submission file";
    if (out && strstr(out, " is empty (0 bytes)"))
        return "the file is empty";
    return "did not compile";
}

/* Why a student without a "leaderboard" list is not ranked: from the facts
 * the grader records (extra_data), else the performance test's own words. */
static void why_not(board_row_t *r, json_object *j, json_object *extra)
{
    json_object *perf = find_test(j, "performance");
    const char *out = perf ? str_of(perf, "output") : NULL, *backend = str_of(extra, "backend");
    double dp = num_of(extra, "datasets_passed", 0), dt = num_of(extra, "datasets_total", 0);
    double hp = num_of(extra, "hidden_passed", 0), ht = num_of(extra, "hidden_total", 0);
    char hidden[64] = "";
    if (ht > 0)
        snprintf(hidden, sizeof hidden, ", %g of %g hidden", hp, ht);
    if (member(extra, "batch_error"))
        snprintf(r->why, sizeof r->why, "could not grade: %.160s", str_of(extra, "batch_error"));
    else if (member(extra, "submission_error"))
        snprintf(r->why, sizeof r->why, "submission refused: %.160s", str_of(extra, "submission_error"));
    else if (!perf)
        snprintf(r->why, sizeof r->why, "no performance test in its results.json");
    else if (str_of(extra, "rule_broken")) /* before "did not compile": what it did wrong */
        rule_why(str_of(extra, "rule_broken"), r->why, sizeof r->why);
    else if ((out && strncmp(out, "not run: does not compile", 25) == 0) ||
             failed(find_test(j, "compiles")))
        snprintf(r->why, sizeof r->why, "%s", compile_why(find_test(j, "compiles")));
    else if (dp < dt || hp < ht)
        snprintf(r->why, sizeof r->why, "did not pass correctness (%g of %g datasets%s)", dp, dt, hidden);
    else if (backend && (strcmp(backend, "emu") == 0 || /* never timed; else score.c says so */
                         (out && strncmp(out, "not scored on the ", 18) == 0)))
        snprintf(r->why, sizeof r->why, "not timed on the %.32s backend (timed on a GPU only)", backend);
    else if (str_of(extra, "leaderboard_why"))
        snprintf(r->why, sizeof r->why, "%.200s", str_of(extra, "leaderboard_why"));
    else
        perf_line(out ? out : "", r->why, sizeof r->why);
}

int board_add_text(board_t *b, const char *id, const char *text, const char *path)
{
    json_object *j = parse(b, text, path);
    if (!j)
        return -1;
    board_row_t r;
    memset(&r, 0, sizeof r);
    r.percent = -1;
    json_object *extra = member(j, "extra_data"), *list = member(j, "leaderboard");
    snprintf(r.lab, sizeof r.lab, "%s", str_of(extra, "lab") ? str_of(extra, "lab") : "");
    if (list && read_board(b, &r, list, extra, path) != 0) {
        json_object_put(j);
        return -1;
    }
    if (!list)
        why_not(&r, j, extra);
    r.perf_test = list || find_test(j, "performance");
    json_object_put(j);
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 16;
        b->rows = realloc(b->rows, (size_t)b->cap * sizeof *b->rows);
    }
    r.id = strdup(id);
    b->rows[b->n++] = r;
    return 0;
}

/* ---- the class ---------------------------------------------------------------------- */

/* Better first: a ranked row before an unranked one, then by value in the
 * key's order; equal (or both unranked) by id. */
static int cmp_rows(const void *pa, const void *pb)
{
    const board_row_t *a = pa, *b = pb;
    if ((a->rank != 0) != (b->rank != 0))
        return a->rank != 0 ? -1 : 1;
    if (a->rank != 0 && a->value != b->value)
        return (a->value > b->value) == !a->ascending ? -1 : 1;
    return strcmp(a->id, b->id);
}

static void add_shape(board_t *b, const char *shape)
{
    for (int i = 0; i < b->nshapes; i++)
        if (strcmp(b->shapes[i], shape) == 0)
            return;
    if (b->nshapes < PERF_MAX_SHAPES)
        snprintf(b->shapes[b->nshapes++], sizeof b->shapes[0], "%s", shape);
}

void board_rank(board_t *b)
{
    for (int i = 0; i < b->n; i++)
        b->rows[i].rank = b->rows[i].rank != 0 ? -1 : 0;
    if (b->n > 1)
        qsort(b->rows, (size_t)b->n, sizeof *b->rows, cmp_rows);
    b->nranked = 0;
    b->nshapes = 0;
    for (int i = 0; i < b->n && b->rows[i].rank != 0; i++) {
        board_row_t *r = &b->rows[i];
        int tied = i > 0 && r->value == b->rows[i - 1].value;
        r->rank = tied ? b->rows[i - 1].rank : i + 1; /* 1, 2, 2, 4 */
        b->nranked++;
        if (i == 0) {
            snprintf(b->unit, sizeof b->unit, "%s", r->unit);
            snprintf(b->baseline, sizeof b->baseline, "%s", r->baseline);
        }
        for (int s = 0; s < r->nshapes; s++)
            add_shape(b, r->shapes[s].shape);
    }
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of dir that may hold a student's results (sorted); -1 if unreadable. */
static int list_ids(const char *dir, char ***ids)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    *ids = NULL;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        *ids = realloc(*ids, (size_t)(n + 1) * sizeof **ids);
        (*ids)[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n > 1)
        qsort(*ids, (size_t)n, sizeof **ids, cmp_name);
    return n;
}

static void add_file(board_t *b, const char *path, const char *id)
{
    char why[256];
    char *text = read_file(path, NULL, why, sizeof why);
    if (!text) {
        add_skipped(b, "%s: unreadable: %s", path, why);
        return;
    }
    board_add_text(b, id, text, path);
    free(text);
}

/* Keeps lab's rows (or, with none asked, checks there is one lab). */
static int keep_lab(board_t *b, const char *lab, char *err, size_t errlen)
{
    int kept = 0;
    for (int i = 0; i < b->n; i++) {
        board_row_t *r = &b->rows[i];
        if (!lab && r->lab[0] && !b->lab[0])
            snprintf(b->lab, sizeof b->lab, "%s", r->lab);
        if (!lab && r->lab[0] && strcmp(r->lab, b->lab) != 0)
            return fail(err, errlen, "the results are of several labs (%s, %s, ...): choose one "
                                     "with --lab", b->lab, r->lab);
        if (lab && r->lab[0] && strcmp(r->lab, lab) != 0) {
            free(r->id);
            b->other_labs++;
            continue;
        }
        b->perf_tests += r->perf_test;
        b->rows[kept++] = *r;
    }
    b->n = kept;
    return 0;
}

int board_load(const char *out_dir, const char *lab, board_t *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    snprintf(b->lab, sizeof b->lab, "%s", lab ? lab : "");
    char **ids;
    int n = list_ids(out_dir, &ids);
    if (n < 0)
        return fail(err, errlen, "%s: cannot read the results folder", out_dir);
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX];
        int len = snprintf(path, sizeof path, "%s/%s/results.json", out_dir, ids[i]);
        if (len > 0 && (size_t)len < sizeof path && is_file(path))
            add_file(b, path, ids[i]);
        free(ids[i]);
    }
    free(ids);
    if (keep_lab(b, lab, err, errlen) != 0)
        return -1;
    board_rank(b);
    return 0;
}

void board_free(board_t *b)
{
    for (int i = 0; i < b->n; i++)
        free(b->rows[i].id);
    for (int i = 0; i < b->nskipped; i++)
        free(b->skipped[i]);
    free(b->rows);
    free(b->skipped);
    memset(b, 0, sizeof *b);
}

/* ---- as JSON -------------------------------------------------------------------------- */

static json_object *percent_json(double p)
{
    return p >= 0 ? grade_json_number(p) : NULL;
}

static json_object *ranked_json(const board_row_t *r)
{
    json_object *o = json_object_new_object(), *shapes = json_object_new_array();
    json_object_object_add(o, "rank", json_object_new_int(r->rank));
    json_object_object_add(o, "id", json_object_new_string(r->id));
    json_object_object_add(o, "value", grade_json_number(r->value));
    json_object_object_add(o, "percent", percent_json(r->percent));
    for (int s = 0; s < r->nshapes; s++) {
        json_object *e = json_object_new_object();
        json_object_object_add(e, "shape", json_object_new_string(r->shapes[s].shape));
        json_object_object_add(e, "value", grade_json_number(r->shapes[s].value));
        json_object_object_add(e, "percent", percent_json(r->shapes[s].percent));
        json_object_array_add(shapes, e);
    }
    json_object_object_add(o, "shapes", shapes);
    return o;
}

static json_object *string_or_null(const char *s)
{
    return s[0] ? json_object_new_string(s) : NULL;
}

json_object *board_to_json(const board_t *b)
{
    json_object *o = json_object_new_object(), *ranked = json_object_new_array();
    json_object *not_ranked = json_object_new_array(), *shapes = json_object_new_array();
    json_object *skipped = json_object_new_array();
    json_object_object_add(o, "lab", string_or_null(b->lab));
    json_object_object_add(o, "unit", string_or_null(b->unit));
    json_object_object_add(o, "baseline", string_or_null(b->baseline));
    for (int s = 0; s < b->nshapes; s++)
        json_object_array_add(shapes, json_object_new_string(b->shapes[s]));
    json_object_object_add(o, "shapes", shapes);
    for (int i = 0; i < b->n; i++) {
        const board_row_t *r = &b->rows[i];
        if (r->rank > 0) {
            json_object_array_add(ranked, ranked_json(r));
            continue;
        }
        json_object *e = json_object_new_object();
        json_object_object_add(e, "id", json_object_new_string(r->id));
        json_object_object_add(e, "why", json_object_new_string(r->why));
        json_object_array_add(not_ranked, e);
    }
    json_object_object_add(o, "ranked", ranked);
    json_object_object_add(o, "not_ranked", not_ranked);
    for (int i = 0; i < b->nskipped; i++)
        json_object_array_add(skipped, json_object_new_string(b->skipped[i]));
    json_object_object_add(o, "skipped", skipped);
    return o;
}
