/* test_rubric.c - rubric.json loading: the real file, defaults, overrides,
 * "total" split evenly, and every rejection with its exact message (file
 * and line for syntax errors, the JSON path for bad fields). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course/rubric.h"

#define FIX "tests/fixtures/rubric/"

static lab_rubric_t load_ok(const char *path, const char *lab)
{
    lab_rubric_t r;
    char err[512] = "";
    cr_assert_eq(rubric_load(path, lab, &r, err, sizeof err), 0, "%s", err);
    return r;
}

static void expect_error(const char *file, const char *message)
{
    lab_rubric_t r;
    char err[512] = "";
    cr_assert_eq(rubric_load(file, "lab3", &r, err, sizeof err), -1, "%s loaded", file);
    cr_assert_str_eq(err, message);
    cr_assert_null(r.overrides);
}

/* ---- loading -------------------------------------------------------------------------- */

/* Only structure: the lead tunes the numbers of the real file. */
Test(rubric_load, the_real_rubric)
{
    lab_rubric_t r = load_ok("rubric.json", "lab3");
    cr_assert_str_eq(r.lab, "lab3");
    cr_assert_neq(r.compile_name[0], '\0');
    cr_assert_geq(r.compile_points, 0);
    cr_assert(r.datasets_total_given ? r.datasets_total >= 0 : r.datasets.points >= 0);
    cr_assert(r.datasets.time_limit_s > 0 && r.datasets.time_limit_s <= 3600);
    for (int id = 0; id < CHECK_COUNT; id++) /* lab 3 has no __constant__ to check */
        cr_assert(r.checks[id].present || id == CHECK_USES_CONSTANT_MEMORY, "%s missing from rubric.json",
                  check_name((check_id_t)id));
    cr_assert_gt(r.checks[CHECK_TRAFFIC_REDUCED].max_bytes_per_flop, 0);
    cr_assert(r.performance.present);
    cr_assert_geq(r.performance.nshapes, 1);
    cr_assert_lt(r.performance.zero_at, r.performance.full_at);
    rubric_free(&r);
}

Test(rubric_load, defaults)
{
    lab_rubric_t r = load_ok(FIX "minimal.json", "lab3");
    cr_assert_str_eq(r.compile_name, "compiles");
    cr_assert_eq(r.compile_points, 0);
    cr_assert_eq(r.compile_visibility, VIS_VISIBLE);
    cr_assert_eq(r.datasets.points, 2.5);
    cr_assert_eq(r.datasets.visibility, VIS_VISIBLE);
    cr_assert_eq(r.datasets.time_limit_s, 0, "unset: the lab manifest's limit applies");
    cr_assert_eq(r.budget_s, 0, "unset: no budget");
    cr_assert_eq(r.noverrides, 0);
    for (int id = 0; id < CHECK_COUNT; id++)
        cr_assert(!r.checks[id].present);
    cr_assert(!r.performance.present);
    rubric_free(&r);
}

Test(rubric_load, every_field_and_reserved_objects_kept_as_text)
{
    lab_rubric_t r = load_ok(FIX "overrides.json", "lab3");
    cr_assert_str_eq(r.compile_name, "builds cleanly");
    cr_assert_eq(r.compile_visibility, VIS_HIDDEN);
    cr_assert_eq(r.datasets.visibility, VIS_AFTER_DUE_DATE);
    cr_assert_eq(r.datasets.time_limit_s, 20);
    cr_assert_eq(r.budget_s, 75);
    cr_assert_eq(r.gpu_time_limit_s, 4);
    cr_assert_eq(r.gpu_budget_s, 12);
    cr_assert_eq(r.noverrides, 2);
    cr_assert(r.checks[CHECK_RACE_FREE].present);
    cr_assert_eq(r.checks[CHECK_RACE_FREE].points, 5);
    cr_assert_eq(r.checks[CHECK_RACE_FREE].visibility, VIS_VISIBLE);
    cr_assert(!r.checks[CHECK_MEMORY_SAFE].present);
    cr_assert_eq(r.checks[CHECK_TRAFFIC_REDUCED].points, 3);
    cr_assert_eq(r.checks[CHECK_TRAFFIC_REDUCED].visibility, VIS_HIDDEN);
    cr_assert_eq(r.checks[CHECK_TRAFFIC_REDUCED].max_bytes_per_flop, 0.5);
    cr_assert(r.performance.present);
    cr_assert_eq(r.performance.points, 10);
    cr_assert_eq(r.performance.visibility, VIS_AFTER_PUBLISHED);
    cr_assert_eq(r.performance.nshapes, 2);
    cr_assert_str_eq(r.performance.shapes[1], "2000x1500x2500");
    cr_assert_eq(r.performance.zero_at, 0.25);
    cr_assert_eq(r.performance.full_at, 0.9);
    cr_assert_eq(r.performance.time_cap_s, 30, "default");
    cr_assert_eq(r.performance.relative_to, PERF_VS_REFERENCE, "default");
    rubric_free(&r);
}

Test(rubric_load, performance_relative_to_cublas)
{
    lab_rubric_t r = load_ok(FIX "perf_cublas.json", "challenge");
    cr_assert(r.performance.present);
    cr_assert_eq(r.performance.relative_to, PERF_VS_CUBLAS);
    cr_assert_str_eq(perf_relative_name(r.performance.relative_to), "cublas");
    cr_assert_str_eq(perf_relative_name(PERF_VS_REFERENCE), "reference");
    rubric_free(&r);
}

Test(rubric_load, another_lab_of_the_same_file)
{
    lab_rubric_t r = load_ok(FIX "overrides.json", "lab4");
    cr_assert_str_eq(r.lab, "lab4");
    cr_assert_eq(r.datasets.points, 1);
    cr_assert_eq(r.compile_points, 0);
    rubric_free(&r);
}

Test(rubric_rule, overrides_applied_by_dataset_name)
{
    lab_rubric_t r = load_ok(FIX "overrides.json", "lab3");
    dataset_rule_t plain = rubric_dataset_rule(&r, "3", 10);
    cr_assert_eq(plain.points, 5);
    cr_assert_eq(plain.visibility, VIS_AFTER_DUE_DATE);
    cr_assert_eq(plain.time_limit_s, 20);
    dataset_rule_t big = rubric_dataset_rule(&r, "12", 10);
    cr_assert_eq(big.points, 10);
    cr_assert_eq(big.visibility, VIS_AFTER_PUBLISHED);
    cr_assert_eq(big.time_limit_s, 60);
    dataset_rule_t slow = rubric_dataset_rule(&r, "7", 10);
    cr_assert_eq(slow.points, 5, "unset override fields keep the datasets' defaults");
    cr_assert_eq(slow.visibility, VIS_AFTER_DUE_DATE);
    cr_assert_eq(slow.time_limit_s, 45.5);
    rubric_free(&r);
}

Test(rubric_rule, total_split_evenly)
{
    lab_rubric_t r = load_ok(FIX "total.json", "lab3");
    cr_assert(r.datasets_total_given);
    cr_assert_eq(r.datasets_total, 60);
    cr_assert_eq(rubric_dataset_rule(&r, "0", 10).points, 6);
    cr_assert_eq(rubric_dataset_rule(&r, "0", 8).points, 7.5);
    dataset_rule_t hidden = rubric_dataset_rule(&r, "9", 8);
    cr_assert_eq(hidden.points, 7.5);
    cr_assert_eq(hidden.visibility, VIS_HIDDEN);
    cr_assert_eq(rubric_dataset_rule(&r, "0", 0).points, 0, "no datasets: no division by zero");
    double sum = 0;
    for (int i = 0; i < 7; i++)
        sum += rubric_dataset_rule(&r, "x", 7).points;
    cr_assert_float_eq(sum, 60, 1e-9);
    rubric_free(&r);
}

Test(rubric_visibility, gradescope_spellings_round_trip)
{
    const char *names[] = {"visible", "hidden", "after_due_date", "after_published"};
    for (int v = VIS_VISIBLE; v <= VIS_AFTER_PUBLISHED; v++) {
        cr_assert_str_eq(visibility_name((visibility_t)v), names[v]);
        visibility_t back;
        cr_assert_eq(visibility_parse(names[v], &back), 0);
        cr_assert_eq(back, v);
    }
    visibility_t v;
    cr_assert_eq(visibility_parse("Visible", &v), -1);
    cr_assert_eq(visibility_parse("after_due", &v), -1);
}

/* ---- rejections ------------------------------------------------------------------------- */

Test(rubric_reject, missing_file)
{
    expect_error(FIX "nope.json", FIX "nope.json: cannot open: No such file or directory");
}

Test(rubric_reject, missing_lab_lists_the_labs)
{
    lab_rubric_t r;
    char err[512];
    cr_assert_eq(rubric_load("rubric.json", "lab9", &r, err, sizeof err), -1);
    cr_assert_str_eq(err, "rubric.json: no rubric for lab 'lab9' (labs has: lab2, challenge, vecadd, scan, convolution, histogram, spmv, spmv-jds, dotprod, lab3, lab3-wb)");
    cr_assert_eq(rubric_load(FIX "overrides.json", "lab5", &r, err, sizeof err), -1);
    cr_assert_str_eq(err, FIX "overrides.json: no rubric for lab 'lab5' (labs has: lab3, lab4)");
}

Test(rubric_reject, syntax_errors_name_the_line)
{
    expect_error(FIX "bad_syntax.json",
                 FIX "bad_syntax.json:6: syntax error: object value separator ',' expected");
    expect_error(FIX "trailing_comma.json",
                 FIX "trailing_comma.json:4: syntax error: unexpected character");
    expect_error(FIX "truncated.json",
                 FIX "truncated.json:4: syntax error: unexpected end of file");
    expect_error(FIX "empty.json", FIX "empty.json:1: syntax error: unexpected end of file");
}

Test(rubric_reject, wrong_top_level)
{
    expect_error(FIX "not_an_object.json",
                 FIX "not_an_object.json: top level: must be an object { ... }");
    expect_error(FIX "missing_labs.json", FIX "missing_labs.json: labs: missing (required)");
    expect_error(FIX "version_2.json",
                 FIX "version_2.json:1: version: must be 1 (the only format this grader reads)");
}

Test(rubric_reject, missing_fields)
{
    expect_error(FIX "missing_datasets.json",
                 FIX "missing_datasets.json:1: labs.lab3.datasets: missing (required)");
    expect_error(FIX "neither_points_total.json",
                 FIX "neither_points_total.json:1: labs.lab3.datasets: needs \"points\" (per "
                     "dataset) or \"total\"");
}

Test(rubric_reject, both_points_and_total)
{
    expect_error(FIX "both_points_total.json",
                 FIX "both_points_total.json:1: labs.lab3.datasets: give either \"points\" (per "
                     "dataset) or \"total\", not both");
}

Test(rubric_reject, wrong_types_and_negative_points)
{
    expect_error(FIX "points_string.json", FIX
                 "points_string.json:1: labs.lab3.datasets.points: must be a non-negative number");
    expect_error(FIX "negative_points.json", FIX
                 "negative_points.json:1: labs.lab3.datasets.points: must be a non-negative number");
    expect_error(FIX "negative_compile_points.json",
                 FIX "negative_compile_points.json:1: labs.lab3.compile.points: must be a "
                     "non-negative number");
    expect_error(FIX "compile_name_empty.json",
                 FIX "compile_name_empty.json:1: labs.lab3.compile.name: must be a non-empty string");
    expect_error(FIX "checks_not_object.json",
                 FIX "checks_not_object.json:1: labs.lab3.checks: must be an object { ... }");
}

Test(rubric_reject, unknown_keys)
{
    expect_error(FIX "unknown_key.json",
                 FIX "unknown_key.json:1: labs.lab3.datasets.pointz: unknown key (known keys: "
                     "points, total, visibility, time_limit_s, budget_s, gpu_time_limit_s, gpu_budget_s, "
                     "timeouts_max, overrides)");
    expect_error(FIX "unknown_lab_key.json",
                 FIX "unknown_lab_key.json:1: labs.lab3.extra_credit: unknown key (known keys: "
                     "compile, datasets, hidden, checks, performance)");
    expect_error(FIX "unknown_top_key.json",
                 FIX "unknown_top_key.json:1: lab: unknown key (known keys: version, labs)");
    expect_error(FIX "override_unknown_key.json",
                 FIX "override_unknown_key.json:2: labs.lab3.datasets.overrides.5.point: unknown "
                     "key (known keys: points, visibility, time_limit_s)");
}

Test(rubric_reject, unknown_visibility)
{
    expect_error(FIX "unknown_visibility.json",
                 FIX "unknown_visibility.json:1: labs.lab3.datasets.visibility: unknown visibility "
                     "'secret' (use visible, hidden, after_due_date or after_published)");
    expect_error(FIX "visibility_not_string.json",
                 FIX "visibility_not_string.json:1: labs.lab3.compile.visibility: must be a "
                     "string: visible, hidden, after_due_date or after_published");
}

Test(rubric_reject, time_limits_out_of_range)
{
    expect_error(FIX "zero_time_limit.json",
                 FIX "zero_time_limit.json:1: labs.lab3.datasets.time_limit_s: must be a number "
                     "of seconds > 0 and <= 3600");
    expect_error(FIX "huge_time_limit.json",
                 FIX "huge_time_limit.json:2: labs.lab3.datasets.overrides.5.time_limit_s: must "
                     "be a number of seconds > 0 and <= 3600");
}

Test(rubric_reject, budget_not_a_number)
{
    expect_error(FIX "bad_budget.json",
                 FIX "bad_budget.json:5: labs.lab3.datasets.budget_s: must be a number of seconds "
                     "> 0 and <= 72000");
}

Test(rubric_reject, override_points_with_total)
{
    expect_error(FIX "override_points_with_total.json",
                 FIX "override_points_with_total.json:2: labs.lab3.datasets.overrides.5.points: "
                     "not allowed with datasets.total (the total is split evenly)");
}

Test(rubric_reject, bad_checks)
{
    expect_error(FIX "check_unknown.json",
                 FIX "check_unknown.json:9: labs.lab3.checks.race_free: unknown key (known keys: "
                     "race-free, barriers-uniform, memory-safe, uses-shared-memory, traffic-reduced, "
                     "uses-constant-memory)");
    expect_error(FIX "check_traffic_no_limit.json",
                 FIX "check_traffic_no_limit.json:9: labs.lab3.checks.traffic-reduced."
                     "max_bytes_per_flop: missing (required)");
    expect_error(FIX "check_negative_points.json",
                 FIX "check_negative_points.json:10: labs.lab3.checks.memory-safe.points: must be a "
                     "non-negative number");
    expect_error(FIX "check_limit_on_race.json",
                 FIX "check_limit_on_race.json:11: labs.lab3.checks.race-free.max_bytes_per_flop: "
                     "unknown key (known keys: points, visibility)");
}

Test(rubric_reject, bad_performance)
{
    expect_error(FIX "perf_no_shapes.json",
                 FIX "perf_no_shapes.json:8: labs.lab3.performance.shapes: must be a list of 1 to 4 "
                     "shapes (\"MxKxN\", \"N\")");
    expect_error(FIX "perf_bad_shape.json",
                 FIX "perf_bad_shape.json:10: labs.lab3.performance.shapes: entry 1 is not a shape "
                     "(positive integers joined by x: \"MxKxN\" for matmul, \"N\" for a "
                     "reduction)");
    expect_error(FIX "perf_scale_backwards.json",
                 FIX "perf_scale_backwards.json:14: labs.lab3.performance.full_at: must be greater "
                     "than zero_at");
    expect_error(FIX "perf_unknown_key.json",
                 FIX "perf_unknown_key.json:15: labs.lab3.performance.baseline_ms: unknown key (known "
                     "keys: points, visibility, shapes, zero_at, full_at, time_cap_s, relative_to)");
    expect_error(FIX "perf_bad_relative.json",
                 FIX "perf_bad_relative.json:13: labs.lab3.performance.relative_to: must be "
                     "\"reference\" (the lab's reference kernel) or \"cublas\" (cuBLAS FP32), not "
                     "'cuda'");
}

/* ---- the hidden datasets' section ---------------------------------------------------------- */

Test(rubric_hidden, given_count_points_visibility)
{
    lab_rubric_t r = load_ok(FIX "hidden.json", "lab3");
    cr_assert_eq(r.hidden.count, 12);
    dataset_rule_t rule = rubric_hidden_rule(&r, 20);
    cr_assert_eq(rule.points, 2);
    cr_assert_eq(rule.visibility, VIS_AFTER_DUE_DATE);
    cr_assert_eq(rule.time_limit_s, 20, "the datasets' time limit");
    rubric_free(&r);
}

Test(rubric_hidden, default_is_eight_worth_a_public_dataset_each)
{
    lab_rubric_t r = load_ok(FIX "hidden.json", "lab4");
    cr_assert_eq(r.hidden.count, HIDDEN_DEFAULT_COUNT);
    cr_assert_eq(HIDDEN_DEFAULT_COUNT, 8);
    dataset_rule_t rule = rubric_hidden_rule(&r, 20);
    cr_assert_eq(rule.points, 4);
    cr_assert_eq(rule.visibility, VIS_HIDDEN, "the datasets' visibility");
    rubric_free(&r);
    r = load_ok(FIX "minimal.json", "lab3");
    cr_assert_eq(r.hidden.count, 8);
    cr_assert_eq(rubric_hidden_rule(&r, 20).points, 2.5);
    rubric_free(&r);
}

Test(rubric_hidden, total_split_evenly_and_zero_count)
{
    lab_rubric_t r = load_ok(FIX "hidden.json", "lab5");
    cr_assert_eq(r.hidden.count, 10);
    cr_assert_eq(rubric_hidden_rule(&r, 20).points, 2.5);
    rubric_free(&r);
    r = load_ok(FIX "hidden.json", "lab6");
    cr_assert_eq(r.hidden.count, 0, "no hidden datasets");
    cr_assert_eq(rubric_hidden_rule(&r, 20).points, 3, "datasets.total over the public ones");
    rubric_free(&r);
}

Test(rubric_hidden, malformed_sections_name_the_file_and_line)
{
    expect_error(FIX "hidden_bad_count.json",
                 FIX "hidden_bad_count.json:8: labs.lab3.hidden.count: must be a whole number "
                     "from 0 (no hidden datasets) to 64");
    expect_error(FIX "hidden_too_many.json",
                 FIX "hidden_too_many.json:6: labs.lab3.hidden.count: must be a whole number "
                     "from 0 (no hidden datasets) to 64");
    expect_error(FIX "hidden_unknown_key.json",
                 FIX "hidden_unknown_key.json:8: labs.lab3.hidden.seed: unknown key (known "
                     "keys: count, points, total, visibility)");
    expect_error(FIX "hidden_points_and_total.json",
                 FIX "hidden_points_and_total.json:7: labs.lab3.hidden: give either \"points\" "
                     "(per hidden dataset) or \"total\", not both");
    expect_error(FIX "hidden_not_object.json",
                 FIX "hidden_not_object.json:7: labs.lab3.hidden: must be an object { ... }");
    expect_error(FIX "hidden_bad_visibility.json",
                 FIX "hidden_bad_visibility.json:9: labs.lab3.hidden.visibility: unknown "
                     "visibility 'secret' (use visible, hidden, after_due_date or "
                     "after_published)");
    expect_error(FIX "hidden_negative_points.json",
                 FIX "hidden_negative_points.json:6: labs.lab3.hidden.points: must be a "
                     "non-negative number");
}

/* ---- the run-affecting fields (rubric_run_fields) ------------------------------------ */

/* The run fields of a lab3 rubric whose lab section is `section`. */
static char *run_fields_of(const char *section)
{
    char path[] = "/tmp/cugrade-rubric-run-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "{\"version\": 1, \"labs\": {\"lab3\": {%s}}}", section);
    fclose(f);
    lab_rubric_t r = load_ok(path, "lab3");
    remove(path);
    char *fields = rubric_run_fields(&r);
    rubric_free(&r);
    return fields;
}

#define BASE_DATASETS "\"compile\": {\"name\": \"compiles\", \"points\": 0}, "
#define CHECKS "\"checks\": {\"race-free\": {\"points\": 4}, \"traffic-reduced\": {\"points\": 4, " \
               "\"max_bytes_per_flop\": %s}}, "
#define PERF "\"performance\": {\"points\": %s, \"shapes\": [\"%s\"], \"zero_at\": 0.5, " \
             "\"full_at\": 0.9, \"time_cap_s\": 30}"

Test(rubric_run_fields, points_visibility_names_and_thresholds_leave_them_alone)
{
    char a[1024], b[1024];
    snprintf(a, sizeof a, BASE_DATASETS "\"datasets\": {\"points\": 1, \"time_limit_s\": 20, "
             "\"overrides\": {\"3\": {\"points\": 2, \"time_limit_s\": 40}}}, "
             "\"hidden\": {\"count\": 2}, " CHECKS PERF, "1.0", "10", "64x64x64");
    snprintf(b, sizeof b, "\"compile\": {\"name\": \"builds\", \"points\": 5}, "
             "\"datasets\": {\"total\": 9, \"visibility\": \"hidden\", \"time_limit_s\": 20, "
             "\"overrides\": {\"3\": {\"visibility\": \"after_published\", \"time_limit_s\": 40}}}, "
             "\"hidden\": {\"count\": 2, \"points\": 7}, " CHECKS PERF, "0.25", "3", "64x64x64");
    char *fa = run_fields_of(a), *fb = run_fields_of(b);
    cr_assert_str_eq(fa, fb);
    cr_assert(strstr(fa, "datasets.overrides.3.time_limit_s 40\n"), "%s", fa);
    cr_assert(strstr(fa, "checks race-free traffic-reduced\n"), "%s", fa);
    free(fa), free(fb);
}

Test(rubric_run_fields, what_changes_a_run_changes_them)
{
    const char *base = BASE_DATASETS "\"datasets\": {\"points\": 1, \"time_limit_s\": 20}";
    const char *changed[] = {
        BASE_DATASETS "\"datasets\": {\"points\": 1, \"time_limit_s\": 21}",
        BASE_DATASETS "\"datasets\": {\"points\": 1, \"time_limit_s\": 20, \"budget_s\": 60}",
        BASE_DATASETS "\"datasets\": {\"points\": 1, \"time_limit_s\": 20, \"gpu_time_limit_s\": 5}",
        BASE_DATASETS "\"datasets\": {\"points\": 1, \"time_limit_s\": 20, \"timeouts_max\": 2}",
        BASE_DATASETS "\"datasets\": {\"points\": 1, \"time_limit_s\": 20, \"overrides\": "
                      "{\"4\": {\"time_limit_s\": 25}}}",
        BASE_DATASETS "\"datasets\": {\"points\": 1, \"time_limit_s\": 20}, \"hidden\": {\"count\": 3}",
        BASE_DATASETS "\"datasets\": {\"points\": 1, \"time_limit_s\": 20}, "
                      "\"checks\": {\"memory-safe\": {\"points\": 0}}",
        BASE_DATASETS "\"datasets\": {\"points\": 1, \"time_limit_s\": 20}, \"performance\": "
                      "{\"points\": 1, \"shapes\": [\"64x64x64\"], \"zero_at\": 0.5, \"full_at\": 0.9, "
                      "\"time_cap_s\": 30}",
    };
    char *fb = run_fields_of(base);
    for (size_t i = 0; i < sizeof changed / sizeof *changed; i++) {
        char *fc = run_fields_of(changed[i]);
        cr_assert_str_neq(fc, fb, "change %zu left the run fields as they were", i);
        free(fc);
    }
    free(fb);
}

/* A rubric with SECTION as lab3's body, in a temporary file: its path. */
static void write_lab3(char *path, const char *section)
{
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "{\"version\": 1, \"labs\": {\"lab3\": {%s}}}", section);
    fclose(f);
}

/* datasets.timeouts_max: unset by default (the grader then picks by the
 * backend), a whole number from 0 when given, else an error naming it. */
Test(rubric_load, timeouts_max_unset_given_or_refused)
{
    char path[] = "/tmp/cugrade-rubric-tmo-XXXXXX";
    write_lab3(path, BASE_DATASETS "\"datasets\": {\"points\": 1}");
    lab_rubric_t r = load_ok(path, "lab3");
    cr_assert_eq(r.timeouts_max, RUBRIC_TIMEOUTS_UNSET);
    rubric_free(&r);
    remove(path);

    char given[] = "/tmp/cugrade-rubric-tmo-XXXXXX";
    write_lab3(given, BASE_DATASETS "\"datasets\": {\"points\": 1, \"timeouts_max\": 0}");
    r = load_ok(given, "lab3");
    cr_assert_eq(r.timeouts_max, 0);
    rubric_free(&r);
    remove(given);

    const char *bad[] = {"1.5", "-1", "\"2\"", "1001"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char p[] = "/tmp/cugrade-rubric-tmo-XXXXXX", body[256], want[512];
        snprintf(body, sizeof body, BASE_DATASETS "\"datasets\": {\"points\": 1, "
                 "\"timeouts_max\": %s}", bad[i]);
        write_lab3(p, body);
        snprintf(want, sizeof want, "%s:1: labs.lab3.datasets.timeouts_max: must be a whole "
                 "number from 0 (every dataset runs, however many time out) to 1000", p);
        expect_error(p, want);
        remove(p);
    }
}
