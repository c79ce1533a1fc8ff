/* test_report.c - the terminal report fits on one screen: datasets that fail
 * the same way are one block (their list, the first one's hint, mismatches
 * and error map), the passing ones one line, and every line fits 80
 * columns; --verbose lists every dataset; results.json keeps every
 * dataset's full detail and how it failed. Graded on the CPU emulator with
 * the checks on, as `make grade` does. */
#include "e2e.h"

/* Lines of the report and the widest one, in columns (UTF-8 characters). */
static void measure(const char *text, int *lines, int *widest)
{
    *lines = *widest = 0;
    int cols = 0;
    for (const char *s = text; *s; s++) {
        if (*s == '\n') {
            (*lines)++;
            if (cols > *widest)
                *widest = cols;
            cols = 0;
        } else if (((unsigned char)*s & 0xC0) != 0x80) {
            cols++;
        }
    }
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *s = text; (s = strstr(s, what)); s += strlen(what))
        n++;
    return n;
}

/* Grades SUBMISSION and checks the report's length and width. */
static void assert_fits(const char *submission, int max_lines)
{
    graded_t g = grade(submission, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    int lines, widest;
    measure(g.run.output, &lines, &widest);
    cr_assert_leq(lines, max_lines, "%s: %d lines (at most %d):\n%s", submission, lines, max_lines,
                  g.run.output);
    cr_assert_leq(widest, 80, "%s: a line of %d columns:\n%s", submission, widest, g.run.output);
    cr_assert_eq(count(g.run.output, "Score: "), 1);
    release(&g);
}

Test(report, the_untouched_stub_is_one_block_in_25_lines, .timeout = 300)
{
    graded_t g = grade("student", NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *out = g.run.output;
    int lines, widest;
    measure(out, &lines, &widest);
    cr_assert_leq(lines, 25, "%d lines:\n%s", lines, out);
    cr_assert_leq(widest, 80, "%s", out);
    cr_assert(strstr(out, "FAIL      0/90   datasets 0\xE2\x80\x93" "19 and hidden 1\xE2\x80\x93" "8 (all "
                          "28)\n"), "%s", out);
    cr_assert_eq(count(out, "hint: output never written"), 1, "one hint for the 28 datasets:\n%s", out);
    cr_assert_eq(count(out, "first mismatches"), 1, "%s", out);
    cr_assert(strstr(out, "dataset 0 (64x64x64), the first of them:"), "%s", out);
    /* the five checks that were not run share one line and one reason */
    cr_assert(strstr(out, "FAIL      0/20   race-free, barriers-uniform, memory-safe,"), "%s", out);
    cr_assert_eq(count(out, "not run: no kernel was launched"), 1, "%s", out);
    release(&g);
}

Test(report, failures_are_grouped_by_cause_and_passes_are_one_line, .timeout = 300)
{
    graded_t g = grade(SUB "intdiv_grid.cu", NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *out = g.run.output;
    /* the partial tiles never written: 9 datasets and 3 hidden ones, one hint and one error map */
    cr_assert(strstr(out, "FAIL      0/39   datasets 4, 6, 7, 10\xE2\x80\x93" "14, 19 and hidden 4, 5, 7 "
                          "(12 datasets)\n"), "%s", out);
    cr_assert_eq(count(out, "it is too small (a size"), 1, "%s", out);
    /* told from the launch the grader saw (issue 40, item 3) */
    cr_assert(strstr(out, "your grid (4 x 6 blocks of 16 x 16 threads) reaches\n             64 columns and 96 rows "
                          "of C (100 x 64)"), "%s", out);
    cr_assert_eq(count(out, "error map of the"), 1, "%s", out);
    /* a grid with a 0 dimension: a CUDA error, another block (hidden: a side under 16) */
    cr_assert(strstr(out, "FAIL      0/23   datasets 8, 17, 18 and hidden 1\xE2\x80\x93" "3, 6, 8 (8 "
                          "datasets)\n"), "%s", out);
    cr_assert(strstr(out, "PASS     28/28   datasets 0\xE2\x80\x93" "3, 5, 9, 15, 16 (8 datasets)\n"),
              "%s", out);
    cr_assert(strstr(out, "PASS     20/20   race-free, barriers-uniform, memory-safe,"), "%s", out);
    release(&g);
}

Test(report, verbose_lists_every_dataset, .timeout = 300)
{
    const char *extra[] = {"--verbose", NULL};
    graded_t g = grade("student", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert_eq(count(g.run.output, "hint: output never written"), 28, "%s", g.run.output);
    for (int i = 0; i < 20; i++) {
        char name[32];
        snprintf(name, sizeof name, "0/3.5  dataset %d (", i);
        cr_assert(strstr(g.run.output, name), "no line for dataset %d:\n%s", i, g.run.output);
    }
    for (int k = 1; k <= 8; k++) {
        char name[40];
        snprintf(name, sizeof name, "0/2.5  hidden dataset %d (", k);
        cr_assert(strstr(g.run.output, name), "no line for hidden dataset %d:\n%s", k,
                  g.run.output);
    }
    release(&g);
}

Test(report, results_json_keeps_every_dataset_and_its_failure, .timeout = 300)
{
    graded_t g = grade(SUB "transposed_b.cu", NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *tests = tests_of(&g);
    int datasets = 0, failed = 0;
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        json_object *t = json_object_array_get_idx(tests, i);
        if (strncmp(str(t, "name"), "dataset ", 8) != 0)
            continue;
        datasets++;
        if (passed(t))
            continue;
        failed++;
        /* every failing dataset keeps its own summary, hint and mismatches */
        cr_assert(strstr(str(t, "output"), "FAILED: "), "%s", str(t, "output"));
        cr_assert(strstr(str(t, "output"), "first mismatches"), "%s", str(t, "output"));
        json_object *extra;
        cr_assert(json_object_object_get_ex(t, "extra_data", &extra), "%s", str(t, "name"));
        /* one 16x16 tile: a tiled kernel reading its B tile transposed writes the same */
        cr_assert_str_eq(str(extra, "failure"),
                         strstr(str(t, "name"), "(16x16x16)") ? "consistent:b-transposed,tile-b-transposed"
                                                              : "hypothesis:b-transposed",
                         "%s", str(t, "name"));
    }
    cr_assert_eq(datasets, 20);
    cr_assert_eq(failed, 17);
    /* the terminal names it once, for one block: dataset 15, whose output
     * fits another mistake too, joins the block of the datasets that show it
     * is this one, and the block says so */
    cr_assert_eq(count(g.run.output, "every element equals A\xC2\xB7" "B\xE1\xB5\x80"), 1, "%s",
                 g.run.output);
    cr_assert(strstr(g.run.output, "of them fit another mistake too; the rest show it is this one)"), "%s",
              g.run.output);
    release(&g);
}

/* Every buggy submission's report: at most 60 lines at 80 columns. */
#define FITS(name, file)                                                                           \
    Test(report_fits, name, .timeout = 300) { assert_fits(SUB file, 60); }

FITS(barrier_in_if, "barrier_in_if.cu")
FITS(blocks_swapped, "blocks_swapped.cu")
FITS(compile_error, "compile_error.cu")
FITS(crash_on_one_shape, "crash_on_one_shape.cu")
FITS(early_return, "early_return.cu")
FITS(host_segfault, "host_segfault.cu")
FITS(intdiv_grid, "intdiv_grid.cu")
FITS(intdiv_phases, "intdiv_phases.cu")
FITS(missing_first_barrier, "missing_first_barrier.cu")
FITS(missing_second_barrier, "missing_second_barrier.cu")
FITS(phase_totals_kept, "phase_totals_kept.cu")
FITS(printf_flood, "printf_flood.cu")
FITS(spam_output, "spam_output.cu")
FITS(store_transposed, "store_transposed.cu")
FITS(sum_reset_each_phase, "sum_reset_each_phase.cu")
FITS(tile_b_transposed, "tile_b_transposed.cu")
FITS(transposed_a, "transposed_a.cu")
FITS(transposed_b, "transposed_b.cu")
FITS(unguarded_loads, "unguarded_loads.cu")
FITS(unguarded_store, "unguarded_store.cu")
FITS(uninit_shared, "uninit_shared.cu")
FITS(untiled, "untiled.cu")

Test(report, a_compile_error_leaves_one_line_for_the_tests_not_run, .timeout = 300)
{
    graded_t g = grade(SUB "compile_error.cu", NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *out = g.run.output;
    cr_assert(strstr(out, "FAIL      0/0    compiles\n"), "%s", out);
    cr_assert(strstr(out, "FAIL      0/110  the other 34 tests: not run, the submission does "
                          "not compile\n"), "%s", out);
    cr_assert_null(strstr(out, "dataset 0 ("), "%s", out);
    cr_assert_null(strstr(out, "PASS"), "nothing passes when nothing ran:\n%s", out);
    release(&g);
}
