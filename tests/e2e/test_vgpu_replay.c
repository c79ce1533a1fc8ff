/* test_vgpu_replay.c - end to end, the vgpu backend with a GPU (issue 39,
 * item 5): the executor's launch records replayed on the GPU and judged,
 * performance timed by replay against the reference's records (and
 * cuBLAS's, for the challenge), a batch's replays in its GPUs' queues,
 * --backend auto with a GPU, and compute-sanitizer on a disagreeing replay.
 * The GPU is tests/fixtures/replay_on_executor, a pretend one that does the
 * records on the executor; runs from the repository root, needs nvcc. */
#include "e2e.h"

#include <sys/stat.h>

/* ---- the executor's launches replayed on a GPU (issue 39, item 5) ----
 * With a GPU, every dataset whose output the executor wrote is replayed
 * there by bin/cugrade-replay from the same compile's cubin, and its output
 * judged too. Here the GPU is tests/fixtures/replay_on_executor, which does
 * the record on the executor (FAKE_GPU makes it disagree, fail or break). */

static graded_t grade_replayed(const char *lab, const char *submission, const char *fake, const char *log)
{
    static char runner[PATH_MAX + 64], mode[64], logenv[PATH_MAX + 32];
    char root[PATH_MAX];
    cr_assert_not_null(getcwd(root, sizeof root));
    snprintf(runner, sizeof runner, "CUGRADE_REPLAY=%s/tests/fixtures/replay_on_executor", root);
    snprintf(mode, sizeof mode, "FAKE_GPU=%s", fake);
    snprintf(logenv, sizeof logenv, "FAKE_GPU_LOG=%s", log);
    char *env[] = {runner, mode, logenv, NULL};
    const char *extra[] = {"--lab", lab, NULL};
    return grade_on("vgpu", submission, extra, env);
}

static int lines_of(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0, c;
    while (f && (c = fgetc(f)) != EOF)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

Test(vgpu_replay, with_a_gpu_every_dataset_is_replayed_there_and_the_reference_keeps_full_marks, .timeout = 300)
{
    char log[] = "/tmp/cugrade-fake-gpu-XXXXXX";
    int fd = mkstemp(log);
    cr_assert(fd >= 0);
    close(fd);
    graded_t g = grade_replayed("lab3", "reference/lab3/matmul.cu", "", log);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert(strstr(g.run.output, "Score: 120 / 120"), "performance timed too: %s", g.run.output);
    cr_assert_eq(lines_of(log), 30, "20 public and 8 hidden datasets replayed, and 2 timing shapes");
    release(&g);
    unlink(log);
}

Test(vgpu_replay, an_output_the_gpu_computes_otherwise_fails_the_dataset, .timeout = 300)
{
    graded_t g = grade_replayed("lab3", "reference/lab3/matmul.cu", "differs", "/dev/null");
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert_float_eq(num(g.json, "score"), 0.0, 1e-9, "no dataset passed, so no check is credited: %s",
                       g.run.output);
    const char *d0 = str(test_named(&g, "dataset 0 "), "output");
    cr_assert(strstr(d0, "FAILED on the GPU: 1 of 4096 elements wrong"), "%s", d0);
    cr_assert(strstr(d0, "what the kernels compute depends on where they run"), "%s", d0);
    release(&g);
}

Test(vgpu_replay, a_kernel_that_fails_on_the_gpu_fails_the_dataset_and_a_broken_runner_is_the_graders,
     .timeout = 300)
{
    graded_t g = grade_replayed("lab3-wb", "reference/lab3-wb/template.cu", "fails", "/dev/null");
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *d0 = str(test_named(&g, "dataset 0 "), "output");
    cr_assert(strstr(d0, "FAILED on the GPU: _Z20matrixMultiplySharedPKfS0_Pfiiiiii failed: "
                         "CUDA_ERROR_ILLEGAL_ADDRESS on the GPU"), "%s", d0);
    release(&g);
    g = grade_replayed("lab3", "reference/lab3/matmul.cu", "broken", "/dev/null");
    cr_assert_eq(exit_code(&g), 2, "%s", g.run.output);
    cr_assert_null(g.json, "no results.json on a grader fault");
    cr_assert(strstr(g.run.output, "cugrade: cannot grade: "), "%s", g.run.output);
    cr_assert(strstr(g.run.output, "cugrade-replay: the cubin does not load"), "%s", g.run.output);
    release(&g);
}

/* Performance with a GPU: each timing shape's launches recorded by the
 * executor without running them (--dry), the submission's and the
 * reference's, timed against each other by the runner (here the pretend
 * GPU, whose times are $FAKE_GPU_MS and $FAKE_GPU_REF_MS): scored as on the
 * gpu backend, with no host code of the submission's in the process whose
 * times count. Small shapes, so that the pretend GPU can run them. */
static const char SMALL_PERF_RUBRIC[] =
    "{ \"version\": 1, \"labs\": { \"lab3\": {\n"
    "  \"datasets\": { \"points\": 3.5 }, \"hidden\": { \"count\": 8, \"points\": 2.5 },\n"
    "  \"checks\": { \"race-free\": { \"points\": 4 } },\n"
    "  \"performance\": { \"points\": 10, \"shapes\": [\"64x64x64\", \"33x20x47\"], \"zero_at\": 0.5,\n"
    "                   \"full_at\": 0.9, \"time_cap_s\": 30 } } } }\n";

static graded_t grade_timed(const char *rubric, const char *ms)
{
    static char runner[PATH_MAX + 64], fake_ms[64];
    char root[PATH_MAX];
    cr_assert_not_null(getcwd(root, sizeof root));
    snprintf(runner, sizeof runner, "CUGRADE_REPLAY=%s/tests/fixtures/replay_on_executor", root);
    snprintf(fake_ms, sizeof fake_ms, "FAKE_GPU_MS=%s", ms);
    char *env[] = {runner, fake_ms, "FAKE_GPU_REF_MS=1", NULL};
    const char *extra[] = {"--rubric", rubric, NULL};
    return grade_on("vgpu", "reference/lab3/matmul.cu", extra, env);
}

Test(vgpu_replay, with_a_gpu_performance_is_timed_by_replaying_the_executors_records, .timeout = 300)
{
    char rubric[] = "/tmp/cugrade-rubric-XXXXXX";
    int fd = mkstemp(rubric);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, SMALL_PERF_RUBRIC, sizeof SMALL_PERF_RUBRIC - 1), (ssize_t)sizeof SMALL_PERF_RUBRIC - 1);
    close(fd);
    graded_t g = grade_timed(rubric, "0.8");
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *perf = test_named(&g, "performance"), *extra;
    cr_assert_float_eq(num(perf, "score"), 10.0, 1e-9, "%s", str(perf, "output"));
    cr_assert(strstr(str(perf, "output"), "by replaying the launches the executor recorded, against the "
                                          "reference's"), "%s", str(perf, "output"));
    cr_assert(json_object_object_get_ex(g.json, "extra_data", &extra));
    cr_assert_float_eq(num(extra, "perf_ratio"), 1.25, 1e-9);
    release(&g);
    g = grade_timed(rubric, "4"); /* four times the reference's time: a quarter of its speed */
    perf = test_named(&g, "performance");
    cr_assert_float_eq(num(perf, "score"), 0.0, 1e-9, "%s", str(perf, "output"));
    cr_assert_float_eq(num(perf, "max_score"), 10.0, 1e-9);
    cr_assert(strstr(str(perf, "output"), "speed relative to the reference (geometric mean): 0.25"), "%s",
              str(perf, "output"));
    release(&g);
    setenv("FAKE_GPU_WRONG", "7", 1); /* fast, and wrong: no points, and said */
    g = grade_timed(rubric, "0.5");
    unsetenv("FAKE_GPU_WRONG");
    perf = test_named(&g, "performance");
    cr_assert_float_eq(num(perf, "score"), 0.0, 1e-9, "%s", str(perf, "output"));
    cr_assert(strstr(str(perf, "output"), "wrong"), "%s", str(perf, "output"));
    release(&g);
    unlink(rubric);
}

/* The dot product's partial sums are as many as each launch function
 * chose: timed by replay too, its outputs checked by their sums (the
 * kind's timing_compare). */
Test(vgpu_replay, the_dot_product_is_timed_by_replay_too, .timeout = 300)
{
    static const char rubric_text[] =
        "{ \"version\": 1, \"labs\": { \"dotprod\": {\n"
        "  \"datasets\": { \"points\": 4 }, \"hidden\": { \"count\": 2, \"points\": 2 },\n"
        "  \"performance\": { \"points\": 10, \"shapes\": [\"100000\"], \"zero_at\": 0.5, \"full_at\": 0.9,\n"
        "                   \"time_cap_s\": 30 } } } }\n";
    char rubric[] = "/tmp/cugrade-rubric-XXXXXX";
    int fd = mkstemp(rubric);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, rubric_text, sizeof rubric_text - 1), (ssize_t)sizeof rubric_text - 1);
    close(fd);
    static char runner[PATH_MAX + 64];
    char root[PATH_MAX];
    cr_assert_not_null(getcwd(root, sizeof root));
    snprintf(runner, sizeof runner, "CUGRADE_REPLAY=%s/tests/fixtures/replay_on_executor", root);
    char *env[] = {runner, "FAKE_GPU_MS=0.5", "FAKE_GPU_REF_MS=1", NULL};
    const char *extra[] = {"--lab", "dotprod", "--rubric", rubric, NULL};
    graded_t g = grade_on("vgpu", "reference/dotprod/dotprod.cu", extra, env);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *perf = test_named(&g, "performance");
    cr_assert_float_eq(num(perf, "score"), 10.0, 1e-9, "%s", str(perf, "output"));
    cr_assert(strstr(str(perf, "output"), "speed relative to the reference (geometric mean): 2"), "%s",
              str(perf, "output"));
    release(&g);
    unlink(rubric);
}

/* A batch on the executor with GPUs (here two pretend ones): each child
 * replays its datasets' records on its own GPU, holding it shared in that
 * GPU's queue, and times by replay holding it alone; the gpu backend's
 * baseline timing of the reference is not made (the runner times the
 * reference's record beside each submission's). */
Test(vgpu_replay, a_batch_on_gpus_replays_and_times_each_submission_in_its_gpus_queue, .timeout = 600)
{
    batch_class_t k = make_batch_class("vgpu-batch-gpus");
    class_add_student(&k, "alice", "reference/lab3/matmul.cu");
    class_add_student(&k, "bob", "tests/submissions/lab3/tile32.cu"); /* not identical: graded too */
    write_text(k.rubric, "{\"version\": 1, \"labs\": {\"lab3\": {\"datasets\": {\"points\": 1},"
                         " \"performance\": {\"points\": 10, \"shapes\": [\"40x30x20\"], \"zero_at\": 0.5,"
                         " \"full_at\": 0.9, \"time_cap_s\": 30}}}}");
    static char runner[PATH_MAX + 64], logenv[PATH_MAX + 32];
    char root[PATH_MAX], log[PATH_MAX];
    cr_assert_not_null(getcwd(root, sizeof root));
    snprintf(runner, sizeof runner, "CUGRADE_REPLAY=%s/tests/fixtures/replay_on_executor", root);
    snprintf(log, sizeof log, "%s/replays.log", k.dir);
    snprintf(logenv, sizeof logenv, "FAKE_GPU_LOG=%s", log);
    char *env[] = {runner, logenv, "CUGRADE_GPU_COUNT=2", "CUGRADE_NVCC_ARCH=sm_90", NULL};
    char *argv[] = {"bin/cugrade", "batch", "--lab", "lab3", "--out", k.out, "--backend", "vgpu",
                    "--jobs", "2", "--datasets", k.datasets, "--rubric", k.rubric, k.subs, NULL};
    run_spec_t spec = {.argv = argv, .extra_env = env, .timeout_s = 600, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "batch failed:\n%s", r.output);
    cr_assert(strstr(r.output, "on 2 GPU(s) (built for sm_90), one timing queue each"), "%s", r.output);
    cr_assert_null(strstr(r.output, "perf baseline"), "no native baseline on the executor:\n%s", r.output);
    for (int s = 0; s < 2; s++) {
        json_object *res = class_results(&k, s ? "bob" : "alice");
        json_object *extra;
        cr_assert(json_object_object_get_ex(res, "extra_data", &extra));
        cr_assert_float_eq(num(res, "score"), 20.0, 1e-9, "10 datasets, a point each, and performance "
                           "timed: %s", json_object_to_json_string(res));
        cr_assert_str_eq(str(extra, "device"), "a pretend GPU");
        cr_assert_float_eq(num(extra, "perf_ratio"), 1.0, 1e-9);
        json_object_put(res);
    }
    cr_assert_eq(lines_of(log), 2 * 11, "each student's 10 datasets replayed and 1 shape timed:\n%s",
                 r.output);
    int shared = 0, alone = 0;
    for (int gpu = 0; gpu < 2; gpu++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/.gpu-queue/gpu%d.holds", k.out, gpu);
        char *holds = read_file(path, NULL, NULL, 0);
        cr_assert_not_null(holds, "GPU %d's queue was never joined:\n%s", gpu, r.output);
        shared += strstr(holds, " S ") != NULL;
        alone += strstr(holds, " X ") != NULL;
        free(holds);
    }
    cr_assert_eq(shared, 2, "each GPU held shared for its child's replays");
    cr_assert_eq(alone, 2, "each GPU held alone for its child's timing");
    run_result_free(&r);
    rm_rf(k.dir);
}

/* The challenge, measured against cuBLAS: with a GPU the runner times
 * cuBLAS's SGEMM on the timing shape's inputs beside the two records
 * (--cublas), and the speed is the submission's against cuBLAS's; the
 * pretend GPU's cuBLAS takes $FAKE_GPU_CUBLAS_MS. Before, the challenge
 * was 0 of 0 on the vgpu backend. */
Test(vgpu_replay, the_challenge_is_timed_against_cublas_by_the_runner, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-vgpu-cublas-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char ds[128], rubric[128], log[128];
    snprintf(ds, sizeof ds, "%s/data/0", dir);
    make_dataset("challenge", "40x24x33", ds);
    snprintf(rubric, sizeof rubric, "%s/rubric.json", dir);
    write_text(rubric, "{\"version\": 1, \"labs\": {\"challenge\": {\"datasets\": {\"points\": 1},"
                       " \"performance\": {\"points\": 50, \"shapes\": [\"64x48x40\"], \"zero_at\": 0.2,"
                       " \"full_at\": 0.85, \"time_cap_s\": 30, \"relative_to\": \"cublas\"}}}}");
    snprintf(log, sizeof log, "%s/replays.log", dir);
    static char runner[PATH_MAX + 64], logenv[PATH_MAX + 32], data[160];
    char root[PATH_MAX];
    cr_assert_not_null(getcwd(root, sizeof root));
    snprintf(runner, sizeof runner, "CUGRADE_REPLAY=%s/tests/fixtures/replay_on_executor", root);
    snprintf(logenv, sizeof logenv, "FAKE_GPU_LOG=%s", log);
    snprintf(data, sizeof data, "%s/data", dir);
    char *env[] = {runner, logenv, "FAKE_GPU_MS=2", "FAKE_GPU_REF_MS=1", "FAKE_GPU_CUBLAS_MS=1", NULL};
    const char *extra[] = {"--lab", "challenge", "--datasets", data, "--rubric", rubric, NULL};
    graded_t g = grade_on("vgpu", "reference/challenge/sgemm.cu", extra, env);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *perf = test_named(&g, "performance"), *extra_data;
    cr_assert_float_eq(num(perf, "max_score"), 50.0, 1e-9, "scored, on a GPU: %s", str(perf, "output"));
    cr_assert(strstr(str(perf, "output"), "against the reference's and cuBLAS's SGEMM"), "%s", str(perf, "output"));
    cr_assert(json_object_object_get_ex(g.json, "extra_data", &extra_data));
    cr_assert_str_eq(str(extra_data, "perf_relative_to"), "cublas");
    cr_assert_float_eq(num(extra_data, "perf_ratio"), 0.5, 1e-9, "half cuBLAS's speed");
    double half = num(perf, "score");
    release(&g);
    env[3] = "FAKE_GPU_REF_MS=4"; /* the reference four times slower: nothing changes against cuBLAS */
    g = grade_on("vgpu", "reference/challenge/sgemm.cu", extra, env);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert_float_eq(num(test_named(&g, "performance"), "score"), half, 1e-9);
    release(&g);
    rm_rf(dir);
}

/* --backend auto with a GPU: the executor judges and the GPU replays its
 * records (no student host code near the GPU); without a runner to replay
 * them ($CUGRADE_REPLAY=off), the program itself on the GPU. Here the GPU
 * is pretended ($CUGRADE_GPU_COUNT=1) and the runner is the pretend one. */
Test(vgpu_replay, auto_with_a_gpu_grades_on_the_executor_and_replays_there, .timeout = 300)
{
    static char runner[PATH_MAX + 64];
    char root[PATH_MAX];
    cr_assert_not_null(getcwd(root, sizeof root));
    snprintf(runner, sizeof runner, "CUGRADE_REPLAY=%s/tests/fixtures/replay_on_executor", root);
    const char *want[2] = {"using: vgpu (auto: 1 CUDA device found: nvcc's PTX on the grader's executor, "
                           "its launches replayed on the GPU)",
                           "using: native (auto: 1 CUDA device found and no executor with a replay runner "
                           "(nvcc, bin/cugrade-vgpu, bin/cugrade-replay), so the program on the GPU)"};
    for (int off = 0; off < 2; off++) {
        char *argv[] = {"bin/cugrade", "info", NULL};
        char *env[] = {"CUGRADE_GPU_COUNT=1", off ? "CUGRADE_REPLAY=off" : runner, NULL};
        run_spec_t spec = {.argv = argv, .extra_env = env, .timeout_s = 60};
        run_result_t r;
        run_one(&spec, &r);
        cr_assert(strstr(r.output, want[off]), "%s", r.output);
        run_result_free(&r);
    }
    char log[] = "/tmp/cugrade-fake-gpu-XXXXXX";
    int fd = mkstemp(log);
    cr_assert(fd >= 0);
    close(fd);
    static char logenv[PATH_MAX + 32];
    snprintf(logenv, sizeof logenv, "FAKE_GPU_LOG=%s", log);
    char *env[] = {runner, logenv, "CUGRADE_GPU_COUNT=1", NULL};
    graded_t g = grade_on("auto", "reference/lab3/matmul.cu", NULL, env);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *extra;
    cr_assert(json_object_object_get_ex(g.json, "extra_data", &extra));
    cr_assert_str_eq(str(extra, "backend"), "vgpu");
    cr_assert(strstr(g.run.output, "Score: 120 / 120"), "performance timed on the GPU too: %s", g.run.output);
    cr_assert_eq(lines_of(log), 30, "20 public and 8 hidden datasets replayed, and 2 timing shapes");
    release(&g);
    unlink(log);
}

/* `info --backend gpu` (with CUGRADE_GPU_COUNT and CUGRADE_REPLAY as
 * given): its output, into r. */
static void info_gpu(const char *count, const char *replay, run_result_t *r)
{
    char *argv[] = {"bin/cugrade", "info", "--backend", "gpu", NULL};
    char *env[] = {(char *)count, (char *)replay, NULL};
    run_spec_t spec = {.argv = argv, .extra_env = env, .timeout_s = 60};
    run_one(&spec, r);
}

/* --backend gpu is the executor with its launches replayed on the GPU: the
 * replay is required, so a machine without a GPU or without the runner
 * cannot grade that way and says so (exit 2), naming the other backends;
 * the program itself on the device is --backend native. */
Test(vgpu_replay, backend_gpu_is_the_executor_replayed_on_the_gpu_and_says_what_is_missing, .timeout = 300)
{
    static char runner[PATH_MAX + 64];
    char root[PATH_MAX];
    cr_assert_not_null(getcwd(root, sizeof root));
    snprintf(runner, sizeof runner, "CUGRADE_REPLAY=%s/tests/fixtures/replay_on_executor", root);
    run_result_t r;
    info_gpu("CUGRADE_GPU_COUNT=1", runner, &r);
    cr_assert_eq(r.exited && r.exit_code == 0, 1, "%s", r.output);
    cr_assert(strstr(r.output, "using: vgpu (requested with --backend gpu: nvcc's PTX on the grader's "
                               "executor, its launches replayed on the GPU)"), "%s", r.output);
    run_result_free(&r);
    info_gpu("CUGRADE_GPU_COUNT=1", "CUGRADE_REPLAY=off", &r);
    cr_assert_eq(r.exit_code, 2, "%s", r.output);
    cr_assert(strstr(r.output, "using: none: --backend gpu replays the executor's launches on the GPU with "
                               "bin/cugrade-replay, which is not built (make all, with nvcc) or "
                               "$CUGRADE_REPLAY is off; grade with --backend vgpu"), "%s", r.output);
    run_result_free(&r);
    char log[] = "/tmp/cugrade-fake-gpu-XXXXXX";
    int fd = mkstemp(log);
    cr_assert(fd >= 0);
    close(fd);
    static char logenv[PATH_MAX + 32];
    snprintf(logenv, sizeof logenv, "FAKE_GPU_LOG=%s", log);
    char *env[] = {runner, logenv, "CUGRADE_GPU_COUNT=1", NULL};
    const char *dot[] = {"--lab", "dotprod", NULL};
    graded_t g = grade_on("gpu", "reference/dotprod/dotprod.cu", dot, env);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *extra;
    cr_assert(json_object_object_get_ex(g.json, "extra_data", &extra));
    cr_assert_str_eq(str(extra, "backend"), "vgpu");
    cr_assert_geq(lines_of(log), 10, "every dataset replayed on the (pretend) GPU: %d", lines_of(log));
    const char *score = strstr(g.run.output, "Score: ");
    double got = -1, max = -2;
    cr_assert(score && sscanf(score, "Score: %lf / %lf", &got, &max) == 2, "%s", g.run.output);
    cr_assert(got == max && max > 0, "the reference's full marks, performance timed on the GPU: %s",
              g.run.output);
    release(&g);
    unlink(log);
    char *none[] = {runner, "CUGRADE_GPU_COUNT=0", NULL};
    g = grade_on("gpu", "reference/dotprod/dotprod.cu", dot, none);
    cr_assert_eq(exit_code(&g), 2, "%s", g.run.output);
    cr_assert_null(g.json, "nothing graded");
    cr_assert(strstr(g.run.output, "--backend gpu needs a CUDA device and none was found"), "%s", g.run.output);
    release(&g);
}

/* A dataset the executor passed and the GPU did not: its replay is run
 * again under compute-sanitizer (here a pretend one on PATH, whose
 * racecheck reports tests/fixtures/sanitizer/racecheck.txt), and what it
 * finds on the GPU is the checks' evidence: race-free fails, naming the
 * lines, though the executor saw no race. */
Test(vgpu_replay, a_dataset_the_gpu_disagrees_on_is_replayed_under_compute_sanitizer, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-fake-sanitizer-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char root[PATH_MAX], tool[PATH_MAX + 64], script[2 * PATH_MAX + 512];
    cr_assert_not_null(getcwd(root, sizeof root));
    snprintf(tool, sizeof tool, "%s/compute-sanitizer", dir);
    snprintf(script, sizeof script,
             "#!/bin/sh\n"
             "# a pretend compute-sanitizer: --tool T --print-limit N COMMAND...\n"
             "tool=$2; shift 4\n"
             "\"$@\" > /dev/null 2>&1\n"
             "echo \"$*\" >> %s/commands\n"
             "if [ \"$tool\" = racecheck ]; then cat %s/tests/fixtures/sanitizer/racecheck.txt;\n"
             "else cat %s/tests/fixtures/sanitizer/clean.txt; fi\n",
             dir, root, root);
    write_text(tool, script);
    cr_assert_eq(chmod(tool, 0755), 0);
    static char path[8192];
    snprintf(path, sizeof path, "PATH=%s:%s", dir, getenv("PATH"));
    static char runner[PATH_MAX + 64];
    snprintf(runner, sizeof runner, "CUGRADE_REPLAY=%s/tests/fixtures/replay_on_executor", root);
    char *env[] = {runner, "FAKE_GPU=differs", path, NULL};
    const char *extra[] = {"--checks", "all", NULL};
    graded_t g = grade_on("vgpu", "reference/lab3/matmul.cu", extra, env);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *race = str(test_named(&g, "race-free"), "output");
    cr_assert(strstr(race, "compute-sanitizer racecheck on the GPU: a shared-memory race between the access "
                           "at missing_second_barrier.cu:44"), "%s", race);
    cr_assert(strstr(race, "replayed on the GPU under compute-sanitizer"), "%s", race);
    char commands[PATH_MAX + 32];
    snprintf(commands, sizeof commands, "%s/commands", dir);
    cr_assert_eq(lines_of(commands), 4, "one dataset, the four tools");
    char *text = read_file(commands, NULL, NULL, 0);
    cr_assert(text && strstr(text, "replay_on_executor --inputs "), "the runner, not the program: %s", text);
    free(text);
    release(&g);
    rm_rf(dir);
}
