/* test_grade.c - end to end: bin/cugrade grades real submissions on the CPU
 * emulator, and every verdict, message and exit status is checked in
 * results.json and the terminal report. Runs from the repository root. */
#include "e2e.h"

Test(e2e, reference_gets_full_marks_on_every_shipped_dataset, .timeout = 300)
{
    graded_t g = grade("reference", NULL);
    cr_assert_eq(exit_code(&g), 0, "output:\n%s", g.run.output);
    json_object *tests = tests_of(&g);
    cr_assert_geq(json_object_array_length(tests), 13, "compile test + at least 12 datasets");
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        json_object *t = json_object_array_get_idx(tests, i);
        cr_expect(passed(t), "%s failed:\n%s", str(t, "name"), str(t, "output"));
    }
    cr_assert_gt(num(g.json, "score"), 0);
    double max = 0;
    for (size_t i = 0; i < json_object_array_length(tests); i++)
        max += num(json_object_array_get_idx(tests, i), "max_score");
    cr_assert_float_eq(num(g.json, "score"), max, 1e-9);
    cr_assert(strstr(g.run.output, "Score: 110 / 110"), "%s", g.run.output);
    cr_assert(strstr(g.run.output, "(20 of 20 datasets and 8 of 8 hidden ones passed"), "%s",
              g.run.output);
    json_object *perf = test_named(&g, "performance");
    cr_assert_float_eq(num(perf, "max_score"), 0.0, 1e-9, "speed is graded on a GPU only");
    cr_assert(strstr(str(perf, "output"), "not scored on the emu backend"), "%s", str(perf, "output"));
    json_object *extra;
    cr_assert(json_object_object_get_ex(g.json, "extra_data", &extra));
    cr_assert_str_eq(str(extra, "backend"), "emu");
    cr_assert_str_eq(str(extra, "submission_file"), "reference/lab3/matmul.cu");
    cr_assert_float_eq(num(extra, "datasets_passed"), num(extra, "datasets_total"), 1e-9);
    cr_assert_float_eq(num(extra, "hidden_passed"), 8, 1e-9);
    cr_assert_float_eq(num(extra, "hidden_total"), 8, 1e-9);
    release(&g);
}

Test(e2e, untouched_stub_scores_zero_with_never_written, .timeout = 300)
{
    graded_t g = grade("student", NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert_float_eq(num(g.json, "score"), 0.0, 1e-9);
    cr_assert(passed(test_named(&g, "compiles")));
    json_object *d0 = test_named(&g, "dataset 0 ");
    cr_assert(!passed(d0));
    cr_assert(strstr(str(d0, "output"), "output never written"), "%s", str(d0, "output"));
    cr_assert(strstr(g.run.output, "output never written"), "terminal report lacks the hint");
    release(&g);
}

Test(e2e, integer_division_grid_fails_exactly_the_uneven_datasets, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"64x64x64", "100x128x56", "256x300x256", "48x16x33", "1x200x1", NULL};
    const int uneven[] = {0, 1, 0, 1, 1};
    make_datasets(dir, shapes);
    const char *extra[] = {"--datasets", dir, NULL};
    graded_t g = grade(SUB "intdiv_grid.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    for (int i = 0; shapes[i]; i++) {
        char name[64];
        snprintf(name, sizeof name, "dataset %d ", i);
        json_object *t = test_named(&g, name);
        const char *out = str(t, "output");
        if (!uneven[i]) {
            cr_expect(passed(t), "%s should pass:\n%s", shapes[i], out);
            continue;
        }
        cr_expect(!passed(t), "%s should fail", shapes[i]);
        cr_expect(strstr(out, "ceiling division") || strstr(out, "grid dimension of 0"),
                  "%s: no boundary hint:\n%s", shapes[i], out);
    }
    json_object *t1 = test_named(&g, "dataset 1 ");
    cr_expect(strstr(str(t1, "output"), "rows 96..99"), "%s", str(t1, "output"));
    release(&g);
    rm_rf(dir);
}

Test(e2e, compile_error_gates_every_other_test, .timeout = 300)
{
    graded_t g = grade(SUB "compile_error.cu", NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *c = test_named(&g, "compiles");
    cr_assert(!passed(c));
    cr_assert(strstr(str(c, "output"), "compile_error.cu:"), "no file:line in:\n%s", str(c, "output"));
    cr_assert(strstr(str(c, "output"), "error"), "%s", str(c, "output"));
    json_object *tests = tests_of(&g);
    for (size_t i = 1; i < json_object_array_length(tests); i++) {
        json_object *t = json_object_array_get_idx(tests, i);
        cr_expect(strstr(str(t, "output"), "not run: does not compile"), "%s", str(t, "name"));
        cr_expect_float_eq(num(t, "score"), 0.0, 1e-9);
    }
    cr_assert_float_eq(num(g.json, "score"), 0.0, 1e-9);
    release(&g);
}

Test(e2e, host_segfault_fails_each_dataset_and_grading_finishes, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"16x16x16", "33x17x9", NULL};
    make_datasets(dir, shapes);
    const char *extra[] = {"--datasets", dir, NULL};
    graded_t g = grade(SUB "host_segfault.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    for (int i = 0; i < 2; i++) {
        char name[64];
        snprintf(name, sizeof name, "dataset %d ", i);
        json_object *t = test_named(&g, name);
        cr_expect(!passed(t));
        cr_expect(strstr(str(t, "output"), "Segmentation fault"), "%s", str(t, "output"));
    }
    release(&g);
    rm_rf(dir);
}

Test(e2e, endless_kernel_times_out_and_the_next_dataset_still_runs, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"16x16x16", "8x8x8", NULL};
    make_datasets(dir, shapes);
    char rubric[300];
    snprintf(rubric, sizeof rubric, "%s/rubric.json", dir);
    write_text(rubric, "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"points\": 0},"
                       " \"datasets\": {\"points\": 1, \"time_limit_s\": 2},"
                       " \"hidden\": {\"count\": 0}}}}");
    const char *extra[] = {"--datasets", dir, "--rubric", rubric, "--jobs", "1", NULL};
    double t0 = now_seconds();
    graded_t g = grade(SUB "endless_kernel.cu", extra);
    double took = now_seconds() - t0;
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    for (int i = 0; i < 2; i++) {
        char name[64];
        snprintf(name, sizeof name, "dataset %d ", i);
        json_object *t = test_named(&g, name);
        cr_expect(!passed(t));
        cr_expect(strstr(str(t, "output"), "time limit of 2 s"), "%s", str(t, "output"));
    }
    cr_expect_lt(took, 60.0, "two 2 s limits took %.1f s", took);
    release(&g);
    rm_rf(dir);
}

Test(e2e, broken_rubric_exits_2_naming_the_file_and_line, .timeout = 120)
{
    char dir[] = "/tmp/cugrade-rb-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char rubric[300];
    snprintf(rubric, sizeof rubric, "%s/rubric.json", dir);
    write_text(rubric, "{\n  \"version\": 1,\n  \"labs\": {\n    \"lab3\": { \"compile\": }\n  }\n}\n");
    const char *extra[] = {"--rubric", rubric, NULL};
    graded_t g = grade("reference", extra);
    cr_assert_eq(exit_code(&g), 2, "%s", g.run.output);
    cr_assert_null(g.json, "no results.json when nothing could be graded");
    char where[320];
    snprintf(where, sizeof where, "%s:4", rubric);
    cr_assert(strstr(g.run.output, where), "message does not name %s:\n%s", where, g.run.output);
    release(&g);
    rm_rf(dir);
}

Test(e2e, missing_datasets_exit_2, .timeout = 120)
{
    const char *extra[] = {"--datasets", "/nonexistent/datasets", NULL};
    graded_t g = grade("reference", extra);
    cr_assert_eq(exit_code(&g), 2, "%s", g.run.output);
    cr_assert(strstr(g.run.output, "/nonexistent/datasets"), "%s", g.run.output);
    release(&g);
}

/* A malformed dataset is a fault of the lab's files: named with its file and
 * line, exit 2, and no score at all (issue 38 item 6: it scored the other
 * datasets and wrote a results.json, which a grader fault never does). */
Test(e2e, malformed_dataset_is_named_and_nothing_is_scored, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"16x16x16", "20x10x30", "9x9x9", NULL};
    make_datasets(dir, shapes);
    char bad[300];
    snprintf(bad, sizeof bad, "%s/1/input1.raw", dir);
    write_text(bad, "10 30\n1 2 3\n4 oops 6\n");
    const char *extra[] = {"--datasets", dir, NULL};
    graded_t g = grade("reference", extra);
    cr_assert_eq(exit_code(&g), 2, "a dataset could not be graded: %s", g.run.output);
    char where[320];
    snprintf(where, sizeof where, "%s:3", bad);
    cr_assert(strstr(g.run.output, where), "%s", g.run.output);
    cr_assert(strstr(g.run.output, "not the student's fault"), "%s", g.run.output);
    cr_assert_null(g.json, "a grader fault writes no results.json");
    release(&g);
    rm_rf(dir);
}

Test(e2e, submission_folder_without_the_file_fails_compile_test, .timeout = 120)
{
    char dir[] = "/tmp/cugrade-sub-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    graded_t g = grade(dir, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *c = test_named(&g, "compiles");
    cr_assert(!passed(c));
    cr_assert(strstr(str(c, "output"), "no matmul.cu found"), "%s", str(c, "output"));
    release(&g);
    rm_rf(dir);
}

/* A path that is not there is the caller's typo: a usage error naming it,
 * no grade (an empty folder, above, is the student's 0). */
Test(e2e, a_submission_path_that_does_not_exist_is_a_usage_error, .timeout = 120)
{
    graded_t g = grade(SUB "no-such-submission.cu", NULL);
    cr_assert_eq(exit_code(&g), 64, "%s", g.run.output);
    cr_assert(strstr(g.run.output, "cugrade run: " SUB "no-such-submission.cu: No such file or "
                                   "directory"), "%s", g.run.output);
    cr_assert_null(g.json, "a results.json was written");
    release(&g);
}

Test(e2e, output_spam_is_capped_and_the_result_still_graded, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"20x10x30", NULL};
    make_datasets(dir, shapes);
    const char *extra[] = {"--datasets", dir, NULL};
    graded_t g = grade(SUB "spam_output.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *t = test_named(&g, "dataset 0 ");
    const char *out = str(t, "output");
    cr_assert(passed(t), "%.2000s", out);
    cr_assert(strstr(out, "[output cut: showing the first 65536 of "), "no cut notice");
    cr_assert_lt(strlen(out), 80 * 1024, "output kept: %zu bytes", strlen(out));
    release(&g);
    rm_rf(dir);
}

Test(e2e, early_return_before_barriers_is_reported_as_barrier_divergence, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"32x32x32", "100x128x56", NULL};
    make_datasets(dir, shapes);
    const char *extra[] = {"--datasets", dir, NULL};
    graded_t g = grade(SUB "early_return.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *even = test_named(&g, "dataset 0 "), *uneven = test_named(&g, "dataset 1 ");
    cr_expect(passed(even), "%s", str(even, "output"));
    cr_assert(!passed(uneven));
    const char *out = str(uneven, "output");
    cr_expect(strstr(out, "emulator error (barrier-divergence)"), "%s", out);
    cr_expect(strstr(out, "early_return.cu:"), "no file:line: %s", out);
    cr_expect(strstr(out, "more barrier-divergence findings not shown"), "%s", out);
    release(&g);
    rm_rf(dir);
}

/* Without a GPU, auto is the executor where nvcc is (issue 39: the
 * student's host code in a process of its own), else the emulator. */
Test(e2e, gpu_backend_without_a_device_exits_2_and_auto_falls_back_to_the_executor_or_the_emulator,
     .timeout = 300)
{
    char *no_gpu[] = {"CUGRADE_GPU_COUNT=0", NULL};
    char dir[] = "/tmp/cugrade-ds-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"16x16x16", NULL};
    make_datasets(dir, shapes);
    const char *extra[] = {"--datasets", dir, NULL};
    graded_t g = grade_on("native", "reference", extra, no_gpu);
    cr_assert_eq(exit_code(&g), 2, "%s", g.run.output);
    cr_assert(strstr(g.run.output, "--backend native needs a CUDA device"), "%s", g.run.output);
    cr_assert_null(g.json);
    release(&g);
    g = grade_on("auto", "reference", extra, no_gpu);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert(strstr(g.run.output, "backend: vgpu (auto: no CUDA device, so nvcc's PTX on the grader's "
                                   "executor)"), "%s", g.run.output);
    cr_assert(passed(test_named(&g, "dataset 0 ")));
    release(&g);
    char *no_nvcc[] = {"CUGRADE_GPU_COUNT=0", "CUGRADE_NVCC=/nonexistent/nvcc", NULL};
    g = grade_on("auto", "reference", extra, no_nvcc);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert(strstr(g.run.output, "backend: emu (auto: no CUDA device and no nvcc, so the CPU emulator)"),
              "%s", g.run.output);
    cr_assert(passed(test_named(&g, "dataset 0 ")));
    release(&g);
    rm_rf(dir);
}

Test(e2e, course_style_submission_compiles_and_passes_unchanged, .timeout = 300)
{
    graded_t g = grade(SUB "course_style.cu", NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *tests = tests_of(&g);
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        json_object *t = json_object_array_get_idx(tests, i);
        cr_expect(passed(t), "%s failed:\n%s", str(t, "name"), str(t, "output"));
    }
    json_object *d0 = test_named(&g, "dataset 0 ");
    cr_assert(strstr(str(d0, "output"), "The dimensions of C are 64 x 64"),
              "the student's printf is shown: %s", str(d0, "output"));
    release(&g);
}
