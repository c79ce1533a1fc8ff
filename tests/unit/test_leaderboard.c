/* test_leaderboard.c - a timed submission's leaderboard in results.json,
 * from a perf_result_t made by hand (no GPU): Gradescope's "leaderboard"
 * list (geometric-mean rate in TFLOP/s first, % of cuBLAS, the rate at each
 * shape, every entry "desc"), extra_data.performance_shapes with every
 * implementation's rate and the ratios, GB/s for a reduction lab (% of the
 * reference, no cuBLAS), and no list but a reason for a wrong timed output or
 * a shape without a timing. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/results.h"
#include "score/leaderboard.h"

static json_object *member(json_object *o, const char *key)
{
    json_object *v = NULL;
    cr_assert(json_object_object_get_ex(o, key, &v), "no \"%s\" in %s", key,
              json_object_to_json_string(o));
    return v;
}

static void add_impl(perf_shape_t *s, const char *name, double rate, long wrong)
{
    perf_impl_t *im = &s->impls[s->nimpls++];
    memset(im, 0, sizeof *im);
    snprintf(im->name, sizeof im->name, "%s", name);
    im->rate = rate;
    im->wrong = wrong;
    im->reps = 20;
}

/* Two shapes: the student at 40000 and 10000 GFLOP/s, cuBLAS at 50000 and
 * 20000, the reference at 45000 and 12500. */
static perf_result_t two_shapes(void)
{
    perf_result_t r;
    memset(&r, 0, sizeof r);
    snprintf(r.device, sizeof r.device, "NVIDIA H100");
    const char *shapes[] = {"4096x4096x4096", "3001x2999x3003"};
    double st[] = {40000, 10000}, blas[] = {50000, 20000}, ref[] = {45000, 12500};
    for (int i = 0; i < 2; i++) {
        perf_shape_t *s = &r.shapes[r.nshapes++];
        snprintf(s->shape, sizeof s->shape, "%s", shapes[i]);
        add_impl(s, "student", st[i], 0);
        add_impl(s, "reference", ref[i], 0);
        add_impl(s, "cublas", blas[i], 0);
    }
    return r;
}

static void check_entry(json_object *board, size_t i, const char *name, double value)
{
    json_object *e = json_object_array_get_idx(board, i);
    cr_assert_not_null(e, "no entry %zu", i);
    cr_assert_str_eq(json_object_get_string(member(e, "name")), name);
    cr_assert_float_eq(json_object_get_double(member(e, "value")), value, 1e-9, "%s: %s", name,
                       json_object_to_json_string(e));
    cr_assert_str_eq(json_object_get_string(member(e, "order")), "desc");
}

Test(leaderboard, geomean_percent_of_cublas_and_one_entry_per_shape)
{
    perf_result_t r = two_shapes();
    char why[160] = "";
    json_object *board = leaderboard_json(&r, leaderboard_unit("GFLOP/s"), why, sizeof why);
    cr_assert_not_null(board, "%s", why);
    cr_assert_eq(json_object_array_length(board), 4);
    check_entry(board, 0, "TFLOP/s (geomean)", 20.0);       /* sqrt(40000 * 10000) / 1000 */
    check_entry(board, 1, "% of cuBLAS (geomean)", 63.2);   /* sqrt(0.8 * 0.5) = 0.6325 */
    check_entry(board, 2, "TFLOP/s 4096x4096x4096", 40.0);
    check_entry(board, 3, "TFLOP/s 3001x2999x3003", 10.0);
    json_object_put(board);
}

Test(leaderboard, performance_shapes_has_every_rate_and_ratio)
{
    perf_result_t r = two_shapes();
    json_object *a = leaderboard_shapes_json(&r, leaderboard_unit("GFLOP/s"));
    cr_assert_eq(json_object_array_length(a), 2);
    json_object *s = json_object_array_get_idx(a, 1);
    cr_assert_str_eq(json_object_get_string(member(s, "shape")), "3001x2999x3003");
    cr_assert_float_eq(json_object_get_double(member(s, "gflops")), 10000, 1e-9);
    cr_assert_float_eq(json_object_get_double(member(s, "cublas_gflops")), 20000, 1e-9);
    cr_assert_float_eq(json_object_get_double(member(s, "reference_gflops")), 12500, 1e-9);
    cr_assert_float_eq(json_object_get_double(member(s, "ratio_to_cublas")), 0.5, 1e-9);
    cr_assert_float_eq(json_object_get_double(member(s, "ratio_to_reference")), 0.8, 1e-9);
    json_object_put(a);
}

Test(leaderboard, reduction_lab_in_gbs_relative_to_the_reference)
{
    perf_result_t r;
    memset(&r, 0, sizeof r);
    perf_shape_t *s = &r.shapes[r.nshapes++];
    snprintf(s->shape, sizeof s->shape, "67108864");
    add_impl(s, "student", 2950.44, 0);
    add_impl(s, "reference", 3100, 0);
    const rate_unit_t *u = leaderboard_unit("GB/s");
    char why[160];
    json_object *board = leaderboard_json(&r, u, why, sizeof why);
    cr_assert_not_null(board, "%s", why);
    cr_assert_eq(json_object_array_length(board), 3);
    check_entry(board, 0, "GB/s (geomean)", 2950.4);
    check_entry(board, 1, "% of reference (geomean)", 95.2);
    check_entry(board, 2, "GB/s 67108864", 2950.4);
    json_object *a = leaderboard_shapes_json(&r, u);
    json_object *e = json_object_array_get_idx(a, 0);
    cr_assert_float_eq(json_object_get_double(member(e, "gbs")), 2950.44, 1e-9);
    cr_assert(json_object_is_type(member(e, "cublas_gbs"), json_type_null));
    cr_assert(json_object_is_type(member(e, "ratio_to_cublas"), json_type_null));
    cr_assert_float_eq(json_object_get_double(member(e, "ratio_to_reference")), 0.9518, 1e-9);
    json_object_put(board);
    json_object_put(a);
}

Test(leaderboard, wrong_timed_output_or_missing_timing_is_not_ranked)
{
    perf_result_t r = two_shapes();
    r.shapes[1].impls[0].wrong = 7;
    char why[160] = "";
    cr_assert_null(leaderboard_json(&r, leaderboard_unit("GFLOP/s"), why, sizeof why));
    cr_assert_str_eq(why, "timed output wrong at 3001x2999x3003 (7 elements)");
    r = two_shapes();
    r.shapes[0].impls[0].rate = 0;
    cr_assert_null(leaderboard_json(&r, leaderboard_unit("GFLOP/s"), why, sizeof why));
    cr_assert_str_eq(why, "no usable timing at 4096x4096x4096");
}

/* What results.json gets: the top-level list, or extra_data's reason. */
Test(leaderboard, recorded_in_results_json)
{
    grade_t g;
    memset(&g, 0, sizeof g);
    grade_add_test(&g, "performance", 10, 10, 1, VIS_VISIBLE, "timed");
    perf_result_t r = two_shapes();
    leaderboard_record(&g, &r, "GFLOP/s");
    char *text = grade_to_json(&g);
    json_object *root = json_tokener_parse(text);
    cr_assert_not_null(root, "%s", text);
    cr_assert_eq(json_object_array_length(member(root, "leaderboard")), 4);
    json_object *extra = member(root, "extra_data");
    cr_assert_eq(json_object_array_length(member(extra, "performance_shapes")), 2);
    cr_assert_not(json_object_object_get_ex(extra, "leaderboard_why", NULL));
    json_object_put(root);
    free(text);
    grade_free(&g);

    memset(&g, 0, sizeof g);
    r.shapes[0].impls[0].wrong = 1;
    leaderboard_record(&g, &r, "GFLOP/s");
    text = grade_to_json(&g);
    root = json_tokener_parse(text);
    cr_assert_not(json_object_object_get_ex(root, "leaderboard", NULL), "%s", text);
    extra = member(root, "extra_data");
    cr_assert_str_eq(json_object_get_string(member(extra, "leaderboard_why")),
                     "timed output wrong at 4096x4096x4096 (1 elements)");
    cr_assert_eq(json_object_array_length(member(extra, "performance_shapes")), 2);
    json_object_put(root);
    free(text);
    grade_free(&g);
}

Test(leaderboard, no_leaderboard_field_without_a_timing)
{
    grade_t g;
    memset(&g, 0, sizeof g);
    grade_add_test(&g, "performance", 0, 0, 1, VIS_VISIBLE, "not scored on the emu backend");
    char *text = grade_to_json(&g);
    cr_assert_null(strstr(text, "leaderboard"), "%s", text);
    free(text);
    grade_free(&g);
}
