/* test_measured.c - a grading's measurement (score/measured.h) and the one
 * scoring function (score/score.h): measurements.json reads back to the
 * same measurement, bit for bit (every double, a timing, the checks'
 * reports, error maps), and scores to the same results.json; a changed
 * rubric (points, visibility, names, thresholds, relative_to) changes the
 * grade as it says; the checks replayed from the reports judge as evidence
 * added at grade time; and every malformed file (cut anywhere, a wrong
 * type, a missing or unknown key, another format) is refused with a
 * message naming the file, never half read or crashed on. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course/lab.h"
#include "kinds/matmul.h"
#include "score/measured.h"
#include "score/score.h"
#include "util/util.h"

#define NAME "m/measurements.json"

static const char *const TIMING =
    "device NVIDIA H100\nsm_clock_mhz 1755\nbandwidth_gbs 3352.5\nl2_bytes 52428800\nsms 132\n"
    "driver_version 12080\nruntime_version 12060\nshape 4096x4096x4096\n"
    "impl student median_ms 3.1 mean_ms 3.2 rse 0.004 reps 40 gflops 44336.3 wrong 0 "
    "wrong_reps 0 min_ms 3.0 max_ms 3.4 q1_ms 3.05 gated 1\n" /* with its first quartile */
    "impl reference median_ms 2.9 mean_ms 2.95 rse 0.003 reps 40 gflops 47393.1 wrong 0\n"
    "impl cublas median_ms 2.6 mean_ms 2.61 rse 0.002 reps 40 gflops 52861.9 wrong 0 "
    "gated 0\n"; /* timed without the launch gate; the reference says nothing of it */

static emu_report_t report(int race, double threads)
{
    emu_report_t r;
    memset(&r, 0, sizeof r);
    r.findings = calloc(3, sizeof *r.findings);
    r.stats = calloc(4, sizeof *r.stats);
    if (race) {
        snprintf(r.findings[r.nfindings].severity, 16, "error");
        snprintf(r.findings[r.nfindings].kind, 40, "race");
        r.findings[r.nfindings++].message =
            strdup("Race on shared tileA (element 0) in kernel k launched at matmul.cu:62: thread "
                   "(0,0,0) of block (0,0,0) writes it at matmul.cu:43 (12 times in this launch)");
    }
    snprintf(r.findings[r.nfindings].severity, 16, "info");
    snprintf(r.findings[r.nfindings].kind, 40, "coalescing");
    r.findings[r.nfindings++].message = strdup("loads at matmul.cu:40: 4 sectors per access");
    const char *keys[] = {"threads", "global_load_bytes", "global_store_bytes", "shared_staged_loads"};
    double values[] = {threads, 32768.5, 1.0 / 3, 262144};
    for (int i = 0; i < 4; i++) {
        snprintf(r.stats[i].key, sizeof r.stats[i].key, "%s", keys[i]);
        r.stats[i].value = values[i];
    }
    r.nstats = 4;
    return r;
}

/* A measurement with every part: public and hidden datasets (one with an
 * error map), the checks' reports, a timing on the gpu backend, notes and
 * phases with doubles that need 17 digits. */
static measured_t sample(int timed)
{
    measured_t m;
    memset(&m, 0, sizeof m);
    snprintf(m.cugrade_version, sizeof m.cugrade_version, "0.1.0");
    snprintf(m.lab, sizeof m.lab, "lab3");
    m.backend = timed ? BACKEND_NATIVE : BACKEND_EMU;
    snprintf(m.backend_why, sizeof m.backend_why, "requested with --backend %s",
             timed ? "native" : "emu");
    snprintf(m.sandbox, sizeof m.sandbox, "sandbox: bubblewrap");
    snprintf(m.student_file, sizeof m.student_file, "subs/alice/lab3/matmul.cu");
    measured_set(&m.rubric_run_fields, "datasets.time_limit_s 30\nhidden.count 1\n");
    m.compiled = 1;
    measured_set(&m.compile_message, "compiled subs/alice/lab3/matmul.cu in 0.3 s (\"emu\")\n");
    measured_add_dataset(&m, "dataset 0 (16x16x16)", "0", 0, 1, "passed: all right\n", "", NULL);
    error_map_t *map = calloc(1, sizeof *map);
    *map = (error_map_t){.rows = 33, .cols = 9, .map_rows = 2, .map_cols = 3};
    snprintf(map->cells, sizeof map->cells, ".xo..o");
    measured_add_dataset(&m, "dataset 12 (33x17x9)", "12", 0, 0, "FAILED: wrong\n",
                         "hypothesis:b-transposed", map);
    measured_add_dataset(&m, "hidden dataset 1 (1x1x1)", "", 1, 1, "passed\n", "", NULL);
    m.checks_measured = 1;
    for (int i = 0; i < 3; i++) {
        emu_report_t r = report(i == 1, i == 2 ? 0 : 4096);
        evidence_log_add(&m.evidence, i == 1 ? "dataset 12 (33x17x9)" : "dataset 0 (16x16x16)",
                         &r, i == 0 ? 8192 : 0.1 + i);
        emu_report_free(&r);
    }
    m.perf.measured = 1;
    if (timed) {
        char err[256];
        cr_assert_eq(perf_parse(TIMING, &m.perf.result, err, sizeof err), 0, "%s", err);
        m.perf.timed = 1;
        measured_set(&m.perf.text, "timed alone on GPU 0 (waited 1.5 s in its timing queue)\n");
    }
    measured_add_note(&m, "canary", "the lab's reference passed dataset 0 (ran in 0.2 s)");
    measured_set(&m.phase_times, "build 0.3 s, datasets 1.0 s, checks 0.0 s, performance 0.0 s");
    measured_add_phase(&m, "build", 0.1 + 0.2);
    measured_add_phase(&m, "gpu_wait", 1e-300);
    m.execution_time = 2.0 / 3;
    return m;
}

static lab_rubric_t rubric(void)
{
    lab_rubric_t r;
    memset(&r, 0, sizeof r);
    snprintf(r.lab, sizeof r.lab, "lab3");
    snprintf(r.compile_name, sizeof r.compile_name, "compiles");
    r.datasets.points = 2;
    r.datasets.time_limit_s = 30;
    r.hidden.count = 1;
    for (int id = 0; id < CHECK_COUNT; id++) {
        r.checks[id].present = 1;
        r.checks[id].points = 4;
    }
    r.checks[CHECK_TRAFFIC_REDUCED].max_bytes_per_flop = 100;
    r.performance = (perf_rule_t){.present = 1, .points = 10, .zero_at = 0.5, .full_at = 0.9,
                                  .nshapes = 1, .time_cap_s = 30, .shapes = {"4096x4096x4096"}};
    return r;
}

static lab_t lab3(void)
{
    lab_t lab;
    memset(&lab, 0, sizeof lab);
    snprintf(lab.name, sizeof lab.name, "lab3");
    lab.tile_width = 16;
    lab.kind = &kind_matmul;
    lab.has_timing = 1;
    return lab;
}

/* results.json text of m under r (caller frees). */
static char *scored(const measured_t *m, const lab_rubric_t *r)
{
    lab_t lab = lab3();
    grade_t g;
    score_measured(m, r, &lab, &g);
    char *text = grade_to_json(&g);
    grade_free(&g);
    return text;
}

static measured_t parsed(const char *text)
{
    measured_t m;
    char err[512] = "";
    cr_assert_eq(measured_parse(NAME, text, &m, err, sizeof err), 0, "%s", err);
    return m;
}

static json_object *test_of(json_object *results, const char *name)
{
    json_object *tests;
    cr_assert(json_object_object_get_ex(results, "tests", &tests));
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        json_object *t = json_object_array_get_idx(tests, i), *n;
        json_object_object_get_ex(t, "name", &n);
        if (strcmp(json_object_get_string(n), name) == 0)
            return t;
    }
    cr_assert_fail("no test %s", name);
    return NULL;
}

static double field(json_object *o, const char *key)
{
    json_object *v;
    cr_assert(json_object_object_get_ex(o, key, &v), "no %s", key);
    return json_object_get_double(v);
}

static const char *text_of(json_object *o, const char *key)
{
    json_object *v;
    cr_assert(json_object_object_get_ex(o, key, &v), "no %s", key);
    return json_object_get_string(v);
}

/* ---- measurements.json reads back as written ------------------------------------- */

Test(measured, reads_back_bit_for_bit_and_scores_the_same)
{
    for (int timed = 0; timed <= 1; timed++) {
        measured_t m = sample(timed);
        char *text = measured_to_json(&m);
        measured_t back = parsed(text);
        char *again = measured_to_json(&back);
        cr_assert_str_eq(again, text, "written again, it differs");
        cr_assert(back.perf.timed == timed);
        cr_assert_eq(back.datasets[1].error_map->map_cols, 3);
        cr_assert_str_eq(back.datasets[1].error_map->cells, ".xo..o");
        cr_assert_null(back.datasets[0].error_map);
        cr_assert_eq(back.evidence.n, 3);
        cr_assert(back.evidence.runs[2].report.stats[2].value == 1.0 / 3, "a double changed");
        cr_assert(back.execution_time == 2.0 / 3);
        cr_assert(back.phases[0].seconds == 0.1 + 0.2 && back.phases[1].seconds == 1e-300);
        if (timed) {
            cr_assert(!memcmp(&back.perf.result, &m.perf.result, sizeof m.perf.result),
                      "the timing is not the one written");
            const perf_impl_t *im = back.perf.result.shapes[0].impls;
            cr_assert(im[0].gate == PERF_GATED && im[1].gate == PERF_GATE_UNKNOWN &&
                      im[2].gate == PERF_UNGATED, "how each was timed, kept");
            cr_assert(im[0].has_wrong_reps && im[0].wrong_reps == 0 && !im[1].has_wrong_reps,
                      "the rounds found wrong, kept where reported");
        }
        lab_rubric_t r = rubric();
        char *a = scored(&m, &r), *b = scored(&back, &r);
        cr_assert_str_eq(b, a);
        free(a), free(b), free(text), free(again);
        measured_free(&m), measured_free(&back);
    }
}

Test(measured, nan_and_infinite_numbers_survive)
{
    measured_t m = sample(1);
    m.perf.result.shapes[0].impls[0].rse = NAN;
    m.perf.result.shapes[0].copy_gbs = INFINITY;
    m.evidence.runs[0].flop = -INFINITY;
    char *text = measured_to_json(&m);
    json_object *j = json_tokener_parse(text);
    cr_assert_not_null(j, "not JSON");
    json_object_put(j);
    measured_t back = parsed(text);
    cr_assert(isnan(back.perf.result.shapes[0].impls[0].rse));
    cr_assert(isinf(back.perf.result.shapes[0].copy_gbs) && back.perf.result.shapes[0].copy_gbs > 0);
    cr_assert(isinf(back.evidence.runs[0].flop) && back.evidence.runs[0].flop < 0);
    free(text);
    measured_free(&m), measured_free(&back);
}

Test(measured, written_to_a_file_and_read_back)
{
    char dir[] = "/tmp/cugrade-measured-XXXXXX", path[64], err[512] = "";
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/measurements.json", dir);
    measured_t m = sample(0), back;
    cr_assert_eq(measured_write(&m, path, err, sizeof err), 0, "%s", err);
    cr_assert_eq(measured_read(path, &back, err, sizeof err), 0, "%s", err);
    cr_assert_eq(back.ndatasets, 3);
    measured_free(&back);
    snprintf(path, sizeof path, "%s/none.json", dir);
    cr_assert_eq(measured_read(path, &back, err, sizeof err), -1);
    cr_assert(strstr(err, path) && strstr(err, "cannot open"), "%s", err);
    measured_free(&m);
    rm_rf(dir);
}

/* ---- malformed files ---------------------------------------------------------------- */

/* The sample's JSON with `from` replaced by `to` (once), parsed: must fail
 * with a message that starts with the file's name and has `says`. */
static void refused(const char *from, const char *to, const char *says)
{
    measured_t m = sample(1);
    char *text = measured_to_json(&m);
    measured_free(&m);
    char *at = strstr(text, from);
    cr_assert_not_null(at, "no %s in the sample", from);
    strbuf_t sb = {0};
    sb_appendn(&sb, text, (size_t)(at - text));
    sb_append(&sb, to);
    sb_append(&sb, at + strlen(from));
    char err[512] = "";
    measured_t back;
    cr_assert_eq(measured_parse(NAME, sb_str(&sb), &back, err, sizeof err), -1, "%s -> %s read", from, to);
    cr_assert_eq(strncmp(err, NAME, strlen(NAME)), 0, "%s", err);
    cr_assert(strstr(err, says), "\"%s\" not in: %s", says, err);
    cr_assert_null(back.datasets, "a refused file left a measurement");
    free(text);
    sb_free(&sb);
}

Test(measured, every_bad_field_is_refused_and_named)
{
    refused("\"format\":\"cugrade-measurements\"", "\"format\":\"gradescope\"",
            "format: must be \"cugrade-measurements\"");
    refused("\"version\":1", "\"version\":2", "version: 2: this cugrade reads version 1");
    refused("\"backend\":\"native\"", "\"backend\":\"auto\"", "backend: must be \"emu\", \"vgpu\" or \"native\"");
    refused("\"compiled\":true", "\"compiled\":1", "compile.compiled: must be true or false");
    refused("\"passed\":false", "\"passed\":\"no\"", "datasets[1].passed: must be true or false");
    refused("\"hidden_index\":1", "\"hidden_index\":-1", "datasets[2].hidden_index: must be a whole number");
    refused("\"map_cols\":3", "\"map_cols\":4", "datasets[1].error_map: malformed");
    refused("\"name\":\"dataset 0 (16x16x16)\",", "", "datasets[0].name: missing");
    refused("\"folder\":\"0\",", "\"folder\":\"0\", \"points\": 3,", "datasets[0].points: unknown key");
    refused("\"reps\":40", "\"reps\":\"40\"", "performance.timing.shapes[0].impls[0].reps: must be a whole number");
    refused("\"gated\":true", "\"gated\":1", "performance.timing.shapes[0].impls[0].gated: must be true or false");
    refused("\"wrong_reps\":0", "\"wrong_reps\":41", "performance.timing.shapes[0].impls[0].wrong_reps: must be");
    refused("\"threads\":4096", "\"threads\":\"many\"", "checks.reports[0].stats.threads: must be a number");
    refused("\"severity\":\"error\"", "\"severity\":\"an error far too long to fit\"",
            "checks.reports[1].findings[0].severity: longer than 15 characters");
    refused("\"timed\":true", "\"timed\":false", "performance.timing: must be an object when timed, else null");
    refused("\"execution_time\":", "\"execution_time\":null,\"x\":", "unknown key");
}

/* A file written before "gpu" meant the executor replayed on a GPU: its
 * "gpu" was the program itself on the device, and is read as native. */
Test(measured, a_gpu_backend_written_before_the_rename_reads_as_native)
{
    measured_t m = sample(1);
    char *text = measured_to_json(&m);
    measured_free(&m);
    char *at = strstr(text, "\"backend\":\"native\"");
    cr_assert_not_null(at);
    memcpy(at, "\"backend\":\"gpu\"   ", 18); /* the same length: spaces before the comma are JSON */
    char err[512] = "";
    measured_t back;
    cr_assert_eq(measured_parse(NAME, text, &back, err, sizeof err), 0, "%s", err);
    cr_assert_eq(back.backend, BACKEND_NATIVE);
    measured_free(&back);
    free(text);
}

Test(measured, not_json_is_refused_with_its_line)
{
    measured_t m;
    char err[512] = "";
    cr_assert_eq(measured_parse(NAME, "{\n  \"format\": \"cugrade-measurements\",\n  oops\n}", &m, err,
                                sizeof err), -1);
    cr_assert_str_eq(err, NAME ":3: syntax error: quoted object property name expected");
    cr_assert_eq(measured_parse(NAME, "", &m, err, sizeof err), -1);
    cr_assert(strstr(err, NAME ":1: syntax error: unexpected end of file"), "%s", err);
    cr_assert_eq(measured_parse(NAME, "[1, 2]", &m, err, sizeof err), -1);
    cr_assert_str_eq(err, NAME ": must be an object { ... }");
}

/* A file cut anywhere (a full disk, a kill while copying) is refused,
 * never read as a shorter measurement. */
Test(measured, a_file_cut_anywhere_is_refused)
{
    measured_t m = sample(1);
    char *text = measured_to_json(&m);
    measured_free(&m);
    size_t len = strlen(text);
    int refused = 0;
    for (size_t cut = 0; cut + 2 < len; cut += 7) {
        char saved = text[cut];
        text[cut] = '\0';
        measured_t back;
        char err[512] = "";
        cr_assert_eq(measured_parse(NAME, text, &back, err, sizeof err), -1, "cut at %zu read", cut);
        cr_assert_eq(strncmp(err, NAME, strlen(NAME)), 0, "cut at %zu: %s", cut, err);
        text[cut] = saved;
        refused++;
    }
    cr_assert_gt(refused, 100);
    free(text);
}

/* ---- scoring --------------------------------------------------------------------------- */

Test(score, the_rubric_decides_points_visibility_names_and_thresholds)
{
    measured_t m = sample(0);
    lab_rubric_t r = rubric();
    char *before = scored(&m, &r);
    json_object *a = json_tokener_parse(before);
    cr_assert_float_eq(field(test_of(a, "dataset 12 (33x17x9)"), "max_score"), 2, 1e-12);
    cr_assert_float_eq(field(test_of(a, "hidden dataset 1 (1x1x1)"), "score"), 2, 1e-12);
    cr_assert_str_eq(text_of(test_of(a, "race-free"), "status"), "failed");
    cr_assert_str_eq(text_of(test_of(a, "traffic-reduced"), "status"), "passed");
    cr_assert_float_eq(field(a, "score"), 2 + 2 + 4 * 4, 1e-12); /* dataset 0, hidden 1, 4 checks */

    r.datasets.points = 5;
    r.overrides = calloc(1, sizeof *r.overrides);
    r.overrides[0] = (dataset_override_t){.name = "0", .rule = {.points = 7, .visibility = VIS_HIDDEN}};
    r.noverrides = 1;
    r.hidden.points_given = 1, r.hidden.points = 1.5;
    snprintf(r.compile_name, sizeof r.compile_name, "builds");
    r.compile_points = 1;
    r.checks[CHECK_TRAFFIC_REDUCED].max_bytes_per_flop = 1e-9; /* now too much traffic */
    r.checks[CHECK_RACE_FREE].points = 9;
    char *after = scored(&m, &r);
    json_object *b = json_tokener_parse(after);
    cr_assert_float_eq(field(test_of(b, "builds"), "score"), 1, 1e-12);
    cr_assert_float_eq(field(test_of(b, "dataset 0 (16x16x16)"), "score"), 7, 1e-12);
    cr_assert_str_eq(text_of(test_of(b, "dataset 0 (16x16x16)"), "visibility"), "hidden");
    cr_assert_float_eq(field(test_of(b, "dataset 12 (33x17x9)"), "max_score"), 5, 1e-12);
    cr_assert_float_eq(field(test_of(b, "hidden dataset 1 (1x1x1)"), "score"), 1.5, 1e-12);
    cr_assert_float_eq(field(test_of(b, "race-free"), "max_score"), 9, 1e-12);
    cr_assert_str_eq(text_of(test_of(b, "traffic-reduced"), "status"), "failed");
    cr_assert_float_eq(field(b, "score"), 1 + 7 + 1.5 + 3 * 4, 1e-12);
    cr_assert(strstr(text_of(b, "output"), "Score 21.5 / "), "%s", text_of(b, "output"));
    json_object_put(a), json_object_put(b);
    free(before), free(after);
    rubric_free(&r);
    measured_free(&m);
}

Test(score, a_stored_timing_is_scored_on_the_rubric_s_scale)
{
    measured_t m = sample(1);
    m.datasets[1].passed = 1; /* every dataset passes: the timing counts */
    lab_rubric_t r = rubric();
    char *text = scored(&m, &r);
    json_object *a = json_tokener_parse(text);
    json_object *perf = test_of(a, "performance"), *extra;
    /* 44336.3 / 47393.1 = 0.9355: full points at 0.9 */
    cr_assert_float_eq(field(perf, "score"), 10, 1e-12);
    cr_assert(strstr(text_of(perf, "output"), "timed alone on GPU 0 (waited 1.5 s"), "%s",
              text_of(perf, "output"));
    cr_assert(json_object_object_get_ex(a, "extra_data", &extra));
    cr_assert_float_eq(field(extra, "perf_ratio"), 44336.3 / 47393.1, 1e-9);
    cr_assert_str_eq(text_of(extra, "device"), "NVIDIA H100");
    r.performance.relative_to = PERF_VS_CUBLAS; /* 0.8387 of cuBLAS: 8.47 of 10 */
    char *vs = scored(&m, &r);
    json_object *b = json_tokener_parse(vs);
    cr_assert_float_eq(field(test_of(b, "performance"), "score"), 8.47, 1e-9);
    json_object_put(a), json_object_put(b);
    free(text), free(vs);
    measured_free(&m);
}

Test(score, why_the_performance_test_was_not_timed_uses_the_rubric_s_points)
{
    measured_t m = sample(0);
    lab_rubric_t r = rubric();
    lab_t lab = lab3();
    strbuf_t msg = {0};
    cr_assert_eq(score_perf_not_timed(&m, &r.performance, &lab, &msg), 0);
    cr_assert(strstr(sb_str(&msg), "0 of 0; 10 points on a GPU"), "%s", sb_str(&msg));
    sb_free(&msg);
    m.backend = BACKEND_NATIVE;
    cr_assert_eq(score_perf_not_timed(&m, &r.performance, &lab, &msg), 0);
    cr_assert(strstr(sb_str(&msg), "(1 of 2 pass, and 1 of 1 hidden ones)"), "%s", sb_str(&msg));
    sb_free(&msg);
    snprintf(m.rule_broken, sizeof m.rule_broken, "rule fp32-simt: HMMA in the SASS");
    cr_assert_eq(score_perf_not_timed(&m, &r.performance, &lab, &msg), 1);
    cr_assert(strstr(sb_str(&msg), "FAILED: rule fp32-simt"), "%s", sb_str(&msg));
    sb_free(&msg);
    measured_free(&m);
}

/* The checks replayed from the stored reports judge as the evidence added
 * at grade time did. */
Test(score, replayed_reports_give_the_evidence_they_gave_when_added)
{
    measured_t m = sample(0);
    check_evidence_t live, replayed;
    memset(&live, 0, sizeof live);
    memset(&replayed, 0, sizeof replayed);
    for (int i = 0; i < m.evidence.n; i++)
        evidence_add(&live, m.evidence.runs[i].label, &m.evidence.runs[i].report,
                     m.evidence.runs[i].flop);
    evidence_replay(&replayed, &m.evidence);
    cr_assert_eq(replayed.runs, 3);
    cr_assert_eq(replayed.instrumented_runs, live.instrumented_runs);
    cr_assert_eq(replayed.distinct[CHECK_RACE_FREE], 1);
    cr_assert(!(fabs(replayed.global_bytes - live.global_bytes) > 0));
    cr_assert_str_eq(replayed.insight, live.insight);
    evidence_free(&live), evidence_free(&replayed);

    check_evidence_t rec; /* recording while adding keeps copies, in order */
    evidence_log_t log = {0};
    memset(&rec, 0, sizeof rec);
    rec.record = &log;
    evidence_replay(&rec, &m.evidence);
    cr_assert_eq(log.n, 3);
    cr_assert_str_eq(log.runs[1].label, "dataset 12 (33x17x9)");
    cr_assert_str_eq(log.runs[1].report.findings[0].kind, "race");
    evidence_free(&rec);
    evidence_log_free(&log);
    measured_free(&m);
}

/* What the checks could not be judged on says so, whatever the rubric. */
Test(score, checks_not_measured_say_so)
{
    measured_t m = sample(0);
    m.checks_measured = 0;
    lab_rubric_t r = rubric();
    char *text = scored(&m, &r);
    json_object *a = json_tokener_parse(text);
    cr_assert(strstr(text_of(test_of(a, "memory-safe"), "output"), "not run: the grading that "
                                                                     "measured this submission had no checks"));
    cr_assert_float_eq(field(test_of(a, "memory-safe"), "score"), 0, 1e-12);
    json_object_put(a);
    free(text);
    measured_free(&m);
}
