/* test_grouped.c - end to end: grouped dataset runs (`cugrade run
 * --dataset-runs grouped`: every dataset in one process of the lab driver's
 * list mode, labs/common/harness.h) on the CPU emulator give the verdicts and
 * scores of separate runs, isolate a crash to its dataset, stop an endless
 * kernel at each dataset's limit (the driver's watchdog), and show each
 * dataset its own program output. Also the driver's list mode run directly,
 * with its turns on the GPU's queue.
 * Runs from the repository root. */
#include <limits.h>

#include "e2e.h"
#include "matbin.h"
#include "run/gpu_turn.h"
#include "run/gpuqueue.h"

#include <pthread.h>

static const char *const four_shapes[] = {"16x16x16", "33x17x9", "20x10x30", "9x9x9", NULL};

/* `cugrade run --dataset-runs MODE --datasets DIR [--rubric R]` on the emulator. */
static graded_t grade_mode(const char *mode, const char *submission, const char *dir,
                           const char *rubric)
{
    const char *extra[] = {"--dataset-runs", mode, "--datasets", dir,
                           rubric ? "--rubric" : NULL, rubric, NULL};
    return grade(submission, extra);
}

/* Same tests, in the same order, with the same status and score. */
static void expect_same_verdicts(const graded_t *grouped, const graded_t *separate)
{
    json_object *tg = tests_of(grouped), *ts = tests_of(separate);
    cr_assert_eq(json_object_array_length(tg), json_object_array_length(ts));
    for (size_t i = 0; i < json_object_array_length(tg); i++) {
        json_object *a = json_object_array_get_idx(tg, i), *b = json_object_array_get_idx(ts, i);
        cr_expect_str_eq(str(a, "name"), str(b, "name"));
        cr_expect_str_eq(str(a, "status"), str(b, "status"), "%s grouped:\n%s\nseparate:\n%s",
                         str(a, "name"), str(a, "output"), str(b, "output"));
        cr_expect_float_eq(num(a, "score"), num(b, "score"), 1e-9, "%s", str(a, "name"));
    }
    cr_expect_float_eq(num(grouped->json, "score"), num(separate->json, "score"), 1e-9);
}

/* Grades submission both ways on datasets of the given shapes. */
static void compare_modes(const char *submission, const char *const *shapes)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    make_datasets(dir, shapes);
    graded_t g = grade_mode("grouped", submission, dir, NULL);
    graded_t s = grade_mode("separate", submission, dir, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert_eq(exit_code(&s), 0, "%s", s.run.output);
    expect_same_verdicts(&g, &s);
    release(&g);
    release(&s);
    rm_rf(dir);
}

static const char *dataset_output(const graded_t *g, int i)
{
    char name[32];
    snprintf(name, sizeof name, "dataset %d ", i);
    return str(test_named(g, name), "output");
}

/* The checks come from each dataset's own emulator report in both modes,
 * so they score alike too. */
Test(grouped, reference_scores_as_in_separate_runs_checks_included, .timeout = 300)
{
    compare_modes("reference", four_shapes);
}

Test(grouped, intdiv_grid_fails_the_same_datasets_as_in_separate_runs, .timeout = 300)
{
    const char *shapes[] = {"64x64x64", "100x128x56", "48x16x33", "1x200x1", "32x8x16", NULL};
    compare_modes(SUB "intdiv_grid.cu", shapes);
}

/* Dataset 1 (33 rows) crashes the process; 2 and 3 still run, in a new one. */
Test(grouped, a_crash_fails_only_its_own_dataset, .timeout = 300)
{
    compare_modes(SUB "crash_on_one_shape.cu", four_shapes);
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    make_datasets(dir, four_shapes);
    graded_t g = grade_mode("grouped", SUB "crash_on_one_shape.cu", dir, NULL);
    for (int i = 0; i < 4; i++) {
        char name[32];
        snprintf(name, sizeof name, "dataset %d ", i);
        json_object *t = test_named(&g, name);
        if (i == 1)
            cr_expect(!passed(t) && strstr(str(t, "output"), "Segmentation fault"), "%s",
                      str(t, "output"));
        else
            cr_expect(passed(t), "%s:\n%s", name, str(t, "output"));
    }
    release(&g);
    rm_rf(dir);
}

Test(grouped, host_segfault_fails_every_dataset_on_its_own_crash, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"16x16x16", "33x17x9", "8x8x8", NULL};
    make_datasets(dir, shapes);
    graded_t g = grade_mode("grouped", SUB "host_segfault.cu", dir, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    for (int i = 0; i < 3; i++) {
        const char *out = dataset_output(&g, i);
        cr_expect(strstr(out, "killed by signal 11 (Segmentation fault)"), "%d: %s", i, out);
    }
    cr_assert_float_eq(num(g.json, "score"), 0.0, 1e-9);
    release(&g);
    rm_rf(dir);
}

/* How many lane lists (runs.c) a `--keep` grading left in its scratch
 * folder, which it then removes. */
static int lane_lists_kept(const graded_t *g)
{
    const char *kept = strstr(g->run.output, "build and run files kept in ");
    cr_assert_not_null(kept, "%s", g->run.output);
    char scratch[512], cmd[700];
    sscanf(kept + strlen("build and run files kept in "), "%511s", scratch);
    snprintf(cmd, sizeof cmd, "find %s -name '*.list.lane*' | wc -l", scratch);
    FILE *f = popen(cmd, "r");
    int lanes = -1;
    cr_assert(f && fscanf(f, "%d", &lanes) == 1);
    pclose(f);
    rm_rf(scratch);
    return lanes;
}

/* The number of "signal" end markers (harness_crash.h) in the group's
 * report of a `--keep` grading. */
static int signal_markers_kept(const graded_t *g)
{
    const char *kept = strstr(g->run.output, "build and run files kept in ");
    cr_assert_not_null(kept, "%s", g->run.output);
    char scratch[512], report[600];
    sscanf(kept + strlen("build and run files kept in "), "%511s", scratch);
    snprintf(report, sizeof report, "%s/run-group.report", scratch);
    char *text = read_file(report, NULL, NULL, 0);
    cr_assert_not_null(text, "%s", report);
    int n = 0;
    for (const char *p = text; (p = strstr(p, "\ncugrade-dataset-signal ")); p++)
        n++;
    free(text);
    return n;
}

/* How many dataset tests (public and hidden) a grading has. */
static int dataset_tests(const graded_t *g)
{
    int runs = 0;
    json_object *tests = tests_of(g);
    for (size_t i = 0; i < json_object_array_length(tests); i++)
        runs += strstr(str(json_object_array_get_idx(tests, i), "name"), "dataset ") != NULL;
    return runs;
}

/* host_segfault crashes in its own code on every dataset: the driver goes
 * past each crash (harness_crash.h), so every dataset runs in the one
 * process, each ended by its own "signal" marker, with no lanes, and the
 * verdicts are those of separate runs: killed by signal 11 each. */
Test(grouped, crashes_of_the_students_own_code_end_only_their_datasets_in_one_process,
     .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"16x16x16", "33x17x9", "8x8x8", "9x9x9", "20x10x30", "4x4x4", NULL};
    make_datasets(dir, shapes);
    const char *extra[] = {"--dataset-runs", "grouped", "--datasets", dir, "--jobs", "2",
                           "--keep", "--checks", "none", NULL};
    graded_t g = grade(SUB "host_segfault.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    for (int i = 0; i < 6; i++) {
        const char *out = dataset_output(&g, i);
        cr_expect(strstr(out, "killed by signal 11 (Segmentation fault)"), "%d: %s", i, out);
    }
    int runs = dataset_tests(&g);
    cr_expect(runs >= 6, "%d dataset tests", runs);
    cr_expect_eq(signal_markers_kept(&g), runs, "a signal marker for each of %d datasets", runs);
    cr_expect_eq(lane_lists_kept(&g), 0, "one process: no lanes");
    release(&g);
    const char *sep[] = {"--dataset-runs", "separate", "--datasets", dir, "--checks", "none",
                         NULL};
    graded_t s = grade(SUB "host_segfault.cu", sep);
    graded_t again = grade(SUB "host_segfault.cu", (const char *[]){"--dataset-runs", "grouped",
                           "--datasets", dir, "--checks", "none", NULL});
    expect_same_verdicts(&again, &s);
    release(&s);
    release(&again);
    rm_rf(dir);
}

/* Crashes after kernels have run (the emulator's guard is installed by
 * then, and calls the driver's handler with the signal blocked): each is
 * gone past in the one process, and the datasets between them pass. */
Test(grouped, crash_after_crash_between_kernels_all_in_one_process, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"16x16x16", "33x17x9", "8x8x8", "33x8x8", "9x9x9", "33x16x4", NULL};
    make_datasets(dir, shapes);
    const char *extra[] = {"--dataset-runs", "grouped", "--datasets", dir, "--keep", "--checks",
                           "none", NULL};
    graded_t g = grade(SUB "crash_on_one_shape.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    for (int i = 0; i < 6; i++) {
        const char *out = dataset_output(&g, i);
        if (i % 2)
            cr_expect(strstr(out, "killed by signal 11 (Segmentation fault)"), "%d: %s", i, out);
        else
            cr_expect(passed(test_named(&g, i == 0 ? "dataset 0 " : i == 2 ? "dataset 2 " : "dataset 4 ")),
                      "%d: %s", i, out);
    }
    int crashed = 0;
    json_object *tests = tests_of(&g);
    for (size_t i = 0; i < json_object_array_length(tests); i++)
        crashed += strstr(str(json_object_array_get_idx(tests, i), "output"), "killed by signal 11") != NULL;
    cr_expect_eq(signal_markers_kept(&g), crashed, "every crash gone past: %d crashed", crashed);
    cr_expect_eq(lane_lists_kept(&g), 0);
    release(&g);
    rm_rf(dir);
}

/* A crash the driver does not go past (host_crash_in_libc faults inside
 * libc's memset, not in the student's own code) ends the process; after two
 * such crashes the remaining datasets run one a process, side by side
 * ("lanes", runs_grouped.c): each still gets its own crash, the verdicts are
 * those of separate runs, and the lanes' lists show they ran that way. */
Test(grouped, after_two_crashes_the_rest_runs_in_lanes_with_the_same_verdicts, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"16x16x16", "33x17x9", "8x8x8", "9x9x9", "20x10x30", "4x4x4", NULL};
    make_datasets(dir, shapes);
    const char *extra[] = {"--dataset-runs", "grouped", "--datasets", dir, "--jobs", "2",
                           "--keep", "--checks", "none", NULL};
    graded_t g = grade(SUB "host_crash_in_libc.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    for (int i = 0; i < 6; i++) {
        const char *out = dataset_output(&g, i);
        cr_expect(strstr(out, "killed by signal 11 (Segmentation fault)"), "%d: %s", i, out);
    }
    int lanes = lane_lists_kept(&g);
    int runs = dataset_tests(&g); /* the public datasets and the hidden ones, in one list */
    cr_expect(runs >= 6, "%d dataset tests", runs);
    cr_expect_eq(lanes, runs - 2, "every dataset after the first two in a lane: %d lane lists "
                 "for %d datasets", lanes, runs);
    release(&g);
    const char *sep[] = {"--dataset-runs", "separate", "--datasets", dir, "--checks", "none",
                         NULL};
    graded_t s = grade(SUB "host_crash_in_libc.cu", sep);
    graded_t again = grade(SUB "host_crash_in_libc.cu", (const char *[]){"--dataset-runs", "grouped",
                           "--datasets", dir, "--jobs", "2", "--checks", "none", NULL});
    expect_same_verdicts(&again, &s);
    release(&s);
    release(&again);
    rm_rf(dir);
}

/* intdiv_grid's zero-sized grids are launch errors that leave the context
 * usable: each ends only its dataset, with the message and verdict of a
 * separate run, and every dataset runs in the one process (no crash, so no
 * lanes; the group's report has a "failed" marker for each). */
Test(grouped, a_launch_error_ends_only_its_dataset_in_the_same_process, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"64x64x64", "1x200x1", "32x8x16", "2x1000x3", "48x16x33", NULL};
    make_datasets(dir, shapes);
    const char *extra[] = {"--dataset-runs", "grouped", "--datasets", dir, "--jobs", "2",
                           "--keep", "--checks", "none", NULL};
    graded_t g = grade(SUB "intdiv_grid.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    int cuda_errors = 0;
    for (int i = 0; i < 5; i++)
        cuda_errors += strstr(dataset_output(&g, i), "a CUDA error stopped the program") != NULL;
    cr_expect_eq(cuda_errors, 2, "datasets 1 and 3 (one row) have a zero-sized grid");
    cr_expect(passed(test_named(&g, "dataset 0 ")), "%s", dataset_output(&g, 0));
    const char *kept = strstr(g.run.output, "build and run files kept in ");
    cr_assert_not_null(kept);
    char scratch[512], report[600];
    sscanf(kept + strlen("build and run files kept in "), "%511s", scratch);
    snprintf(report, sizeof report, "%s/run-group.report", scratch);
    char *text = read_file(report, NULL, NULL, 0);
    cr_assert_not_null(text, "%s", report);
    int failed = 0;
    for (const char *p = text; (p = strstr(p, "\ncugrade-dataset-failed ")); p++)
        failed++;
    cr_expect_geq(failed, 2, "%s", text);
    free(text);
    cr_expect_eq(lane_lists_kept(&g), 0, "no crash, so no lanes");
    release(&g);
    rm_rf(dir);
}

/* crash_on_one_shape crashes once: no lanes, the rest in one new process. */
Test(grouped, one_crash_is_not_enough_for_lanes, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    make_datasets(dir, four_shapes);
    const char *extra[] = {"--dataset-runs", "grouped", "--datasets", dir, "--jobs", "2",
                           "--keep", "--checks", "none", NULL};
    graded_t g = grade(SUB "crash_on_one_shape.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    int lanes = lane_lists_kept(&g);
    cr_expect_eq(lanes, 0);
    release(&g);
    rm_rf(dir);
}

/* The endless kernel graded grouped on three datasets in a new folder dir
 * (/tmp/cugrade-ds-XXXXXX, the caller removes it), each with a 2 s limit and
 * the datasets' other keys datasets_more (", \"key\": value" or ""); *took:
 * how long the grading took. */
static graded_t grade_endless(char dir[23], const char *datasets_more, double *took)
{
    strcpy(dir, "/tmp/cugrade-ds-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"16x16x16", "8x8x8", "4x4x4", NULL};
    make_datasets(dir, shapes);
    char rubric[300], text[400];
    snprintf(rubric, sizeof rubric, "%s/rubric.json", dir);
    snprintf(text, sizeof text, "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": "
             "{\"points\": 0}, \"datasets\": {\"points\": 1, \"time_limit_s\": 2%s},"
             " \"hidden\": {\"count\": 0}}}}", datasets_more);
    write_text(rubric, text);
    double t0 = now_seconds();
    graded_t g = grade_mode("grouped", SUB "endless_kernel.cu", dir, rubric);
    *took = now_seconds() - t0;
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    return g;
}

/* With the runner alone (no watchdog) the first group would run until the
 * sum of the limits plus slack (16 s) before anything timed out. */
Test(grouped, endless_kernel_is_stopped_at_each_datasets_limit, .timeout = 300)
{
    char dir[23];
    double took;
    graded_t g = grade_endless(dir, "", &took);
    for (int i = 0; i < 3; i++) {
        const char *out = dataset_output(&g, i);
        cr_expect(strstr(out, "exceeded the time limit of 2 s"), "%d: %s", i, out);
        cr_expect(!strstr(out, "cugrade-dataset-"), "a marker leaked: %s", out);
    }
    cr_expect_lt(took, 14.0, "three 2 s limits took %.1f s", took);
    release(&g);
    rm_rf(dir);
}

/* datasets.timeouts_max (default 2 on a GPU, where a hung kernel stalls the
 * timing queue; given here, on the emulator): once that many datasets ran
 * past their limit, the rest are not run, and say why. */
Test(grouped, after_timeouts_max_time_outs_the_rest_is_not_run, .timeout = 300)
{
    char dir[23];
    double took;
    graded_t g = grade_endless(dir, ", \"timeouts_max\": 1", &took);
    cr_expect(strstr(dataset_output(&g, 0), "exceeded the time limit of 2 s"), "%s",
              dataset_output(&g, 0));
    for (int i = 1; i < 3; i++)
        cr_expect(strstr(dataset_output(&g, i), "was not run: the kernel had already run past "
                                                "its time limit on 1 dataset before it"),
                  "%d: %s", i, dataset_output(&g, i));
    cr_expect_lt(took, 5.0, "one 2 s limit and two datasets not run took %.1f s", took);
    cr_assert_float_eq(num(g.json, "score"), 0.0, 1e-9);
    release(&g);
    rm_rf(dir);
}

/* The checks of a kernel that never ends say why they found nothing: its
 * checked runs were stopped (no report), not "no kernel was launched". */
Test(grouped, the_checks_of_an_endless_kernel_say_no_checked_run_ended, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"8x8x8", "4x4x4", NULL};
    make_datasets(dir, shapes);
    char rubric[300];
    snprintf(rubric, sizeof rubric, "%s/rubric.json", dir);
    write_text(rubric, "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"points\": 0},"
                       " \"datasets\": {\"points\": 1, \"time_limit_s\": 1},"
                       " \"hidden\": {\"count\": 0},"
                       " \"checks\": {\"race-free\": {\"points\": 1}}}}}");
    graded_t g = grade_mode("separate", SUB "endless_kernel.cu", dir, rubric);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *out = str(test_named(&g, "race-free"), "output");
    cr_expect(strstr(out, "not run: no checked run ended"), "%s", out);
    cr_expect(!strstr(out, "no kernel was launched"), "%s", out);
    release(&g);
    rm_rf(dir);
}

/* The submission's budget (5 s) ends the group it is in, and the datasets
 * not begun by then are not run, as with separate runs. */
Test(grouped, the_budget_stops_a_group_and_the_rest_is_not_run, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    make_datasets(dir, four_shapes);
    char rubric[300];
    snprintf(rubric, sizeof rubric, "%s/rubric.json", dir);
    write_text(rubric, "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"points\": 0},"
                       " \"datasets\": {\"points\": 1, \"time_limit_s\": 2},"
                       " \"hidden\": {\"count\": 0}}}}");
    const char *extra[] = {"--dataset-runs", "grouped", "--datasets", dir, "--rubric", rubric,
                           "--budget-s", "5", "--checks", "none", NULL};
    graded_t g = grade(SUB "endless_kernel.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_expect(strstr(dataset_output(&g, 0), "exceeded the time limit of 2 s"), "%s",
              dataset_output(&g, 0));
    int ran_out = 0;
    for (int i = 1; i < 3; i++)
        ran_out += strstr(dataset_output(&g, i), "budget of 5 s for all its datasets ran out") != NULL;
    cr_expect_eq(ran_out, 1, "one dataset is stopped by the budget:\n%s\n%s", dataset_output(&g, 1),
                 dataset_output(&g, 2));
    cr_expect(strstr(dataset_output(&g, 3), "was not run: the submission's time budget of 5 s"),
              "%s", dataset_output(&g, 3));
    cr_assert_float_eq(num(g.json, "score"), 0.0, 1e-9);
    release(&g);
    rm_rf(dir);
}

Test(grouped, each_dataset_shows_its_own_program_output_and_no_marker, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    make_datasets(dir, four_shapes);
    const char *extra[] = {"--dataset-runs", "grouped", "--datasets", dir, "--checks", "none", NULL};
    graded_t g = grade(SUB "prints_shape.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    for (int i = 0; four_shapes[i]; i++) {
        const char *out = dataset_output(&g, i);
        char mine[64];
        for (int k = 0; k < 2; k++) {
            snprintf(mine, sizeof mine, "%s: launch %s\n", k ? "stderr" : "stdout", four_shapes[i]);
            cr_expect(strstr(out, mine), "dataset %d lacks '%s':\n%s", i, mine, out);
        }
        for (int j = 0; four_shapes[j]; j++) {
            snprintf(mine, sizeof mine, "launch %s\n", four_shapes[j]);
            cr_expect(i == j || !strstr(out, mine), "dataset %d shows %s's output:\n%s", i,
                      four_shapes[j], out);
        }
        cr_expect(!strstr(out, "cugrade-dataset-"), "a marker leaked: %s", out);
    }
    release(&g);
    rm_rf(dir);
}

/* 3.7 MB per dataset: the group's output is cut, and every dataset past the
 * cut is run again; each still shows its own first 64 KiB and true size. */
Test(grouped, chatty_datasets_are_cut_as_in_separate_runs, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"20x10x30", "16x16x16", "9x9x9", NULL};
    make_datasets(dir, shapes);
    const char *g_extra[] = {"--dataset-runs", "grouped", "--datasets", dir, "--checks", "none", NULL};
    const char *s_extra[] = {"--dataset-runs", "separate", "--datasets", dir, "--checks", "none", NULL};
    graded_t g = grade(SUB "spam_output.cu", g_extra), s = grade(SUB "spam_output.cu", s_extra);
    for (int i = 0; shapes[i]; i++) {
        const char *go = dataset_output(&g, i), *so = dataset_output(&s, i);
        const char *gcut = strstr(go, "[output cut: "), *scut = strstr(so, "[output cut: ");
        cr_assert(gcut && scut, "%d: no cut notice", i);
        cr_expect_str_eq(gcut, scut);
    }
    expect_same_verdicts(&g, &s);
    release(&g);
    release(&s);
    rm_rf(dir);
}

Test(grouped, a_bad_dataset_runs_value_is_a_usage_error, .timeout = 60)
{
    const char *extra[] = {"--dataset-runs", "sometimes", NULL};
    graded_t g = grade("reference", extra);
    cr_assert_eq(exit_code(&g), 64, "%s", g.run.output);
    cr_assert(strstr(g.run.output, "--dataset-runs"), "%s", g.run.output);
    release(&g);
}

/* ---- the driver's list mode, run directly ---------------------------------- */

typedef struct {
    char dir[64];
    char program[128];
    char list[128];
} driver_t;

/* Builds the lab 3 driver with submission on the emulator, and writes the
 * inputs of two small datasets (4x3 * 3x5, 2x2 * 2x2) into its folder. */
static void build_driver(driver_t *d, const char *submission)
{
    snprintf(d->dir, sizeof d->dir, "/tmp/cugrade-drv-XXXXXX");
    cr_assert_not_null(mkdtemp(d->dir));
    snprintf(d->program, sizeof d->program, "%s/program", d->dir);
    snprintf(d->list, sizeof d->list, "%s/datasets.list", d->dir);
    char *argv[] = {"bin/emucc", "-O2", "-Ilabs/common", "-DCUGRADE_LAUNCH=launchMatrixMultiplyShared",
                    "labs/kinds/matmul/driver.cu",
                    (char *)submission, "-o", d->program, NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 120};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "emucc failed: %s", r.output);
    run_result_free(&r);
    const int shapes[2][3] = {{4, 3, 5}, {2, 2, 2}};
    float ones[64];
    for (int i = 0; i < 64; i++)
        ones[i] = 1.0f;
    for (int k = 0; k < 2; k++) {
        char a[160], b[160];
        snprintf(a, sizeof a, "%s/a%d.bin", d->dir, k);
        snprintf(b, sizeof b, "%s/b%d.bin", d->dir, k);
        cr_assert_eq(matbin_write(a, ones, shapes[k][0], shapes[k][1], -1), 0);
        cr_assert_eq(matbin_write(b, ones, shapes[k][1], shapes[k][2], -1), 0);
    }
}

static run_result_t run_driver(const driver_t *d, const char *arg1, const char *arg2)
{
    char *argv[] = {(char *)d->program, (char *)arg1, (char *)arg2, NULL};
    run_spec_t spec = {.argv = argv, .cwd = d->dir, .timeout_s = 60};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

Test(grouped, list_mode_runs_every_dataset_between_its_markers, .timeout = 300)
{
    driver_t d;
    build_driver(&d, "reference/lab3/matmul.cu");
    char text[1024];
    snprintf(text, sizeof text, "30\tCUGRADE_EMU_DIAG=%s/diag0.txt\t--\t%s/a0.bin\t%s/b0.bin\t%s/c0.bin\n"
                                "30 %s/a1.bin %s/b1.bin %s/c1.bin\n",
             d.dir, d.dir, d.dir, d.dir, d.dir, d.dir, d.dir);
    write_text(d.list, text);
    run_result_t r = run_driver(&d, "--each", d.list);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    const char *b0 = strstr(r.output, "\ncugrade-dataset-begin 0\n");
    const char *e0 = strstr(r.output, "\ncugrade-dataset-end 0 ");
    const char *b1 = strstr(r.output, "\ncugrade-dataset-begin 1\n");
    const char *e1 = strstr(r.output, "\ncugrade-dataset-end 1 ");
    cr_assert(b0 && e0 && b1 && e1 && b0 < e0 && e0 < b1 && b1 < e1, "%s", r.output);
    for (int k = 0; k < 2; k++) {
        char c[160];
        snprintf(c, sizeof c, "%s/c%d.bin", d.dir, k);
        float *data;
        matbin_header_t h;
        cr_assert_eq(matbin_read(c, &data, &h), 0, "dataset %d wrote no output", k);
        cr_expect_eq(h.rows, k ? 2u : 4u);
        cr_expect_eq(h.cols, k ? 2u : 5u);
        cr_expect_float_eq(data[0], k ? 2.0f : 3.0f, 1e-6);
        free(data);
    }
    run_result_free(&r);
    /* the single mode is unchanged: no markers */
    char c[160];
    snprintf(c, sizeof c, "%s/single.bin", d.dir);
    char *argv[] = {d.program, "a0.bin", "b0.bin", c, NULL};
    run_spec_t spec = {.argv = argv, .cwd = d.dir, .timeout_s = 60};
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(!strstr(r.output, "cugrade-dataset"), "%s", r.output);
    cr_assert(is_file(c));
    run_result_free(&r);
    rm_rf(d.dir);
}

Test(grouped, the_watchdog_ends_the_driver_at_the_datasets_limit, .timeout = 300)
{
    driver_t d;
    build_driver(&d, SUB "endless_kernel.cu");
    char text[512];
    snprintf(text, sizeof text, "1 %s/a0.bin %s/b0.bin %s/c0.bin\n1 %s/a1.bin %s/b1.bin %s/c1.bin\n",
             d.dir, d.dir, d.dir, d.dir, d.dir, d.dir);
    write_text(d.list, text);
    run_result_t r = run_driver(&d, "--each", d.list);
    cr_assert(r.exited && r.exit_code == 124, "not the watchdog's status: %s", r.output);
    cr_assert(strstr(r.output, "\ncugrade-dataset-begin 0\n"), "%s", r.output);
    cr_assert(strstr(r.output, "\ncugrade-dataset-timeout 0\n"), "%s", r.output);
    cr_assert(!strstr(r.output, "cugrade-dataset-end"), "%s", r.output);
    cr_assert(!strstr(r.output, "begin 1"), "%s", r.output);
    cr_assert_lt(r.wall_s, 10.0, "a 1 s limit took %.1f s", r.wall_s);
    run_result_free(&r);
    rm_rf(d.dir);
}

Test(grouped, a_malformed_list_exits_2_before_any_dataset, .timeout = 300)
{
    driver_t d;
    build_driver(&d, "reference/lab3/matmul.cu");
    write_text(d.list, "30 a0.bin b0.bin c0.bin\nsoon a1.bin b1.bin c1.bin\n");
    run_result_t r = run_driver(&d, "--each", d.list);
    cr_assert(r.exited && r.exit_code == 2, "%s", r.output);
    cr_assert(strstr(r.output, "datasets.list:2"), "%s", r.output);
    cr_assert(!strstr(r.output, "cugrade-dataset-begin"), "%s", r.output);
    run_result_free(&r);
    rm_rf(d.dir);
}

/* In a batch on a GPU the driver asks for the GPU once its CUDA context is
 * made (run/gpu_turn.h): one shared turn for its datasets, and their clocks
 * start once it has the GPU. An exclusive holder (a timed run) makes it
 * wait; the wait is not counted against the first dataset's limit. */
typedef struct {
    run_spec_t spec;
    run_result_t r;
} driver_run_t;

static void *run_in_thread(void *arg)
{
    driver_run_t *x = arg;
    run_one(&x->spec, &x->r);
    return NULL;
}

Test(grouped, list_mode_asks_one_shared_turn_and_waits_outside_the_datasets_clocks,
     .timeout = 300)
{
    driver_t d;
    build_driver(&d, "reference/lab3/matmul.cu");
    char text[512], queue[160], err[256];
    snprintf(text, sizeof text, "1 %s/a0.bin %s/b0.bin %s/c0.bin\n1 %s/a1.bin %s/b1.bin %s/c1.bin\n",
             d.dir, d.dir, d.dir, d.dir, d.dir, d.dir);
    write_text(d.list, text);
    snprintf(queue, sizeof queue, "%s/queue", d.dir);
    gpu_slot_t timed; /* a timed run holds the GPU for 1.5 s, past each dataset's 1 s limit */
    cr_assert_eq(gpu_queue_enter(queue, 0, GPU_EXCLUSIVE, &timed, err, sizeof err), 0, "%s", err);
    char *argv[] = {d.program, "--each", d.list, NULL};
    driver_run_t x = {.spec = {.argv = argv, .cwd = d.dir, .timeout_s = 60}};
    gpu_turn_stats_t st;
    gpu_turns_t *t = gpu_turns_open(queue, 0, &st);
    cr_assert_not_null(t);
    gpu_turns_give(t, &x.spec);
    pthread_t runner;
    cr_assert_eq(pthread_create(&runner, NULL, run_in_thread, &x), 0);
    usleep(1500 * 1000);
    gpu_queue_leave(&timed);
    pthread_join(runner, NULL);
    gpu_turns_close(t, &x.spec);
    cr_assert(x.r.exited && x.r.exit_code == 0,
              "the driver failed (124: its wait for the GPU counted against a dataset's "
              "limit): %s", x.r.output);
    cr_assert_eq(st.shares, 1, "one shared turn for the list, got %d", st.shares);
    cr_assert(st.waited_s >= 1.0, "it waited %.2f s behind the timed run", st.waited_s);
    run_result_free(&x.r);
    rm_rf(d.dir);
}
