/* test_srccheck_e2e.c - end to end: the attacks of tests/attacks/ on the
 * build, graded as a TA would (bin/cugrade run, emu backend). Including the
 * course's reference or a dataset's expected output, by a path with ".."
 * or an absolute one, and .incbin (split over literals, or spelt by a
 * macro) are refused before compiling: "compiles" fails naming the
 * construct and file:line, score 0, and neither the expected output nor
 * the reference's code reaches results.json, the terminal report or the
 * HTML report; in a batch, the next student is graded as usual. A flood of
 * compiler errors is cut and the compiler stopped within seconds; a
 * compile-time loop and a template explosion are stopped by the compiler's
 * CPU-time and memory limits (lowered here by the environment) and
 * reported as the student's compile failure, not a grader fault. Where
 * nvcc is installed, the gpu backend (compile only) refuses the same.
 * Runs from the repository root. */
#include <limits.h>

#include "e2e.h"
#include "build/build.h"

#define ATTACKS "tests/attacks/"
#define STOLEN "307.78 283.45"                                     /* dataset 0's answer */
#define REFERENCE_CODE "tileA[ty][tx] = (row < numARows && aCol" /* the reference's code */

typedef struct {
    char dir[64], html[128];
} scratch_t;

static scratch_t make_scratch(void)
{
    scratch_t s;
    snprintf(s.dir, sizeof s.dir, "/tmp/cugrade-srcchk-XXXXXX");
    cr_assert_not_null(mkdtemp(s.dir));
    snprintf(s.html, sizeof s.html, "%s/report.html", s.dir);
    return s;
}

/* Grades file with the shipped datasets, writing an HTML report too. */
static graded_t grade_attack(const scratch_t *s, const char *file, char *const *env)
{
    const char *with[] = {"--html", s->html, NULL};
    graded_t g = grade_on("emu", file, with, env);
    cr_assert_eq(exit_code(&g), 0, "not graded (a grader fault?):\n%s", g.run.output);
    cr_assert_not_null(g.json, "%s", g.run.output);
    return g;
}

/* "compiles" failed with message in its output (first in it, if first),
 * nothing scored, and no stolen text in results.json or the reports. */
static void expect_refused(const scratch_t *s, const graded_t *g, const char *message, int first)
{
    json_object *compiles = test_named(g, "compiles");
    const char *out = str(compiles, "output");
    cr_expect(!passed(compiles), "compiled: %s", out);
    const char *at = strstr(out, message);
    cr_expect(at, "'%s' not in:\n%.3000s", message, out);
    const char *nl = strchr(out, '\n');
    cr_expect(!first || (at && nl && at == nl + 1), "not the log's first line:\n%.600s", out);
    cr_expect_eq(num(g->json, "score"), 0.0, "%s", message);
    char *html = read_file(s->html, NULL, NULL, 0);
    cr_assert_not_null(html, "no HTML report");
    const char *json = json_object_to_json_string(g->json);
    const char *leaks[] = {STOLEN, REFERENCE_CODE, NULL};
    for (int i = 0; leaks[i]; i++) {
        cr_expect_null(strstr(json, leaks[i]), "results.json holds '%s'", leaks[i]);
        cr_expect_null(strstr(g->run.output, leaks[i]), "the report holds '%s'", leaks[i]);
        cr_expect_null(strstr(html, leaks[i]), "the HTML report holds '%s'", leaks[i]);
    }
    free(html);
}

Test(srccheck_e2e, include_and_incbin_attacks_are_refused_before_compiling, .timeout = 300)
{
    const char *cases[][2] = {
        {"include_reference.cu", "include_reference.cu:10: refused: the submission includes "
                                 "\"../../reference/lab3/matmul.cu\" by a path with \"..\""},
        {"include_expected.cu", "include_expected.cu:9: refused: the submission includes "
                                "\"../../datasets/lab3/0/output.raw\" by a path with \"..\""},
        {"incbin_expected.cu", "incbin_expected.cu:17: refused: the submission has the assembler "
                               "directive .incbin, which reads a file"},
        {"incbin_macro.cu", "incbin_macro.cu:13: refused: the submission has the assembler "
                            "directive .incbin, which reads a file into the program while it is "
                            "compiled, in a string literal once macros are expanded"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        scratch_t s = make_scratch();
        char path[128];
        snprintf(path, sizeof path, ATTACKS "%s", cases[i][0]);
        double t0 = now_seconds();
        graded_t g = grade_attack(&s, path, NULL);
        cr_log_info("%s: refused in %.2f s", cases[i][0], now_seconds() - t0);
        expect_refused(&s, &g, cases[i][1], 0);
        release(&g);
        rm_rf(s.dir);
    }
}

/* The same by absolute paths, from a submission in a folder of its own. */
Test(srccheck_e2e, absolute_paths_to_the_checkout_are_refused, .timeout = 300)
{
    char cwd[PATH_MAX], text[2 * PATH_MAX + 200], file[128];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    const char *forms[][2] = {
        {"#include \"%s/reference/lab3/matmul.cu\"\n", "matmul.cu:1: refused: the submission "
                                                       "includes \"%s/reference/lab3/matmul.cu\" "
                                                       "by an absolute path"},
        {"int a;\nasm(\".incbin \\\"%s/datasets/lab3/0/output.raw\\\"\");\n",
         "matmul.cu:2: refused: the submission has the assembler directive .incbin"},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        scratch_t s = make_scratch();
        snprintf(file, sizeof file, "%s/matmul.cu", s.dir);
        snprintf(text, sizeof text, forms[i][0], cwd);
        write_text(file, text);
        graded_t g = grade_attack(&s, file, NULL);
        char message[2 * PATH_MAX];
        snprintf(message, sizeof message, forms[i][1], cwd);
        expect_refused(&s, &g, message, 0);
        release(&g);
        rm_rf(s.dir);
    }
}

/* A batch of an honest student and a refused one: both graded. */
Test(srccheck_e2e, a_refused_submission_does_not_stop_the_batch, .timeout = 300)
{
    scratch_t s = make_scratch();
    char subs[128], out[128], path[PATH_MAX + 200], datasets[128], rubric[128], cwd[PATH_MAX];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    snprintf(subs, sizeof subs, "%s/subs", s.dir);
    snprintf(out, sizeof out, "%s/out", s.dir);
    snprintf(datasets, sizeof datasets, "%s/ds", s.dir);
    snprintf(rubric, sizeof rubric, "%s/rubric.json", s.dir);
    const char *shapes[] = {"16x16x16", "33x17x9", NULL};
    make_datasets(datasets, shapes);
    write_text(rubric, "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"name\": \"compiles\","
                       " \"points\": 0}, \"datasets\": {\"points\": 1, \"time_limit_s\": 20},"
                         " \"hidden\": {\"count\": 0}}}}");
    snprintf(path, sizeof path, "%s/alice/lab3", subs);
    cr_assert_eq(mkdir_p(path, NULL, 0), 0);
    snprintf(path, sizeof path, "%s/mallory/lab3", subs);
    cr_assert_eq(mkdir_p(path, NULL, 0), 0);
    char *ref = read_file("reference/lab3/matmul.cu", NULL, NULL, 0);
    snprintf(path, sizeof path, "%s/alice/lab3/matmul.cu", subs);
    write_text(path, ref);
    free(ref);
    char attack[PATH_MAX + 64];
    snprintf(attack, sizeof attack, "#include \"%s/reference/lab3/matmul.cu\"\n", cwd);
    snprintf(path, sizeof path, "%s/mallory/lab3/matmul.cu", subs);
    write_text(path, attack);
    char *argv[] = {"bin/cugrade", "batch", "--lab", "lab3", "--out", out, "--backend", "emu",
                    "--checks", "none", "--datasets", datasets, "--rubric", rubric, subs, NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 240, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "batch failed:\n%s", r.output);
    snprintf(path, sizeof path, "%s/gradebook.csv", out);
    char *book = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(book, "%s", r.output);
    cr_expect(strstr(book, "alice,2,2,0,1,1\n"), "%s", book);
    cr_expect(strstr(book, "mallory,0,2,0,0,0\n"), "%s", book);
    free(book);
    snprintf(path, sizeof path, "%s/mallory/results.json", out);
    char *mallory = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(mallory);
    cr_expect(strstr(mallory, "matmul.cu:1: refused: the submission includes"), "%.2000s", mallory);
    cr_expect_null(strstr(mallory, REFERENCE_CODE));
    free(mallory);
    run_result_free(&r);
    rm_rf(s.dir);
}

/* The compiler limits: each attack fails "compiles" with the limit named
 * first in its log, as the student's failure (exit 0, results written),
 * within max_s. */
static void expect_stopped(const char *file, char *const *env, const char *message, double max_s)
{
    scratch_t s = make_scratch();
    graded_t g = grade_attack(&s, file, env);
    cr_log_info("%s: graded in %.2f s", file, g.run.wall_s);
    expect_refused(&s, &g, message, 1);
    cr_expect_lt(g.run.wall_s, max_s, "%s took %.1f s", file, g.run.wall_s);
    cr_expect_lt(strlen(json_object_to_json_string(g.json)), 1u << 20, "results.json too big");
    release(&g);
    rm_rf(s.dir);
}

Test(srccheck_e2e, a_flood_of_compiler_errors_is_cut_and_stopped, .timeout = 120)
{
    expect_stopped(ATTACKS "compile_flood.cu", NULL,
                   "cugrade: emucc printed more than 1024 KiB of messages and was stopped", 30);
}

Test(srccheck_e2e, a_compile_time_loop_is_stopped_by_the_cpu_limit, .timeout = 120)
{
    char *env[] = {"CUGRADE_COMPILE_CPU_S=1", NULL};
    expect_stopped(ATTACKS "compile_cpu.cu", env,
                   "cugrade: the compiler ran past its CPU-time limit of 1 s and was stopped", 30);
}

Test(srccheck_e2e, a_template_explosion_is_stopped_by_the_memory_limit, .timeout = 120)
{
    char *env[] = {"CUGRADE_COMPILE_MEMORY_MB=256", NULL};
    expect_stopped(ATTACKS "compile_memory.cu", env,
                   "cugrade: the compiler ran out of memory (256 MiB for each of its processes)",
                   30);
}

/* The gpu backend, without a GPU (compile only, as test_batch_gpu does):
 * nvcc would compile both, the reference's kernel and the .incbin that a
 * macro spells, which only the host side's preprocessed output (nvcc -E
 * -U__CUDA_ARCH__) shows. Skipped without nvcc. */
Test(srccheck_e2e, the_gpu_backend_refuses_them_too, .timeout = 300)
{
    char nvcc[4096];
    if (find_program("nvcc", nvcc, sizeof nvcc) != 0 && !is_file("/usr/local/cuda/bin/nvcc"))
        cr_skip("nvcc not found: the gpu backend cannot build here");
    char *env[] = {"CUGRADE_GPU_COUNT=1", "CUGRADE_NVCC_ARCH=sm_90", "CUGRADE_CANARY=skip", NULL};
    const char *cases[][2] = {
        {ATTACKS "include_reference.cu", "include_reference.cu:10: refused: the submission "
                                         "includes \"../../reference/lab3/matmul.cu\""},
        {ATTACKS "incbin_macro.cu", "incbin_macro.cu:13: refused: the submission has the "
                                    "assembler directive .incbin"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        scratch_t s = make_scratch();
        const char *with[] = {"--checks", "none", "--html", s.html, NULL};
        graded_t g = grade_on("native", cases[i][0], with, env);
        cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
        expect_refused(&s, &g, cases[i][1], 0);
        release(&g);
        rm_rf(s.dir);
    }
}
