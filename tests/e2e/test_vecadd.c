/* test_vecadd.c - end to end, lab vecadd (issue 41): the first lab of the
 * array kind, declared by lab.json alone (its arrays, its signature, its
 * tolerance) with its own generator (labs/vecadd/gen.c) making the public
 * and hidden datasets. The reference gets full marks on the emulator and
 * on the executor, the stub nothing, a grid rounded down is named with the
 * integer ceiling division that fixes it, and a missing bounds check fails
 * memory-safe with its line. Runs from the repository root. */
#include "e2e.h"

#define FULL "Score: 75 / 75"



Test(vecadd, the_reference_gets_full_marks_on_the_emulator_and_the_executor, .timeout = 300)
{
    const char *backends[] = {"emu", "vgpu"};
    for (int b = 0; b < 2; b++) {
        graded_t g = grade_lab_on(backends[b], "vecadd", "reference/vecadd/vecadd.cu", NULL);
        cr_assert(strstr(g.run.output, FULL), "%s: %s", backends[b], g.run.output);
        cr_assert(strstr(g.run.output, "9 of 9 datasets and 8 of 8 hidden ones passed"), "%s", g.run.output);
        cr_assert_str_eq(str(test_named(&g, "dataset 7 "), "name"), "dataset 7 (n=65537)");
        release(&g);
    }
}

Test(vecadd, the_stub_gets_nothing, .timeout = 300)
{
    graded_t g = grade_lab_on("vgpu", "vecadd", "student/vecadd/vecadd.cu", NULL);
    cr_assert(strstr(g.run.output, "Score: 0 / 75"), "%s", g.run.output);
    cr_assert(strstr(str(test_named(&g, "dataset 4 "), "output"), "none of the 1000 elements was written"), "%s",
              str(test_named(&g, "dataset 4 "), "output"));
    release(&g);
}

Test(vecadd, a_grid_rounded_down_is_named_with_its_fix, .timeout = 300)
{
    graded_t g = grade_lab_on("vgpu", "vecadd", "tests/submissions/vecadd/grid_rounded_down.cu", NULL);
    json_object *d3 = test_named(&g, "dataset 3 ");
    const char *out = str(d3, "output");
    cr_assert_str_eq(failure_key(d3), "grid-too-small", "%s", out);
    cr_assert(strstr(out, "your grid has 1 blocks of 256 threads, 256 threads for the 257 elements of C: the last 1 "
                          "were never written"), "%s", out);
    cr_assert(strstr(out, "(n + 256 - 1) / 256 blocks"), "%s", out);
    json_object *d0 = test_named(&g, "dataset 0 ");
    cr_assert(strstr(str(d0, "output"), "likely cause: a grid of 0 blocks"), "%s", str(d0, "output"));
    cr_assert(passed(test_named(&g, "dataset 2 ")), "n = 256: one whole block");
    release(&g);
}

Test(vecadd, a_missing_bounds_check_fails_memory_safe_with_its_line, .timeout = 300)
{
    graded_t g = grade_lab_on("vgpu", "vecadd", "tests/submissions/vecadd/no_bounds_check.cu", NULL);
    cr_assert(strstr(g.run.output, "Score: 65 / 75"), "%s", g.run.output);
    json_object *t = test_named(&g, "memory-safe");
    cr_assert(!passed(t), "%s", str(t, "output"));
    cr_assert(strstr(str(t, "output"), " in vectorAdd at no_bounds_check.cu:11: thread (1,0,0) of block (0,0,0)"),
              "%s", str(t, "output")); /* n = 1: the first thread past it (one finding a line) */
    release(&g);
}
