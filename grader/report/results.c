/* results.c - collects one submission's test results and renders them as
 * Gradescope's results.json (score, execution_time, output, tests[]),
 * written atomically so Gradescope never reads half a file. */
#include "report/results.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Keeps the array's capacity for one more test; aborts when memory is out
 * (the grader cannot report a grade without it anyway). */
static void reserve_test(grade_t *g)
{
    if (g->ntests < g->cap)
        return;
    int cap = g->cap ? g->cap * 2 : 16;
    test_result_t *t = realloc(g->tests, (size_t)cap * sizeof *t);
    if (!t) {
        fputs("cugrade: out of memory\n", stderr);
        abort();
    }
    g->tests = t;
    g->cap = cap;
}

/* The map for the next test (grade_attach_error_map); per thread. */
static _Thread_local error_map_t *pending_map;

void grade_attach_error_map(const error_map_t *map)
{
    free(pending_map);
    pending_map = NULL;
    if (!map || map->map_rows <= 0 || map->map_cols <= 0)
        return;
    pending_map = malloc(sizeof *pending_map);
    if (!pending_map) {
        fputs("cugrade: out of memory\n", stderr);
        abort();
    }
    *pending_map = *map;
}

error_map_t *grade_take_error_map(void)
{
    error_map_t *map = pending_map;
    pending_map = NULL;
    return map;
}

test_result_t *grade_add_test(grade_t *g, const char *name, double score, double max_score,
                              int passed, visibility_t vis, const char *output)
{
    reserve_test(g);
    test_result_t *t = &g->tests[g->ntests++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->score = score;
    t->max_score = max_score;
    t->passed = passed;
    t->visibility = vis;
    t->output = output ? strdup(output) : NULL;
    t->error_map = pending_map; /* the test owns it now */
    pending_map = NULL;
    return t;
}

double grade_score(const grade_t *g)
{
    double sum = 0;
    for (int i = 0; i < g->ntests; i++)
        sum += g->tests[i].score;
    return sum;
}

double grade_max_score(const grade_t *g)
{
    double sum = 0;
    for (int i = 0; i < g->ntests; i++)
        sum += g->tests[i].max_score;
    return sum;
}

/* A JSON number without float noise: integers print as "10", others with
 * up to 12 significant digits ("3.333333333"). Non-finite values (not valid
 * JSON) become 0. */
struct json_object *grade_json_number(double v)
{
    if (!isfinite(v))
        v = 0;
    if (v == floor(v) && fabs(v) < 9e15)
        return json_object_new_int64((int64_t)v);
    char text[32];
    snprintf(text, sizeof text, "%.12g", v);
    return json_object_new_double_s(strtod(text, NULL), text);
}

static void add_string(struct json_object *obj, const char *key, const char *s)
{
    json_object_object_add(obj, key, json_object_new_string(s ? s : ""));
}

struct json_object *error_map_to_json(const error_map_t *m)
{
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "rows", json_object_new_int(m->rows));
    json_object_object_add(o, "cols", json_object_new_int(m->cols));
    json_object_object_add(o, "map_rows", json_object_new_int(m->map_rows));
    json_object_object_add(o, "map_cols", json_object_new_int(m->map_cols));
    add_string(o, "cells", m->cells);
    return o;
}

static int get_int(struct json_object *obj, const char *key, int lo, int hi, int *out)
{
    struct json_object *v;
    if (!json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_int))
        return -1;
    int64_t n = json_object_get_int64(v);
    if (n < lo || n > hi)
        return -1;
    *out = (int)n;
    return 0;
}

int error_map_from_json(struct json_object *obj, error_map_t *m)
{
    struct json_object *cells;
    memset(m, 0, sizeof *m);
    if (!obj || get_int(obj, "rows", 1, 1 << 20, &m->rows) != 0 ||
        get_int(obj, "cols", 1, 1 << 20, &m->cols) != 0 ||
        get_int(obj, "map_rows", 1, ERROR_MAP_MAX, &m->map_rows) != 0 ||
        get_int(obj, "map_cols", 1, ERROR_MAP_MAX, &m->map_cols) != 0 ||
        !json_object_object_get_ex(obj, "cells", &cells) ||
        !json_object_is_type(cells, json_type_string))
        goto bad;
    const char *s = json_object_get_string(cells);
    size_t n = (size_t)m->map_rows * m->map_cols;
    if (strlen(s) != n || strspn(s, ".xo") != n || m->map_rows > m->rows || m->map_cols > m->cols)
        goto bad;
    memcpy(m->cells, s, n + 1);
    return 0;
bad:
    memset(m, 0, sizeof *m);
    return -1;
}

static struct json_object *test_to_json(const test_result_t *t)
{
    struct json_object *o = json_object_new_object();
    add_string(o, "name", t->name);
    json_object_object_add(o, "score", grade_json_number(t->score));
    json_object_object_add(o, "max_score", grade_json_number(t->max_score));
    add_string(o, "status", t->passed ? "passed" : "failed");
    add_string(o, "output", t->output);
    add_string(o, "visibility", visibility_name(t->visibility));
    if (t->error_map || t->failure[0]) {
        struct json_object *extra = json_object_new_object();
        if (t->failure[0])
            add_string(extra, "failure", t->failure);
        if (t->error_map)
            json_object_object_add(extra, "error_map", error_map_to_json(t->error_map));
        json_object_object_add(o, "extra_data", extra);
    }
    return o;
}

static extra_item_t *new_extra(grade_t *g, const char *key)
{
    if (g->nextra >= GRADE_MAX_EXTRA)
        return NULL;
    extra_item_t *e = &g->extra[g->nextra++];
    memset(e, 0, sizeof *e);
    snprintf(e->key, sizeof e->key, "%s", key);
    return e;
}

void grade_set_extra_text(grade_t *g, const char *key, const char *value)
{
    extra_item_t *e = new_extra(g, key);
    if (e)
        e->text = strdup(value);
}

void grade_set_extra_number(grade_t *g, const char *key, double value)
{
    extra_item_t *e = new_extra(g, key);
    if (e)
        e->number = value;
}

void grade_set_extra_json(grade_t *g, const char *key, struct json_object *value)
{
    extra_item_t *e = new_extra(g, key);
    if (e)
        e->json = value;
    else
        json_object_put(value);
}

void grade_set_leaderboard(grade_t *g, struct json_object *board)
{
    json_object_put(g->leaderboard);
    g->leaderboard = board;
}

static struct json_object *extra_value(const extra_item_t *e)
{
    if (e->json)
        return json_object_get(e->json); /* the grade keeps its own reference */
    return e->text ? json_object_new_string(e->text) : grade_json_number(e->number);
}

static struct json_object *extra_to_json(const grade_t *g)
{
    struct json_object *obj = json_object_new_object();
    for (int i = 0; i < g->nextra; i++) {
        const extra_item_t *e = &g->extra[i];
        json_object_object_add(obj, e->key, extra_value(e));
    }
    return obj;
}

char *grade_to_json(const grade_t *g)
{
    struct json_object *root = json_object_new_object();
    json_object_object_add(root, "score", grade_json_number(grade_score(g)));
    json_object_object_add(root, "execution_time",
                           grade_json_number(round(g->execution_time * 1000) / 1000));
    if (g->output)
        add_string(root, "output", g->output);
    if (g->nextra > 0)
        json_object_object_add(root, "extra_data", extra_to_json(g));
    if (g->leaderboard)
        json_object_object_add(root, "leaderboard", json_object_get(g->leaderboard));
    struct json_object *tests = json_object_new_array();
    for (int i = 0; i < g->ntests; i++)
        json_object_array_add(tests, test_to_json(&g->tests[i]));
    json_object_object_add(root, "tests", tests);
    strbuf_t sb = {0};
    sb_append(&sb, json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
                                                            JSON_C_TO_STRING_NOSLASHESCAPE));
    sb_append(&sb, "\n");
    json_object_put(root);
    return sb_detach(&sb);
}

int grade_write_json(const grade_t *g, const char *path, char *err, size_t errlen)
{
    char *text = grade_to_json(g);
    int rc = write_file_atomic(path, text, strlen(text), err, errlen);
    free(text);
    return rc;
}

void grade_free(grade_t *g)
{
    for (int i = 0; i < g->ntests; i++) {
        free(g->tests[i].output);
        free(g->tests[i].error_map);
    }
    free(g->tests);
    free(g->output);
    for (int i = 0; i < g->nextra; i++) {
        free(g->extra[i].text);
        json_object_put(g->extra[i].json);
    }
    json_object_put(g->leaderboard);
    memset(g, 0, sizeof *g);
}
