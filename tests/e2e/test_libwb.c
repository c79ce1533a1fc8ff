/* test_libwb.c - end to end: libwb-style programs (labs/lab3-wb, a whole
 * template.cu with main() calling wbArg_read, wbImport, wbTime, wbLog,
 * wbSolution) graded unchanged on the emulator, with the same tests, JSON and
 * diagnostics as kernel-style submissions, on the project's datasets and on a
 * libwb folder with course-file quirks ("4." numbers, 3x3 times 3x4). */
#include "e2e.h"

#define WB "tests/submissions/lab3-wb/"

static char datasets[64];

static void make_sets(void)
{
    snprintf(datasets, sizeof datasets, "/tmp/cugrade-wbds-XXXXXX");
    cr_assert_not_null(mkdtemp(datasets));
    /* uneven sizes, so a grid made with integer division misses elements */
    const char *shapes[] = {"16x16x16", "40x7x33", "33x17x9", NULL};
    make_datasets(datasets, shapes);
}

static void remove_sets(void) { rm_rf(datasets); }

TestSuite(libwb, .init = make_sets, .fini = remove_sets, .timeout = 300);

static graded_t grade_wb(const char *file, const char *checks)
{
    const char *extra[] = {"--lab", "lab3-wb", "--datasets", datasets, "--checks", checks, NULL};
    graded_t g = grade(file, extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert_not_null(g.json);
    return g;
}

Test(libwb, the_reference_program_passes_with_the_kernel_labs_tests)
{
    graded_t g = grade_wb("reference/lab3-wb/template.cu", "all");
    cr_assert_eq(num(g.json, "score"), 3 * 3.5 + 8 * 2.5 + 5 * 4, "%s", g.run.output);
    json_object *extra;
    cr_assert(json_object_object_get_ex(g.json, "extra_data", &extra));
    cr_assert_eq(num(extra, "hidden_passed"), 8, "the hidden datasets, as a libwb program too");
    const char *names[] = {"compiles", "dataset 0 (16x16x16)", "dataset 1 (40x7x33)",
                           "race-free", "barriers-uniform", "memory-safe", "uses-shared-memory",
                           "traffic-reduced", NULL};
    for (int i = 0; names[i]; i++) {
        json_object *t = test_named(&g, names[i]);
        cr_assert_not_null(t, "no test %s", names[i]);
        cr_assert(passed(t), "%s: %s", names[i], str(t, "output"));
    }
    /* wbTime_start/stop are reported with libwb's kinds */
    const char *out = str(test_named(&g, "dataset 1"), "output");
    cr_assert(strstr(out, "wbTime timers"), "%s", out);
    cr_assert(strstr(out, "Compute ") && strstr(out, "Performing CUDA computation"), "%s", out);
    release(&g);
}

Test(libwb, a_grid_made_by_integer_division_gets_the_same_diagnosis)
{
    graded_t g = grade_wb(WB "intdiv_grid.cu", "none");
    json_object *t = test_named(&g, "dataset 1 (40x7x33)");
    cr_assert(!passed(t));
    const char *out = str(t, "output");
    cr_assert(strstr(out, "never written (every written one is right)"), "%s", out);
    cr_assert(strstr(out, "the grid is too small; use ceiling division"), "%s", out);
    json_object *extra, *map;
    cr_assert(json_object_object_get_ex(t, "extra_data", &extra) &&
              json_object_object_get_ex(extra, "error_map", &map), "no error map");
    cr_assert(passed(test_named(&g, "dataset 0 (16x16x16)")), "16x16 needs no partial tile");
    release(&g);
}

Test(libwb, a_missing_barrier_fails_race_free)
{
    graded_t g = grade_wb(WB "missing_barrier.cu", "all");
    json_object *t = test_named(&g, "race-free");
    cr_assert(!passed(t));
    cr_assert(strstr(str(t, "output"), "missing_barrier.cu:"), "%s", str(t, "output"));
    release(&g);
}

/* Opening the expected output is refused at build time (the program's own
 * object may not call fopen); behind that check, the run cannot see it. */
Test(libwb, the_expected_output_cannot_be_read_by_the_program)
{
    graded_t g = grade_wb(WB "reads_expected.cu", "none");
    json_object *t = test_named(&g, "compiles");
    cr_assert(!passed(t), "%s", str(t, "output"));
    cr_assert(strstr(str(t, "output"), "reads_expected.cu:"), "%s", str(t, "output"));
    cr_assert(strstr(str(t, "output"), "calls __isoc99_fscanf, fclose, fopen"), "%s",
              str(t, "output"));
    release(&g);

    const char *extra[] = {"--lab", "lab3-wb", "--datasets", datasets, "--checks", "none", NULL};
    char *env[] = {"CUGRADE_OBJCHECK=off", NULL};
    g = grade_on("emu", WB "reads_expected.cu", extra, env);
    t = test_named(&g, "dataset 0 (16x16x16)");
    cr_assert(!passed(t), "the cheat worked: %s", str(t, "output"));
    cr_assert(strstr(str(t, "output"), "is not available here"), "%s", str(t, "output"));
    release(&g);
}

Test(libwb, a_program_that_never_calls_wbSolution_is_told_so)
{
    graded_t g = grade_wb(WB "no_solution.cu", "none");
    const char *out = str(test_named(&g, "dataset 0"), "output");
    cr_assert(strstr(out, "FAILED: the program wrote no solution (wbSolution was not called"), "%s",
              out);
    release(&g);
}

Test(libwb, the_stub_compiles_and_scores_nothing)
{
    graded_t g = grade_wb("student/lab3-wb/template.cu", "none");
    cr_assert(passed(test_named(&g, "compiles")), "%s", g.run.output);
    cr_assert_eq(num(g.json, "score"), 0);
    cr_assert(strstr(str(test_named(&g, "dataset 0"), "output"), "output is 0x0, expected 16x16"));
    release(&g);
}

/* A libwb dataset folder as courses have them: the one dataset in the folder
 * itself, numbers written "4." and "5.", a 3x3 times 3x4 product. */
Test(libwb, a_course_dataset_folder_with_libwb_quirks)
{
    char dir[128], cmd[1024];
    snprintf(dir, sizeof dir, "%s/course", datasets);
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s && cp tests/fixtures/libwb/a33.raw %s/input0.raw && "
             "cp tests/fixtures/libwb/b34.raw %s/input1.raw && "
             "cp tests/fixtures/libwb/c34.raw %s/output.raw", dir, dir, dir, dir);
    cr_assert_eq(system(cmd), 0);
    const char *extra[] = {"--lab", "lab3-wb", "--datasets", dir, "--checks", "none", NULL};
    graded_t g = grade("reference/lab3-wb/template.cu", extra);
    json_object *t = test_named(&g, "dataset course (3x3x4)");
    cr_assert_not_null(t, "%s", g.run.output);
    cr_assert(passed(t), "%s", str(t, "output"));
    release(&g);
    /* the kernel-style lab grades the same folder */
    const char *kextra[] = {"--datasets", dir, "--checks", "none", NULL};
    graded_t k = grade("reference/lab3/matmul.cu", kextra);
    cr_assert(passed(test_named(&k, "dataset course (3x3x4)")), "%s", k.run.output);
    release(&k);
}

/* A libwb program's datasets run each in its own process; one at a time
 * (--jobs 1, as on a GPU), the ones after datasets.timeouts_max time-outs
 * are not run, and say why. */
Test(libwb, one_at_a_time_the_datasets_after_timeouts_max_time_outs_are_not_run)
{
    char rubric[128];
    snprintf(rubric, sizeof rubric, "%s/rubric.json", datasets);
    write_text(rubric, "{\"version\": 1, \"labs\": {\"lab3-wb\": {\"compile\": {\"points\": 0},"
                       " \"datasets\": {\"points\": 1, \"time_limit_s\": 2, \"timeouts_max\": 1},"
                       " \"hidden\": {\"count\": 0}}}}");
    const char *extra[] = {"--lab", "lab3-wb", "--datasets", datasets, "--rubric", rubric,
                           "--checks", "none", "--jobs", "1", NULL};
    double t0 = now_seconds();
    graded_t g = grade(WB "endless_kernel.cu", extra);
    double took = now_seconds() - t0;
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *first = str(test_named(&g, "dataset 0"), "output");
    cr_expect(strstr(first, "exceeded the time limit of 2 s"), "%s", first);
    for (int i = 1; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "dataset %d", i);
        const char *out = str(test_named(&g, name), "output");
        cr_expect(strstr(out, "was not run: the kernel had already run past its time limit on "
                              "1 dataset before it"), "%s: %s", name, out);
    }
    cr_expect_lt(took, 6.0, "one 2 s limit and two datasets not run took %.1f s", took);
    cr_assert_float_eq(num(g.json, "score"), 0.0, 1e-9);
    release(&g);
}

/* A libwb program whose host C is sized M x K, into which it copies the M x
 * N product (issue 40, item 5): the copy is named where it happens, with
 * both sizes and the line of the call (the program's host line tables,
 * addr2line in the sandbox), as the likely cause of the crash that follows in free, and
 * memory-safe fails, also on a dataset it survives; on the executor, whose
 * runtime in the program sees every copy and the host arrays' sizes. */
Test(libwb, a_copy_back_into_a_host_array_too_small_is_named_with_its_sizes, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-wb-overflow-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char d0[PATH_MAX], d1[PATH_MAX];
    snprintf(d0, sizeof d0, "%s/0", dir);
    snprintf(d1, sizeof d1, "%s/1", dir);
    make_dataset("lab3-wb", "128x64x256", d0);  /* C: 131072 bytes into 32768 */
    make_dataset("lab3-wb", "64x128x100", d1);  /* K > N: it fits */
    const char *extra[] = {"--lab", "lab3-wb", "--datasets", dir, NULL};
    graded_t g = grade_on("vgpu", "tests/hints/lab3-wb/wb_hostc_sized_mk.cu", extra, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *out = str(test_named(&g, "dataset 0 "), "output");
    cr_assert(strstr(out, "likely cause: a cudaMemcpy past the end of a host array (below)"), "%s", out);
    cr_assert(strstr(out, "executor error (host-copy-overflow): cudaMemcpy at wb_hostc_sized_mk.cu:115 copied "
                          "131072 bytes from the device into a host array of 32768 bytes"), "%s", out);
    cr_assert(strstr(out, "98304 bytes past its end"), "%s", out);
    cr_assert(passed(test_named(&g, "dataset 1 ")), "%s", str(test_named(&g, "dataset 1 "), "output"));
    cr_assert(!passed(test_named(&g, "memory-safe")), "%s", str(test_named(&g, "memory-safe"), "output"));
    release(&g);
    rm_rf(dir);
}
