/* test_grouped_crashes.c - end to end: crashes in grouped dataset runs
 * (`cugrade run --dataset-runs grouped`, the lab driver's list mode,
 * labs/common/harness.h) on the CPU emulator: a crash fails only its own
 * dataset, with the verdict of a separate run; a CUDA error that leaves the
 * context usable ends only its dataset; crashes of the student's own code
 * are gone past in the one process (harness_crash.h); after two crashes
 * the process cannot go past, the rest run in lanes.
 * Runs from the repository root. */
#include "grouped_case.h"

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
