/* test_gpu_pipeline.c - end to end, without a GPU: the gpu backend's whole
 * pipeline (its builds, the grouped dataset runs, the timing tail and the
 * separate timing program, the performance test's scoring) with nvcc
 * replaced by tests/fixtures/nvcc_emu/bin/nvcc, which compiles every program
 * with bin/emucc, and CUGRADE_GPU_COUNT=1, so that every program runs on the
 * emulator. The times mean nothing; the verdicts do:
 *   - the reference is timed and scored;
 *   - a launch function that copies back a product kept from an earlier call
 *     (tests/attacks/memoizes_product.cu) gets no performance points;
 *   - a timing that crashes in the student's code is the student's, once the
 *     lab's reference has been timed by the same program (vouch_timing in
 *     grader/pipeline/grade_perf.c); one whose kernel never ends at the
 *     timing's shape is stopped at the shape's time cap (timing.h's watchdog);
 *   - a timing program that fails for the reference too (nvcc-timing-fails
 *     builds one that fails at once, as on a broken GPU) is a grader fault:
 *     exit 2, no results.json;
 *   - a batch on two GPUs (CUGRADE_GPU_COUNT=2) times the reference on each
 *     and every submission against its own GPU's baseline.
 * Each nvcc has a build folder of its own (CUGRADE_NVCC_ARCH), so that no
 * object of one is taken for the other's or a real GPU's. The source check is
 * off (emucc's own headers are not the toolchain's an nvcc would have), and
 * the sandbox is shown bin/, emu/ and build/, which emucc reads. Runs from the
 * repository root. */
#include "e2e.h"

typedef struct {
    char dir[64], datasets[128], rubric[128], json[128];
} setup_t;

/* Two small datasets and a rubric for lab3 with a performance test of one
 * shape, perf_shape (33 rows: the one crash_on_one_shape.cu crashes on). */
static setup_t make_setup(const char *perf_shape)
{
    setup_t s;
    snprintf(s.dir, sizeof s.dir, "/tmp/cugrade-gpupipe-XXXXXX");
    cr_assert_not_null(mkdtemp(s.dir));
    snprintf(s.datasets, sizeof s.datasets, "%s/datasets", s.dir);
    snprintf(s.rubric, sizeof s.rubric, "%s/rubric.json", s.dir);
    snprintf(s.json, sizeof s.json, "%s/r.json", s.dir);
    const char *shapes[] = {"16x16x16", "17x9x13", NULL};
    make_datasets(s.datasets, shapes);
    char rubric[512];
    snprintf(rubric, sizeof rubric,
             "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"name\": \"compiles\","
             " \"points\": 0}, \"datasets\": {\"points\": 1, \"time_limit_s\": 30},"
             " \"hidden\": {\"count\": 0}, \"performance\": {\"points\": 10, \"shapes\": [\"%s\"],"
             " \"zero_at\": 0.5, \"full_at\": 0.9, \"time_cap_s\": 1}}}}",
             perf_shape);
    write_text(s.rubric, rubric);
    return s;
}

/* The environment of a grading on `gpus` pretend GPUs with the emulator's
 * nvcc named nvcc (nvcc or nvcc-timing-fails). */
typedef struct {
    char nvcc[PATH_MAX + 64], arch[64], ro[3 * PATH_MAX + 64], gpus[32];
    char *env[6];
} gpu_env_t;

static void gpu_env(gpu_env_t *e, const char *nvcc, int gpus)
{
    char cwd[PATH_MAX];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    snprintf(e->nvcc, sizeof e->nvcc, "CUGRADE_NVCC=%s/tests/fixtures/nvcc_emu/bin/%s", cwd, nvcc);
    snprintf(e->arch, sizeof e->arch, "CUGRADE_NVCC_ARCH=sm_emu_%s", nvcc);
    snprintf(e->ro, sizeof e->ro, "CUGRADE_SANDBOX_RO=%s/bin:%s/emu:%s/build", cwd, cwd, cwd);
    snprintf(e->gpus, sizeof e->gpus, "CUGRADE_GPU_COUNT=%d", gpus);
    char *env[] = {e->nvcc, e->arch, e->ro, e->gpus, "CUGRADE_SRCCHECK=off", NULL};
    memcpy(e->env, env, sizeof env);
}

/* `cugrade run --backend native` of submission on one pretend GPU with the
 * emulator's nvcc named nvcc; results into s->json. */
static run_result_t grade_gpu(const setup_t *s, const char *nvcc, const char *submission)
{
    gpu_env_t e;
    gpu_env(&e, nvcc, 1);
    char *argv[] = {"bin/cugrade", "run", "--lab", "lab3", "--backend", "native", "--checks",
                    "none", "--color", "never", "--rubric", (char *)s->rubric, "--datasets",
                    (char *)s->datasets, "--json", (char *)s->json, (char *)submission, NULL};
    run_spec_t spec = {.argv = argv, .extra_env = e.env, .timeout_s = 300, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

/* The performance test of results.json r. */
static json_object *performance_test(json_object *r)
{
    json_object *tests = json_object_object_get(r, "tests");
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        json_object *t = json_object_array_get_idx(tests, i);
        const char *name = json_object_get_string(json_object_object_get(t, "name"));
        if (strncmp(name, "performance", 11) == 0)
            return t;
    }
    cr_assert_fail("no performance test in %s", json_object_to_json_string(r));
    return NULL;
}

static double number(json_object *o, const char *key)
{
    return json_object_get_double(json_object_object_get(o, key));
}

static const char *text(json_object *o, const char *key)
{
    const char *s = json_object_get_string(json_object_object_get(o, key));
    return s ? s : "";
}

/* A graded submission: exit 0, both datasets passed; its results. */
static json_object *graded(const setup_t *s, const run_result_t *r)
{
    cr_assert(r->exited && r->exit_code == 0, "exit %d:\n%s", r->exit_code, r->output);
    json_object *j = json_object_from_file(s->json);
    cr_assert_not_null(j, "%s", r->output);
    json_object *extra = json_object_object_get(j, "extra_data");
    cr_assert_eq(number(extra, "datasets_passed"), 2, "%s", r->output);
    return j;
}

Test(gpu_pipeline, the_reference_is_timed_and_scored, .timeout = 300)
{
    setup_t s = make_setup("48x40x56");
    run_result_t r = grade_gpu(&s, "nvcc", "reference/lab3/matmul.cu");
    json_object *j = graded(&s, &r);
    json_object *perf = performance_test(j);
    cr_expect(strstr(text(perf, "output"), "48x40x56: ") &&
                  strstr(text(perf, "output"), "(first quartile of "),
              "%s", text(perf, "output"));
    cr_expect_gt(number(json_object_object_get(j, "extra_data"), "perf_ratio"), 0, "%s",
                 text(perf, "output"));
    cr_expect_null(strstr(text(perf, "output"), "FAILED"), "%s", text(perf, "output"));
    json_object_put(j);
    run_result_free(&r);
    rm_rf(s.dir);
}

/* Every dataset passes (each is a first call); every timed output is a
 * product kept from the round before, wrong on the round's new inputs. */
Test(gpu_pipeline, a_kept_product_handed_back_scores_no_performance_points, .timeout = 300)
{
    setup_t s = make_setup("48x40x56");
    run_result_t r = grade_gpu(&s, "nvcc", "tests/attacks/memoizes_product.cu");
    json_object *j = graded(&s, &r);
    json_object *perf = performance_test(j);
    cr_expect_eq(number(perf, "score"), 0, "%s", text(perf, "output"));
    cr_expect(strstr(text(perf, "output"), "wrong elements in the timed outputs"), "%s",
              text(perf, "output"));
    json_object_put(j);
    run_result_free(&r);
    rm_rf(s.dir);
}

/* submission, graded with a performance test of shape, passes both datasets
 * and its timing fails, with why in the performance test's output: the
 * reference, timed by the same program just after, runs, so the failure is
 * the student's: no performance points, and why. */
static void expect_the_students_failed_timing(const char *shape, const char *submission,
                                              const char *why)
{
    setup_t s = make_setup(shape);
    run_result_t r = grade_gpu(&s, "nvcc", submission);
    json_object *j = graded(&s, &r);
    json_object *perf = performance_test(j);
    cr_expect_eq(number(perf, "score"), 0, "%s", text(perf, "output"));
    cr_expect(strstr(text(perf, "output"), why), "%s", text(perf, "output"));
    cr_expect(strstr(text(perf, "output"), "(the lab's reference, timed by the same program "
                                           "on GPU 0 just after, ran: the failure is the "
                                           "submission's)"),
              "%s", text(perf, "output"));
    json_object_put(j);
    run_result_free(&r);
    rm_rf(s.dir);
}

/* crash_on_one_shape.cu crashes on the timing's shape of 33 rows. */
Test(gpu_pipeline, a_timing_that_crashes_in_the_students_code_is_the_students, .timeout = 300)
{
    expect_the_students_failed_timing("33x40x56", SUB "crash_on_one_shape.cu",
                                      "killed by signal 11");
}

/* hangs_on_large_shapes.cu never ends at the timing's shape: the timing
 * program's watchdog ends it at the shape's time cap (1 s here), naming the
 * launch, instead of the grader's limit for the whole timing (61 s here)
 * holding the GPU. */
Test(gpu_pipeline, a_kernel_that_never_ends_at_the_timing_shape_is_stopped_at_its_time_cap,
     .timeout = 300)
{
    expect_the_students_failed_timing("48x40x56", SUB "hangs_on_large_shapes.cu",
                                      "cugrade: perf: a warm-up launch of "
                                      "launchMatrixMultiplyShared (the student's kernel) at "
                                      "48x40x56 ran past 1 s, the shape's time cap");
}

/* A timing program that fails before any student code runs, for everyone:
 * the submission's timing fails, so does the reference's, and nobody gets a
 * zero for it. */
Test(gpu_pipeline, a_timing_program_that_fails_for_the_reference_too_is_a_grader_fault,
     .timeout = 300)
{
    setup_t s = make_setup("48x40x56");
    run_result_t r = grade_gpu(&s, "nvcc-timing-fails", SUB "tile32.cu");
    cr_assert(r.exited && r.exit_code == 2, "exit %d:\n%s", r.exit_code, r.output);
    cr_expect(strstr(r.output, "cugrade: cannot grade: the lab's timing program failed for the "
                               "submission, and for the lab's reference too"),
              "%s", r.output);
    cr_expect(strstr(r.output, "out of memory (pretend)"), "%s", r.output);
    cr_expect(!is_file(s.json), "no results.json: %s", r.output);
    run_result_free(&r);
    rm_rf(s.dir);
}

/* ---- a batch on two GPUs ------------------------------------------------------ */

/* The performance test's output of student id in the batch's results. */
static json_object *batch_results(const char *out, const char *id)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s/results.json", out, id);
    json_object *j = json_object_from_file(path);
    cr_assert_not_null(j, "no %s", path);
    return j;
}

/* How many of a holds log's lines (run/gpuqueue.c: "REQUESTED GRANTED
 * RELEASED S|X PID LABEL") are the batch's own ("-": no child's) of kind use. */
static int batch_holds(const char *log, char use)
{
    int n = 0;
    for (const char *line = log; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0)) {
        char kind, label[128];
        if (sscanf(line, "%*f %*f %*f %c %*d %127s", &kind, label) == 2 && kind == use &&
            strcmp(label, "-") == 0)
            n++;
    }
    return n;
}

/* Each GPU's baseline (the reference, its untiled baseline and cuBLAS,
 * timed once on it) is what its submissions are measured against; the
 * summary keeps both GPUs' timings and the spread between them; the kept
 * product scores no performance points in a batch either. */
Test(gpu_pipeline, a_batch_on_two_gpus_times_each_submission_against_its_gpus_baseline,
     .timeout = 600)
{
    setup_t s = make_setup("48x40x56");
    char subs[128], out[128], cmd[1024];
    snprintf(subs, sizeof subs, "%s/subs", s.dir);
    snprintf(out, sizeof out, "%s/out", s.dir);
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/ann %s/cat && cp reference/lab3/matmul.cu %s/ann/ && "
             "cp tests/attacks/memoizes_product.cu %s/cat/matmul.cu", subs, subs, subs, subs);
    cr_assert_eq(system(cmd), 0);
    gpu_env_t e;
    gpu_env(&e, "nvcc", 2);
    char *argv[] = {"bin/cugrade", "batch", "--lab", "lab3", "--backend", "native", "--checks",
                    "none", "--jobs", "2", "--rubric", s.rubric, "--datasets", s.datasets,
                    "--out", out, subs, NULL};
    run_spec_t spec = {.argv = argv, .extra_env = e.env, .timeout_s = 600, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "exit %d:\n%s", r.exit_code, r.output);
    cr_expect(strstr(r.output, "perf baseline: 48x40x56: the reference timed 2 time(s) on 2 "
                               "GPU(s), spread "),
              "%s", r.output);

    json_object *ann = batch_results(out, "ann"), *cat = batch_results(out, "cat");
    json_object *perf = performance_test(ann);
    cr_expect(strstr(text(perf, "output"), "the reference and cuBLAS: the batch's baseline "
                                           "timing of this GPU ("),
              "%s", text(perf, "output"));
    cr_expect_gt(number(json_object_object_get(ann, "extra_data"), "perf_ratio"), 0, "%s",
                 text(perf, "output"));
    perf = performance_test(cat);
    cr_expect_eq(number(perf, "score"), 0, "%s", text(perf, "output"));
    cr_expect(strstr(text(perf, "output"), "wrong elements in the timed outputs"), "%s",
              text(perf, "output"));
    json_object_put(ann);
    json_object_put(cat);

    char path[256];
    snprintf(path, sizeof path, "%s/summary.json", out);
    json_object *sum = json_object_from_file(path), *bases, *timings;
    cr_assert(sum && json_object_object_get_ex(sum, "perf_baselines", &bases) &&
                  json_object_array_length(bases) == 1 &&
                  json_object_object_get_ex(json_object_array_get_idx(bases, 0), "timings",
                                            &timings),
              "summary.json has no perf_baselines");
    cr_assert_eq(json_object_array_length(timings), 2, "%s", json_object_to_json_string(bases));
    int seen = 0; /* a bit a GPU, in the order their baselines ended */
    for (size_t i = 0; i < 2; i++)
        seen |= 1 << (int)number(json_object_array_get_idx(timings, i), "gpu");
    cr_expect_eq(seen, 3, "one baseline each of GPU 0 and GPU 1: %s",
                 json_object_to_json_string(bases));
    json_object_put(sum);
    /* the batch's own holds (label "-"): each GPU's baseline (its shared turn,
     * then alone), timed beside the canary, whose run, unless its stamp
     * vouched for it, took one more shared turn in GPU 0's queue */
    int shared[2];
    for (int gpu = 0; gpu < 2; gpu++) {
        snprintf(path, sizeof path, "%s/.gpu-queue/gpu%d.holds", out, gpu);
        char *log = read_file(path, NULL, NULL, 0);
        cr_assert_not_null(log, "GPU %d's queue has no log", gpu);
        cr_expect_eq(batch_holds(log, 'X'), 1, "GPU %d's baseline: %s", gpu, log);
        shared[gpu] = batch_holds(log, 'S');
        free(log);
    }
    int ran = strstr(r.output, "on the native backend (ran in ") != NULL;
    cr_expect_eq(shared[0], shared[1] + ran, "the canary %s: GPU 0's shared turns %d, GPU 1's %d",
                 ran ? "ran" : "was vouched for by its stamp", shared[0], shared[1]);
    run_result_free(&r);
    rm_rf(s.dir);
}
