/* test_grouped_crashes.c - end to end: crashes in grouped dataset runs
 * (`cugrade run --dataset-runs grouped`, the lab driver's list mode,
 * labs/common/harness.h) on the CPU emulator: a crash fails only its own
 * dataset, with the verdict of a separate run; a CUDA error that leaves the
 * context usable ends only its dataset; crashes of the student's own code
 * are gone past in the one process (harness_crash.h); after two crashes
 * the process cannot go past, the rest run in lanes.
 * Runs from the repository root. */
#include "grouped_case.h"

/* Dataset i's verdict is a separate run's killed by SIGSEGV. */
static void expect_segfault(const graded_t *g, int i)
{
    const char *out = dataset_output(g, i);
    cr_expect(strstr(out, "killed by signal 11 (Segmentation fault)"), "%d: %s", i, out);
}

/* Dataset 1 (33 rows) crashes in the student's own code; 2 and 3 still run
 * and pass (in the same process: harness_crash.h). */
Test(grouped, a_crash_fails_only_its_own_dataset, .timeout = 300)
{
    compare_modes(SUB "crash_on_one_shape.cu", four_shapes);
    char dir[23];
    temp_datasets(dir, four_shapes);
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
    char dir[23];
    const char *shapes[] = {"16x16x16", "33x17x9", "8x8x8", NULL};
    temp_datasets(dir, shapes);
    graded_t g = grade_mode("grouped", SUB "host_segfault.cu", dir, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    for (int i = 0; i < 3; i++)
        expect_segfault(&g, i);
    cr_assert_float_eq(num(g.json, "score"), 0.0, 1e-9);
    release(&g);
    rm_rf(dir);
}

/* The scratch folder a `--keep` grading left (named in its output). */
static void kept_scratch(const graded_t *g, char scratch[512])
{
    const char *kept = strstr(g->run.output, "build and run files kept in ");
    cr_assert_not_null(kept, "%s", g->run.output);
    sscanf(kept + strlen("build and run files kept in "), "%511s", scratch);
}

/* How many lane lists (runs.c) a `--keep` grading left in its scratch
 * folder, which it then removes. */
static int lane_lists_kept(const graded_t *g)
{
    char scratch[512], cmd[700];
    kept_scratch(g, scratch);
    snprintf(cmd, sizeof cmd, "find %s -name '*.list.lane*' | wc -l", scratch);
    FILE *f = popen(cmd, "r");
    int lanes = -1;
    cr_assert(f && fscanf(f, "%d", &lanes) == 1);
    pclose(f);
    rm_rf(scratch);
    return lanes;
}

/* The number of end markers of this kind ("signal": harness_crash.h,
 * "failed": a CUDA error) in the group's report of a `--keep` grading. */
static int markers_kept(const graded_t *g, const char *kind)
{
    char scratch[512], report[600], marker[64];
    kept_scratch(g, scratch);
    snprintf(report, sizeof report, "%s/run-group.report", scratch);
    snprintf(marker, sizeof marker, "\ncugrade-dataset-%s ", kind);
    char *text = read_file(report, NULL, NULL, 0);
    cr_assert_not_null(text, "%s", report);
    int n = 0;
    for (const char *p = text; (p = strstr(p, marker)); p++)
        n++;
    free(text);
    return n;
}

/* How many of a grading's tests have text in their field ("name", "output"). */
static int tests_with(const graded_t *g, const char *field, const char *text)
{
    int n = 0;
    json_object *tests = tests_of(g);
    for (size_t i = 0; i < json_object_array_length(tests); i++)
        n += strstr(str(json_object_array_get_idx(tests, i), field), text) != NULL;
    return n;
}

/* submission graded grouped (--jobs 2 --keep --checks none) on datasets of
 * these shapes, made in dir (/tmp/cugrade-ds-XXXXXX; the caller removes it);
 * it must exit 0. */
static graded_t grade_kept(const char *submission, const char *const *shapes, char dir[23])
{
    temp_datasets(dir, shapes);
    const char *extra[] = {"--dataset-runs", "grouped", "--datasets", dir, "--jobs", "2",
                           "--keep", "--checks", "none", NULL};
    graded_t g = grade(submission, extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    return g;
}

/* submission graded grouped and separately on the datasets in dir (--checks
 * none): the same verdicts. */
static void expect_grouped_as_separate(const char *submission, const char *dir)
{
    const char *sep[] = {"--dataset-runs", "separate", "--datasets", dir, "--checks", "none",
                         NULL};
    const char *grouped[] = {"--dataset-runs", "grouped", "--datasets", dir, "--jobs", "2",
                             "--checks", "none", NULL};
    graded_t s = grade(submission, sep);
    graded_t g = grade(submission, grouped);
    expect_same_verdicts(&g, &s);
    release(&s);
    release(&g);
}

/* host_segfault crashes in its own code on every dataset: the driver goes
 * past each crash (harness_crash.h), so every dataset runs in the one
 * process, each ended by its own "signal" marker, with no lanes, and the
 * verdicts are those of separate runs: killed by signal 11 each. */
Test(grouped, crashes_of_the_students_own_code_end_only_their_datasets_in_one_process,
     .timeout = 300)
{
    const char *shapes[] = {"16x16x16", "33x17x9", "8x8x8", "9x9x9", "20x10x30", "4x4x4", NULL};
    char dir[23];
    graded_t g = grade_kept(SUB "host_segfault.cu", shapes, dir);
    for (int i = 0; i < 6; i++)
        expect_segfault(&g, i);
    int runs = tests_with(&g, "name", "dataset ");
    cr_expect(runs >= 6, "%d dataset tests", runs);
    cr_expect_eq(markers_kept(&g, "signal"), runs, "a signal marker for each of %d datasets", runs);
    cr_expect_eq(lane_lists_kept(&g), 0, "one process: no lanes");
    release(&g);
    expect_grouped_as_separate(SUB "host_segfault.cu", dir);
    rm_rf(dir);
}

/* Crashes after kernels have run (the emulator's guard is installed by
 * then, and calls the driver's handler with the signal blocked): each is
 * gone past in the one process, and the datasets between them pass. */
Test(grouped, crash_after_crash_between_kernels_all_in_one_process, .timeout = 300)
{
    const char *shapes[] = {"16x16x16", "33x17x9", "8x8x8", "33x8x8", "9x9x9", "33x16x4", NULL};
    char dir[23];
    graded_t g = grade_kept(SUB "crash_on_one_shape.cu", shapes, dir);
    for (int i = 0; i < 6; i++) {
        if (i % 2)
            expect_segfault(&g, i);
        else
            cr_expect(passed(test_named(&g, i == 0 ? "dataset 0 " : i == 2 ? "dataset 2 " : "dataset 4 ")),
                      "%d: %s", i, dataset_output(&g, i));
    }
    int crashed = tests_with(&g, "output", "killed by signal 11");
    cr_expect_eq(markers_kept(&g, "signal"), crashed, "every crash gone past: %d crashed", crashed);
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
    const char *shapes[] = {"16x16x16", "33x17x9", "8x8x8", "9x9x9", "20x10x30", "4x4x4", NULL};
    char dir[23];
    graded_t g = grade_kept(SUB "host_crash_in_libc.cu", shapes, dir);
    for (int i = 0; i < 6; i++)
        expect_segfault(&g, i);
    int lanes = lane_lists_kept(&g);
    int runs = tests_with(&g, "name", "dataset "); /* the public datasets and the hidden ones */
    cr_expect(runs >= 6, "%d dataset tests", runs);
    cr_expect_eq(lanes, runs - 2, "every dataset after the first two in a lane: %d lane lists "
                 "for %d datasets", lanes, runs);
    release(&g);
    expect_grouped_as_separate(SUB "host_crash_in_libc.cu", dir);
    rm_rf(dir);
}

/* intdiv_grid's zero-sized grids are launch errors that leave the context
 * usable: each ends only its dataset, with the message and verdict of a
 * separate run, and every dataset runs in the one process (no crash, so no
 * lanes; the group's report has a "failed" marker for each). */
Test(grouped, a_launch_error_ends_only_its_dataset_in_the_same_process, .timeout = 300)
{
    const char *shapes[] = {"64x64x64", "1x200x1", "32x8x16", "2x1000x3", "48x16x33", NULL};
    char dir[23];
    graded_t g = grade_kept(SUB "intdiv_grid.cu", shapes, dir);
    int cuda_errors = 0;
    for (int i = 0; i < 5; i++)
        cuda_errors += strstr(dataset_output(&g, i), "a CUDA error stopped the program") != NULL;
    cr_expect_eq(cuda_errors, 2, "datasets 1 and 3 (one row) have a zero-sized grid");
    cr_expect(passed(test_named(&g, "dataset 0 ")), "%s", dataset_output(&g, 0));
    int failed = markers_kept(&g, "failed");
    cr_expect_geq(failed, 2, "%d failed markers", failed);
    cr_expect_eq(lane_lists_kept(&g), 0, "no crash, so no lanes");
    release(&g);
    rm_rf(dir);
}

/* crash_on_one_shape crashes once, in its own code: gone past, no lanes. */
Test(grouped, one_crash_is_not_enough_for_lanes, .timeout = 300)
{
    char dir[23];
    graded_t g = grade_kept(SUB "crash_on_one_shape.cu", four_shapes, dir);
    int lanes = lane_lists_kept(&g);
    cr_expect_eq(lanes, 0);
    release(&g);
    rm_rf(dir);
}
