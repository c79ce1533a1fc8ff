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

/* On a GPU (here the pretend one, tests/fixtures/replay_on_executor, whose
 * times are FAKE_GPU_MS and FAKE_GPU_REF_MS) an array lab is timed by
 * replaying the executor's records of its timing shapes, in GB/s of the
 * shape's compulsory traffic: A, B and C once, 12 bytes an element. Its
 * library baseline (lab.json array.baseline) is quoted beside, timed by the
 * library timer (here the pretend one, tests/fixtures/library_timer), never
 * scored; a wrong library output is said and not quoted. */
Test(vecadd, on_a_gpu_it_is_timed_by_replay_in_gb_per_s_of_its_arrays, .timeout = 300)
{
    static const char rubric_text[] =
        "{ \"version\": 1, \"labs\": { \"vecadd\": {\n"
        "  \"datasets\": { \"points\": 5 }, \"hidden\": { \"count\": 8, \"points\": 2.5 },\n"
        "  \"checks\": { \"memory-safe\": { \"points\": 10 } },\n"
        "  \"performance\": { \"points\": 10, \"shapes\": [\"100000\"], \"zero_at\": 0.5, \"full_at\": 0.9,\n"
        "                   \"time_cap_s\": 10 } } } }\n";
    char rubric[] = "/tmp/cugrade-rubric-XXXXXX";
    int fd = mkstemp(rubric);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, rubric_text, sizeof rubric_text - 1), (ssize_t)sizeof rubric_text - 1);
    close(fd);
    char root[PATH_MAX], runner[PATH_MAX + 64], timer[PATH_MAX + 64];
    cr_assert_not_null(getcwd(root, sizeof root));
    snprintf(runner, sizeof runner, "CUGRADE_REPLAY=%s/tests/fixtures/replay_on_executor", root);
    snprintf(timer, sizeof timer, "CUGRADE_LIBRARY_TIMER=%s/tests/fixtures/library_timer", root);
    char *env[] = {runner, timer, "FAKE_GPU_MS=0.0075", "FAKE_GPU_REF_MS=0.006", "FAKE_LIBRARY_GBS=320", NULL};
    const char *extra[] = {"--lab", "vecadd", "--rubric", rubric, NULL};
    graded_t g = grade_on("vgpu", "reference/vecadd/vecadd.cu", extra, env);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *perf = test_named(&g, "performance");
    cr_assert(strstr(str(perf, "output"), "100000: 160 GB/s (first quartile of 15"), "%s", str(perf, "output"));
    cr_assert(strstr(str(perf, "output"), "0.80x the reference (200 GB/s), 0.50x the library, CCCL thrust::transform "
                                          "(320 GB/s)"), "%s", str(perf, "output"));
    cr_assert_float_eq(num(perf, "score"), 7.5, 1e-9, "%s", str(perf, "output"));
    cr_assert(strstr(g.run.output, "Score: 82.5 / 85"), "%s", g.run.output);
    release(&g);
    char *wrong_env[] = {runner, timer, "FAKE_GPU_MS=0.0075", "FAKE_GPU_REF_MS=0.006", "FAKE_LIBRARY_WRONG=3", NULL};
    g = grade_on("vgpu", "reference/vecadd/vecadd.cu", extra, wrong_env);
    perf = test_named(&g, "performance");
    cr_assert(strstr(str(perf, "output"), "at 100000 it gave 3 wrong elements (the lab's baseline, not your code)") &&
              !strstr(str(perf, "output"), "x the library"), "%s", str(perf, "output"));
    cr_assert_float_eq(num(perf, "score"), 7.5, 1e-9, "the library is never scored");
    release(&g);
    unlink(rubric);
}
