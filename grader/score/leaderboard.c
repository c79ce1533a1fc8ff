/* leaderboard.c - a timed submission's leaderboard entries and per-shape
 * rates in results.json (leaderboard.h), from the parsed timings. */
#include "score/leaderboard.h"
#include "util/util.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const rate_unit_t units[] = {
    {"GFLOP/s", "gflops", "TFLOP/s", 1e-3, 1e-3},
    {"GB/s", "gbs", "GB/s", 1, 0.1},
};

const rate_unit_t *leaderboard_unit(const char *rate_unit)
{
    static _Thread_local rate_unit_t other;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (rate_unit && strcmp(units[i].rate_unit, rate_unit) == 0)
            return &units[i];
    other = (rate_unit_t){rate_unit ? rate_unit : "", "rate", rate_unit ? rate_unit : "", 1, 1e-3};
    return &other;
}

/* An implementation's rate, 0 when it was not timed (or not usable). */
static double rate_of(const perf_shape_t *s, const char *impl)
{
    const perf_impl_t *im = perf_impl(s, impl);
    return im && im->rate > 0 && isfinite(im->rate) ? im->rate : 0;
}

static double round_to(double v, double step)
{
    return round(v / step) * step;
}

/* A number, or null for a missing one (<= 0). */
static json_object *number_or_null(double v, double step)
{
    return v > 0 ? grade_json_number(step > 0 ? round_to(v, step) : v) : NULL;
}

static json_object *shape_json(const perf_shape_t *s, const rate_unit_t *u)
{
    double st = rate_of(s, "student"), blas = rate_of(s, "cublas"), ref = rate_of(s, "reference");
    char key[48];
    json_object *o = json_object_new_object();
    json_object_object_add(o, "shape", json_object_new_string(s->shape));
    json_object_object_add(o, u->key, number_or_null(st, 0));
    snprintf(key, sizeof key, "cublas_%s", u->key);
    json_object_object_add(o, key, number_or_null(blas, 0));
    snprintf(key, sizeof key, "reference_%s", u->key);
    json_object_object_add(o, key, number_or_null(ref, 0));
    json_object_object_add(o, "ratio_to_cublas", number_or_null(st > 0 && blas > 0 ? st / blas : 0, 1e-4));
    json_object_object_add(o, "ratio_to_reference", number_or_null(st > 0 && ref > 0 ? st / ref : 0, 1e-4));
    const perf_impl_t *student = perf_impl(s, "student");
    json_object_object_add(o, "wrong", json_object_new_int64(student ? (int64_t)student->wrong : 0));
    return o;
}

json_object *leaderboard_shapes_json(const perf_result_t *r, const rate_unit_t *u)
{
    json_object *a = json_object_new_array();
    for (int i = 0; i < r->nshapes; i++)
        json_object_array_add(a, shape_json(&r->shapes[i], u));
    return a;
}

/* Every shape has a right, usable student timing; else why says which not. */
static int rankable(const perf_result_t *r, char *why, size_t whylen)
{
    if (r->nshapes == 0) {
        fail(why, whylen, "the timing program timed no shape");
        return 0;
    }
    for (int i = 0; i < r->nshapes; i++) {
        const perf_shape_t *s = &r->shapes[i];
        const perf_impl_t *st = perf_impl(s, "student");
        if (st && st->wrong > 0)
            fail(why, whylen, "timed output wrong at %s (%ld elements)", s->shape, st->wrong);
        else if (rate_of(s, "student") <= 0)
            fail(why, whylen, "no usable timing at %s", s->shape);
        else
            continue;
        return 0;
    }
    return 1;
}

/* The implementation every shape timed that the student is compared with:
 * cuBLAS, else the reference; NULL when neither was timed everywhere. */
static const char *baseline(const perf_result_t *r, const char **label)
{
    static const char *const impls[] = {"cublas", "reference"}, *const labels[] = {"cuBLAS", "reference"};
    for (int b = 0; b < 2; b++) {
        int all = 1;
        for (int i = 0; i < r->nshapes && all; i++)
            all = rate_of(&r->shapes[i], impls[b]) > 0;
        if (all) {
            *label = labels[b];
            return impls[b];
        }
    }
    return NULL;
}

static void add_entry(json_object *board, const char *name, double value)
{
    json_object *e = json_object_new_object();
    json_object_object_add(e, "name", json_object_new_string(name));
    json_object_object_add(e, "value", grade_json_number(value));
    json_object_object_add(e, "order", json_object_new_string("desc"));
    json_object_array_add(board, e);
}

/* exp(mean(log(student / over))) over the shapes; over NULL: of the rate. */
static double geomean(const perf_result_t *r, const char *over)
{
    double sum = 0;
    for (int i = 0; i < r->nshapes; i++)
        sum += log(rate_of(&r->shapes[i], "student") / (over ? rate_of(&r->shapes[i], over) : 1));
    return exp(sum / r->nshapes);
}

json_object *leaderboard_json(const perf_result_t *r, const rate_unit_t *u, char *why, size_t whylen)
{
    if (!rankable(r, why, whylen))
        return NULL;
    json_object *board = json_object_new_array();
    char name[96];
    snprintf(name, sizeof name, "%s (geomean)", u->board_unit);
    add_entry(board, name, round_to(geomean(r, NULL) * u->scale, u->step));
    const char *label = NULL, *over = baseline(r, &label);
    if (over) {
        snprintf(name, sizeof name, "%% of %s (geomean)", label);
        add_entry(board, name, round_to(100 * geomean(r, over), 0.1));
    }
    for (int i = 0; i < r->nshapes; i++) {
        snprintf(name, sizeof name, "%s %s", u->board_unit, r->shapes[i].shape);
        add_entry(board, name, round_to(rate_of(&r->shapes[i], "student") * u->scale, u->step));
    }
    return board;
}

void leaderboard_record(grade_t *g, const perf_result_t *r, const char *rate_unit)
{
    const rate_unit_t *u = leaderboard_unit(rate_unit);
    char why[160] = "";
    grade_set_extra_json(g, "performance_shapes", leaderboard_shapes_json(r, u));
    json_object *board = leaderboard_json(r, u, why, sizeof why);
    if (board)
        grade_set_leaderboard(g, board);
    else
        grade_set_extra_text(g, "leaderboard_why", why);
}
