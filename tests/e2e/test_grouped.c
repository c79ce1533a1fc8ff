/* test_grouped.c - end to end: grouped dataset runs (`cugrade run
 * --dataset-runs grouped`: every dataset in one process of the lab driver's
 * list mode, labs/common/harness.h) on the CPU emulator give the verdicts and
 * scores of separate runs, stop an endless kernel at each dataset's limit
 * (the driver's watchdog), and show each dataset its own program output
 * (crashes: test_grouped_crashes.c). Also the driver's list mode run directly,
 * with its turns on the GPU's queue.
 * Runs from the repository root. */
#include <limits.h>
#include <math.h>

#include "matbin.h"
#include "run/gpu_turn.h"
#include "run/gpuqueue.h"

#include <pthread.h>

#include "grouped_case.h"

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

/* The endless kernel graded grouped on three datasets in a new folder dir
 * (/tmp/cugrade-ds-XXXXXX, the caller removes it), each with a 2 s limit and
 * the datasets' other keys datasets_more (", \"key\": value" or ""); *took:
 * how long the grading took. */
static graded_t grade_endless(char dir[23], const char *datasets_more, double *took)
{
    const char *shapes[] = {"16x16x16", "8x8x8", "4x4x4", NULL};
    temp_datasets(dir, shapes);
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
    char dir[23];
    const char *shapes[] = {"8x8x8", "4x4x4", NULL};
    temp_datasets(dir, shapes);
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
    char dir[23];
    temp_datasets(dir, four_shapes);
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
    char dir[23];
    temp_datasets(dir, four_shapes);
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
    char dir[23];
    const char *shapes[] = {"20x10x30", "16x16x16", "9x9x9", NULL};
    temp_datasets(dir, shapes);
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

/* Builds the lab 3 driver with submission on the emulator (with define, a
 * -D option, unless NULL), and writes the inputs of two small datasets (4x3 *
 * 3x5, 2x2 * 2x2, every element 1) into its folder. */
static void build_driver_with(driver_t *d, const char *submission, const char *define)
{
    snprintf(d->dir, sizeof d->dir, "/tmp/cugrade-drv-XXXXXX");
    cr_assert_not_null(mkdtemp(d->dir));
    snprintf(d->program, sizeof d->program, "%s/program", d->dir);
    snprintf(d->list, sizeof d->list, "%s/datasets.list", d->dir);
    char *argv[] = {"bin/emucc", "-O2", "-Ilabs/common", "-DCUGRADE_LAUNCH=launchMatrixMultiplyShared",
                    "labs/kinds/matmul/driver.cu",
                    (char *)submission, "-o", d->program, (char *)define, NULL};
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

static void build_driver(driver_t *d, const char *submission)
{
    build_driver_with(d, submission, NULL);
}

static run_result_t run_driver(const driver_t *d, const char *arg1, const char *arg2)
{
    char *argv[] = {(char *)d->program, (char *)arg1, (char *)arg2, NULL};
    run_spec_t spec = {.argv = argv, .cwd = d->dir, .timeout_s = 60};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

/* d's driver on a list of two of its datasets, first then second, each
 * under limit_s. */
static run_result_t run_two_datasets(const driver_t *d, int limit_s, int first, int second)
{
    char text[512];
    int n = 0, k[2] = {first, second};
    for (int i = 0; i < 2; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "%d %s/a%d.bin %s/b%d.bin %s/c%d.bin\n",
                      limit_s, d->dir, k[i], d->dir, k[i], d->dir, k[i]);
    write_text(d->list, text);
    return run_driver(d, "--each", d->list);
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
    run_result_t r = run_two_datasets(&d, 1, 0, 1);
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

/* ---- the guards around the driver's arrays (labs/common/harness_device.h) -- */

/* The floats of the output file path (malloc'd), *n of them. */
static float *read_output(const char *path, unsigned *n)
{
    float *data;
    matbin_header_t h;
    cr_assert_eq(matbin_read(path, &data, &h), 0, "no output %s", path);
    *n = h.rows * h.cols;
    return data;
}

/* Runs d's driver on dataset k alone (CUGRADE_GUARDS=guards unless NULL)
 * into NAME.bin; returns its floats (malloc'd), *n of them. */
static float *dataset_alone(const driver_t *d, int k, const char *name, const char *guards,
                            unsigned *n)
{
    char a[32], b[32], c[160], env[64];
    snprintf(a, sizeof a, "a%d.bin", k);
    snprintf(b, sizeof b, "b%d.bin", k);
    snprintf(c, sizeof c, "%s/%s.bin", d->dir, name);
    snprintf(env, sizeof env, "CUGRADE_GUARDS=%s", guards ? guards : "");
    char *argv[] = {(char *)d->program, a, b, c, NULL};
    char *extra[] = {env, NULL};
    run_spec_t spec = {.argv = argv, .cwd = d->dir, .timeout_s = 60,
                       .extra_env = guards ? extra : NULL};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    run_result_free(&r);
    return read_output(c, n);
}

/* How many of x[0..n) a read of a guard made: huge or infinite. */
static int guard_made(const float *x, unsigned n)
{
    int made = 0;
    for (unsigned i = 0; i < n; i++)
        made += isinf(x[i]) || x[i] > 1e30f;
    return made;
}

/* unguarded_loads.cu's tile loads read past A and B when K (3 and 2 here) is
 * not a multiple of its tile (16). With the guards, what it reads there is
 * the guard's 3.39e38, whatever the run: every element of C is huge or
 * infinite, and the same, bit for bit, alone and in a list after another
 * dataset, whose arrays (kept for the next: labs/common/harness_device.h)
 * were smaller (dataset 1 then 0) or larger (0 then 1). The emulator builds
 * the driver without guards (its checks must see such a read), so the test
 * builds it with -DHARNESS_GUARDS=1; CUGRADE_GUARDS=off (compute-sanitizer's
 * runs) takes them away again. */
Test(grouped, a_read_past_an_input_finds_its_guard_in_every_run, .timeout = 300)
{
    driver_t d;
    build_driver_with(&d, SUB "unguarded_loads.cu", "-DHARNESS_GUARDS=1");
    for (int first = 0; first < 2; first++) {
        int second = 1 - first;
        unsigned n, m;
        float *alone = dataset_alone(&d, second, "alone", NULL, &n);
        cr_expect_eq(guard_made(alone, n), (int)n, "dataset %d: not every element the guard's",
                     second);
        run_result_t r = run_two_datasets(&d, 30, first, second);
        cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
        run_result_free(&r);
        char c[160];
        snprintf(c, sizeof c, "%s/c%d.bin", d.dir, second);
        float *listed = read_output(c, &m);
        cr_expect(m == n && memcmp(listed, alone, n * sizeof(float)) == 0,
                  "dataset %d after %d in a list: C differs from alone", second, first);
        free(alone);
        free(listed);
    }
    unsigned n;
    float *off = dataset_alone(&d, 0, "off", "off", &n);
    cr_expect_eq(guard_made(off, n), 0, "CUGRADE_GUARDS=off: elements still read a guard");
    free(off);
    rm_rf(d.dir);
}

/* A launch function whose kernel copies into C what lies just past A (C[i]
 * = A[M*K + i]): the guard byte, 0x7F in each of its bytes, in every run.
 * In a list after a larger dataset, the arrays it is given are that
 * dataset's, kept (harness_device.h): what lies past its A is within their
 * room, which must hold the guard byte again, not the earlier dataset's A. */
Test(grouped, past_a_kept_array_lies_the_guard_not_the_dataset_before, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-pastA-XXXXXX", sub[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/matmul.cu", dir);
    write_text(sub,
               "__global__ void copyPastA(const float *A, float *C, int past, int n)\n"
               "{\n    int i = threadIdx.x;\n    if (i < n)\n        C[i] = A[past + i];\n}\n"
               "void launchMatrixMultiplyShared(const float *A, const float *B, float *C,\n"
               "    int ar, int ac, int br, int bc, int cr, int cc)\n"
               "{\n    (void)B; (void)br; (void)bc;\n"
               "    copyPastA<<<1, 64>>>(A, C, ar * ac, cr * cc);\n}\n");
    driver_t d;
    build_driver_with(&d, sub, "-DHARNESS_GUARDS=1");
    run_result_t r = run_two_datasets(&d, 30, 0, 1);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    run_result_free(&r);
    for (int k = 0; k < 2; k++) {
        char c[160];
        snprintf(c, sizeof c, "%s/c%d.bin", d.dir, k);
        unsigned n;
        float *x = read_output(c, &n);
        for (unsigned i = 0; i < n; i++) {
            uint32_t bits;
            memcpy(&bits, &x[i], sizeof bits);
            cr_expect_eq(bits, 0x7F7F7F7Fu, "dataset %d: C[%u] = %g, not the guard", k, i, x[i]);
        }
        free(x);
    }
    rm_rf(d.dir);
    rm_rf(dir);
}
