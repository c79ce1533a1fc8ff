/* test_results.c - Gradescope results.json: parsed back with json-c to check
 * its shape, numbers without float noise, visibility spellings, the per-test
 * extra_data with the error map (only on the test it was handed to), and the
 * atomic write that leaves no temporary file behind. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/results.h"
#include "util/util.h"

static struct json_object *member(struct json_object *obj, const char *key)
{
    struct json_object *v = NULL;
    cr_assert(json_object_object_get_ex(obj, key, &v), "no \"%s\"", key);
    return v;
}

static struct json_object *render_and_parse(const grade_t *g)
{
    char *text = grade_to_json(g);
    struct json_object *root = json_tokener_parse(text);
    cr_assert_not_null(root, "not JSON: %s", text);
    free(text);
    return root;
}

static void sample_grade(grade_t *g)
{
    memset(g, 0, sizeof *g);
    grade_add_test(g, "compiles", 10, 10, 1, VIS_VISIBLE, "built in 1.2 s");
    grade_add_test(g, "dataset 0 (64x64)", 6, 6, 1, VIS_HIDDEN, NULL);
    grade_add_test(g, "dataset 1 (100x56)", 0, 6, 0, VIS_AFTER_DUE_DATE,
                   "12 of 5600 elements wrong\nhint: \"check\" the boundary");
    g->execution_time = 3.25;
    g->output = strdup("Total: 16 of 22");
}

Test(results_json, top_level_fields)
{
    grade_t g;
    sample_grade(&g);
    struct json_object *root = render_and_parse(&g);
    cr_assert_eq(json_object_get_double(member(root, "score")), 16);
    cr_assert_eq(json_object_get_double(member(root, "execution_time")), 3.25);
    cr_assert_str_eq(json_object_get_string(member(root, "output")), "Total: 16 of 22");
    struct json_object *tests = member(root, "tests");
    cr_assert(json_object_is_type(tests, json_type_array));
    cr_assert_eq(json_object_array_length(tests), 3);
    cr_assert_eq(grade_score(&g), 16);
    cr_assert_eq(grade_max_score(&g), 22);
    json_object_put(root);
    grade_free(&g);
}

Test(results_json, each_test)
{
    grade_t g;
    sample_grade(&g);
    struct json_object *root = render_and_parse(&g);
    struct json_object *tests = member(root, "tests");
    struct json_object *t = json_object_array_get_idx(tests, 2);
    cr_assert_str_eq(json_object_get_string(member(t, "name")), "dataset 1 (100x56)");
    cr_assert_eq(json_object_get_double(member(t, "score")), 0);
    cr_assert_eq(json_object_get_double(member(t, "max_score")), 6);
    cr_assert_str_eq(json_object_get_string(member(t, "status")), "failed");
    cr_assert_str_eq(json_object_get_string(member(t, "output")),
                     "12 of 5600 elements wrong\nhint: \"check\" the boundary");
    cr_assert_str_eq(json_object_get_string(member(t, "visibility")), "after_due_date");
    struct json_object *first = json_object_array_get_idx(tests, 0);
    cr_assert_str_eq(json_object_get_string(member(first, "status")), "passed");
    struct json_object *second = json_object_array_get_idx(tests, 1);
    cr_assert_str_eq(json_object_get_string(member(second, "output")), "", "NULL output is \"\"");
    json_object_put(root);
    grade_free(&g);
}

Test(results_json, visibility_strings)
{
    grade_t g = {0};
    const char *names[] = {"visible", "hidden", "after_due_date", "after_published"};
    for (int v = VIS_VISIBLE; v <= VIS_AFTER_PUBLISHED; v++)
        grade_add_test(&g, names[v], 1, 1, 1, (visibility_t)v, NULL);
    struct json_object *root = render_and_parse(&g);
    struct json_object *tests = member(root, "tests");
    for (int v = VIS_VISIBLE; v <= VIS_AFTER_PUBLISHED; v++)
        cr_assert_str_eq(
            json_object_get_string(member(json_object_array_get_idx(tests, v), "visibility")),
            names[v]);
    json_object_put(root);
    grade_free(&g);
}

Test(results_json, numbers_without_float_noise)
{
    grade_t g = {0};
    grade_add_test(&g, "a", 10, 10, 1, VIS_VISIBLE, NULL);
    grade_add_test(&g, "b", 2.5, 7.5, 0, VIS_VISIBLE, NULL);
    grade_add_test(&g, "c", 0.1 + 0.2, 1, 0, VIS_VISIBLE, NULL);
    g.execution_time = 1.23456;
    char *text = grade_to_json(&g);
    cr_assert_not_null(strstr(text, "\"score\":12.8,"), "%s", text);
    cr_assert_not_null(strstr(text, "\"score\":10,"), "%s", text);
    cr_assert_not_null(strstr(text, "\"max_score\":7.5,"), "%s", text);
    cr_assert_not_null(strstr(text, "\"score\":0.3,"), "%s", text);
    cr_assert_not_null(strstr(text, "\"execution_time\":1.235,"), "%s", text);
    cr_assert_null(strstr(text, ".0,"), "%s", text);
    free(text);
    grade_free(&g);
}

Test(results_json, no_top_level_output_unless_set)
{
    grade_t g = {0};
    struct json_object *root = render_and_parse(&g);
    cr_assert_not(json_object_object_get_ex(root, "output", NULL));
    cr_assert_eq(json_object_get_double(member(root, "score")), 0);
    cr_assert_eq(json_object_array_length(member(root, "tests")), 0);
    json_object_put(root);
}

Test(results_grade, add_copies_output_and_grows)
{
    grade_t g = {0};
    char msg[32] = "first";
    test_result_t *t = grade_add_test(&g, "t0", 1, 1, 1, VIS_VISIBLE, msg);
    strcpy(msg, "changed");
    cr_assert_str_eq(t->output, "first");
    for (int i = 1; i < 100; i++)
        grade_add_test(&g, "t", 0.5, 1, 0, VIS_HIDDEN, NULL);
    cr_assert_eq(g.ntests, 100);
    cr_assert_str_eq(g.tests[0].output, "first");
    cr_assert_eq(grade_score(&g), 1 + 99 * 0.5);
    cr_assert_eq(grade_max_score(&g), 100);
    grade_free(&g);
    cr_assert_eq(g.ntests, 0);
    cr_assert_null(g.tests);
}

Test(results_grade, long_names_are_truncated_not_overflowed)
{
    grade_t g = {0};
    char name[300];
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    test_result_t *t = grade_add_test(&g, name, 0, 1, 0, VIS_VISIBLE, NULL);
    cr_assert_eq(strlen(t->name), sizeof t->name - 1);
    grade_free(&g);
}

/* ---- writing -------------------------------------------------------------------------------- */

static char tmpdir[64];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_results.XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
}

static void remove_tmpdir(void) { rm_rf(tmpdir); }

Test(results_write, atomic_write_leaves_only_the_file, .init = make_tmpdir, .fini = remove_tmpdir)
{
    grade_t g;
    sample_grade(&g);
    char path[128], err[512] = "";
    snprintf(path, sizeof path, "%s/results.json", tmpdir);
    cr_assert_eq(grade_write_json(&g, path, err, sizeof err), 0, "%s", err);
    cr_assert_eq(grade_write_json(&g, path, err, sizeof err), 0, "overwrite: %s", err);
    DIR *d = opendir(tmpdir);
    int files = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') {
            cr_assert_str_eq(e->d_name, "results.json");
            files++;
        }
    closedir(d);
    cr_assert_eq(files, 1);
    char *written = read_file(path, NULL, err, sizeof err);
    char *rendered = grade_to_json(&g);
    cr_assert_str_eq(written, rendered);
    free(written);
    free(rendered);
    grade_free(&g);
}

Test(results_write, unwritable_path_is_an_error)
{
    grade_t g = {0};
    char err[512] = "";
    cr_assert_eq(grade_write_json(&g, "/nonexistent-dir/results.json", err, sizeof err), -1);
    cr_assert_not_null(strstr(err, "/nonexistent-dir/results.json"), "%s", err);
}

Test(results_json, extra_data_holds_cugrades_facts)
{
    grade_t g;
    sample_grade(&g);
    struct json_object *root = render_and_parse(&g);
    struct json_object *absent = NULL;
    cr_assert(!json_object_object_get_ex(root, "extra_data", &absent), "no extra_data when unset");
    json_object_put(root);
    grade_set_extra_text(&g, "backend", "emu");
    grade_set_extra_number(&g, "datasets_passed", 19);
    root = render_and_parse(&g);
    struct json_object *extra = member(root, "extra_data");
    cr_assert_str_eq(json_object_get_string(member(extra, "backend")), "emu");
    cr_assert(json_object_is_type(member(extra, "datasets_passed"), json_type_int));
    cr_assert_eq(json_object_get_int(member(extra, "datasets_passed")), 19);
    json_object_put(root);
    grade_free(&g);
}

/* An array (the performance test's performance_shapes) is kept as JSON,
 * owned by the grade; past GRADE_MAX_EXTRA entries it is released. */
Test(results_json, extra_data_holds_json_values)
{
    grade_t g;
    sample_grade(&g);
    struct json_object *shapes = json_object_new_array(), *one = json_object_new_object();
    json_object_object_add(one, "shape", json_object_new_string("4096x4096x4096"));
    json_object_object_add(one, "ratio", json_object_new_double(0.9364));
    json_object_array_add(shapes, one);
    grade_set_extra_json(&g, "performance_shapes", shapes);
    struct json_object *root = render_and_parse(&g);
    struct json_object *got = member(member(root, "extra_data"), "performance_shapes");
    cr_assert(json_object_is_type(got, json_type_array));
    cr_assert_eq(json_object_array_length(got), 1);
    struct json_object *first = json_object_array_get_idx(got, 0);
    cr_assert_str_eq(json_object_get_string(member(first, "shape")), "4096x4096x4096");
    cr_assert_float_eq(json_object_get_double(member(first, "ratio")), 0.9364, 1e-12);
    json_object_put(root);
    for (int i = 0; i < GRADE_MAX_EXTRA; i++)
        grade_set_extra_json(&g, "more", json_object_new_array());
    cr_assert_eq(g.nextra, GRADE_MAX_EXTRA);
    grade_free(&g); /* nothing leaks under valgrind: each value released once */
}

static error_map_t small_map(void)
{
    error_map_t m;
    memset(&m, 0, sizeof m);
    m.rows = 100, m.cols = 56, m.map_rows = 2, m.map_cols = 3;
    strcpy(m.cells, "..x" "ooo");
    return m;
}

Test(results_json, error_map_goes_to_the_next_test_only)
{
    grade_t g;
    memset(&g, 0, sizeof g);
    grade_add_test(&g, "compiles", 0, 0, 1, VIS_VISIBLE, "ok");
    error_map_t m = small_map();
    grade_attach_error_map(&m);
    grade_add_test(&g, "dataset 4 (100x128x56)", 0, 3.5, 0, VIS_VISIBLE, "FAILED");
    grade_add_test(&g, "dataset 5", 3.5, 3.5, 1, VIS_VISIBLE, "passed");
    grade_attach_error_map(&m);
    grade_attach_error_map(NULL); /* cleared: nothing for the next test */
    grade_add_test(&g, "dataset 6", 0, 3.5, 0, VIS_VISIBLE, "crashed");
    struct json_object *root = render_and_parse(&g), *tests = member(root, "tests"), *v;
    for (int i = 0; i < 4; i++)
        cr_assert_eq(json_object_object_get_ex(json_object_array_get_idx(tests, (size_t)i),
                                               "extra_data", &v),
                     i == 1, "test %d", i);
    struct json_object *map =
        member(member(json_object_array_get_idx(tests, 1), "extra_data"), "error_map");
    cr_assert_eq(json_object_get_int(member(map, "rows")), 100);
    cr_assert_eq(json_object_get_int(member(map, "cols")), 56);
    cr_assert_eq(json_object_get_int(member(map, "map_rows")), 2);
    cr_assert_eq(json_object_get_int(member(map, "map_cols")), 3);
    cr_assert_str_eq(json_object_get_string(member(map, "cells")), "..xooo");
    error_map_t back;
    cr_assert_eq(error_map_from_json(map, &back), 0);
    cr_assert_eq(back.map_rows, 2);
    cr_assert_str_eq(back.cells, "..xooo");
    json_object_put(root);
    grade_free(&g);
}

Test(results_json, malformed_error_maps_are_refused)
{
    const char *bad[] = {
        "{\"rows\": 4, \"cols\": 4, \"map_rows\": 2, \"map_cols\": 2, \"cells\": \"...\"}",
        "{\"rows\": 4, \"cols\": 4, \"map_rows\": 2, \"map_cols\": 2, \"cells\": \"..?.\"}",
        "{\"rows\": 400, \"cols\": 4, \"map_rows\": 65, \"map_cols\": 1, \"cells\": \"\"}",
        "{\"rows\": 1, \"cols\": 4, \"map_rows\": 2, \"map_cols\": 2, \"cells\": \"....\"}",
        "{\"rows\": 4, \"cols\": 4, \"map_rows\": \"2\", \"map_cols\": 2, \"cells\": \"....\"}",
        "[]"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct json_object *o = json_tokener_parse(bad[i]);
        error_map_t m;
        cr_assert_eq(error_map_from_json(o, &m), -1, "%s", bad[i]);
        cr_assert_eq(m.map_rows, 0);
        json_object_put(o);
    }
    error_map_t m;
    cr_assert_eq(error_map_from_json(NULL, &m), -1);
}
