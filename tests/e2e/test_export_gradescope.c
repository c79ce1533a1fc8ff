/* test_export_gradescope.c - `cugrade export gradescope`: the zip unpacked
 * into a temporary root that mimics /autograder (AUTOGRADER_ROOT), setup.sh
 * run there (the packages are installed here, so it installs nothing; nvcc
 * for the executor is this machine's, $CUGRADE_NVCC, where Gradescope's
 * image gets NVIDIA's compiler wheels: tools/cuda_pip.sh, bench/cuda_pip.sh),
 * and run_autograder for the reference, the stub, a buggy kernel, a
 * submission without the file and a broken grader, on the executor (the
 * default, --backend vgpu); every results.json is checked
 * against Gradescope's documented format (gradescope-autograders.readthedocs.io,
 * "Autograder Specifications": results.json). */
#include "export_case.h"

static const char *const VISIBILITY[] = {"hidden", "after_due_date", "after_published",
                                         "visible", NULL};
static const char *const FORMATS[] = {"text", "html", "simple_format", "md", "ansi", NULL};

static void check_test(json_object *t)
{
    static const char *const keys[] = {"score", "max_score", "status", "name", "name_format",
                                       "number", "output", "output_format", "tags",
                                       "visibility", "extra_data", NULL};
    static const char *const status[] = {"passed", "failed", NULL};
    only_keys(t, keys, "tests[]");
    typed(t, "score", json_type_double);
    typed(t, "max_score", json_type_double);
    typed(t, "name", json_type_string);
    typed(t, "number", json_type_string);
    typed(t, "output", json_type_string);
    enum_key(t, "status", status);
    enum_key(t, "visibility", VISIBILITY);
    enum_key(t, "output_format", FORMATS);
    json_object *v;
    if (json_object_object_get_ex(t, "tags", &v))
        cr_expect(json_object_is_type(v, json_type_array));
    if (json_object_object_get_ex(t, "extra_data", &v))
        cr_expect(json_object_is_type(v, json_type_object));
}

static void check_leaderboard(json_object *board)
{
    static const char *const keys[] = {"name", "value", "order", NULL};
    static const char *const order[] = {"asc", "desc", NULL};
    cr_assert(json_object_is_type(board, json_type_array));
    for (size_t i = 0; i < json_object_array_length(board); i++) {
        json_object *e = json_object_array_get_idx(board, i);
        only_keys(e, keys, "leaderboard[]");
        typed(e, "name", json_type_string);
        json_object *v = NULL;
        cr_assert(json_object_object_get_ex(e, "value", &v), "leaderboard value missing");
        cr_expect(is_number(v) || json_object_is_type(v, json_type_string));
        enum_key(e, "order", order);
    }
}

/* The documented fields and their types; returns the score. */
static double check_results(json_object *r)
{
    static const char *const keys[] = {"score", "execution_time", "output", "output_format",
                                       "test_output_format", "test_name_format", "visibility",
                                       "stdout_visibility", "extra_data", "tests", "leaderboard",
                                       NULL};
    cr_assert_not_null(r, "no results.json");
    only_keys(r, keys, "results.json");
    double score = json_object_get_double(typed(r, "score", json_type_double));
    cr_expect(json_object_is_type(typed(r, "execution_time", json_type_double), json_type_int),
              "execution_time is whole seconds");
    typed(r, "output", json_type_string);
    enum_key(r, "output_format", FORMATS);
    enum_key(r, "test_output_format", FORMATS);
    enum_key(r, "visibility", VISIBILITY);
    enum_key(r, "stdout_visibility", VISIBILITY);
    typed(r, "output_format", json_type_string);
    json_object *v;
    if (json_object_object_get_ex(r, "extra_data", &v))
        cr_expect(json_object_is_type(v, json_type_object));
    if (json_object_object_get_ex(r, "leaderboard", &v))
        check_leaderboard(v);
    json_object *tests = typed(r, "tests", json_type_array);
    for (size_t i = 0; i < json_object_array_length(tests); i++)
        check_test(json_object_array_get_idx(tests, i));
    return score;
}

static double max_of(json_object *r)
{
    json_object *tests = json_object_object_get(r, "tests");
    double m = 0;
    for (size_t i = 0; i < json_object_array_length(tests); i++)
        m += num(json_object_array_get_idx(tests, i), "max_score");
    return m;
}

typedef struct {
    char tmp[64];
    char root[128];
    char env[5][PATH_MAX + 32];
    char *envp[6];
} ag_t;

/* Exports lab3, unzips it into <tmp>/ag/source and runs setup.sh there. */
static void setup_autograder(ag_t *a)
{
    temp_dir(a->tmp, sizeof a->tmp, "gradescope");
    snprintf(a->root, sizeof a->root, "%s/ag", a->tmp);
    char zip[128], cmd[1024];
    snprintf(zip, sizeof zip, "%s/autograder.zip", a->tmp);
    run_result_t r = cugrade_export("gradescope", "lab3", zip);
    cr_assert(ok(&r), "export: %s", r.output);
    run_result_free(&r);
    /* As on Gradescope's image: no CUDA toolkit on PATH; setup.sh is given the nvcc it
     * would install (this machine's, standing in for the wheels' nvcc) */
    char nvcc[PATH_MAX];
    if (find_program("nvcc", nvcc, sizeof nvcc) != 0)
        cr_skip("nvcc not found: the executor's export cannot be set up here");
    snprintf(a->env[0], sizeof a->env[0], "AUTOGRADER_ROOT=%s", a->root);
    snprintf(a->env[1], sizeof a->env[1], "PATH=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin");
    snprintf(a->env[2], sizeof a->env[2], "NVCC=/nonexistent/nvcc");
    snprintf(a->env[3], sizeof a->env[3], "CUDA_HOME=/nonexistent");
    snprintf(a->env[4], sizeof a->env[4], "CUGRADE_NVCC=%s", nvcc);
    for (int i = 0; i < 5; i++)
        a->envp[i] = a->env[i];
    snprintf(cmd, sizeof cmd,
             "set -e; mkdir -p %s/source %s/submission %s/results; cd %s/source; unzip -q %s",
             a->root, a->root, a->root, a->root, zip);
    r = sh(NULL, cmd, NULL, 60);
    cr_assert(ok(&r), "unzip: %s", r.output);
    run_result_free(&r);
    snprintf(cmd, sizeof cmd, "%s/source/setup.sh", a->root);
    r = sh(NULL, cmd, a->envp, 600);
    cr_assert(ok(&r), "setup.sh: %s", r.output);
    run_result_free(&r);
}

/* Puts file (a path in this tree) into the submission folder as name, under
 * a sub-folder like a zip upload, and runs run_autograder; its results.json. */
static json_object *autograde(const ag_t *a, const char *file, const char *name)
{
    char cmd[2048], results[256];
    snprintf(cmd, sizeof cmd,
             "set -e; rm -rf %s/submission/* %s/results/*; mkdir -p %s/submission/lab3; "
             "if [ -n '%s' ]; then cp %s %s/submission/lab3/%s; fi; %s/run_autograder",
             a->root, a->root, a->root, file, file, a->root, name, a->root);
    run_result_t r = sh(NULL, cmd, (char *const *)a->envp, 600);
    cr_assert(ok(&r), "run_autograder: %s", r.output);
    run_result_free(&r);
    snprintf(results, sizeof results, "%s/results/results.json", a->root);
    return json_object_from_file(results);
}

Test(export_gradescope, grades_reference_stub_and_buggy_on_the_executor, .timeout = 1200)
{
    ag_t a = {0};
    setup_autograder(&a);
    char path[256];
    snprintf(path, sizeof path, "%s/secret/hidden-seed", a.root);
    cr_expect_eq(file_mode(path), 0600, "the secret is moved out of source/, mode 0600");
    snprintf(path, sizeof path, "%s/source/secret/hidden-seed", a.root);
    cr_expect(!is_file(path), "no copy of the secret is left in source/");
    snprintf(path, sizeof path, "%s/run_autograder", a.root);
    cr_expect(access(path, X_OK) == 0, "run_autograder is at the root, executable");

    json_object *r = autograde(&a, "reference/lab3/matmul.cu", "matmul.cu");
    double score = check_results(r);
    cr_expect_gt(max_of(r), 0);
    cr_expect_eq(score, max_of(r), "the reference gets full marks on the executor: %g", score);
    cr_expect_str_eq(str(r, "output_format"), "text");
    json_object *extra = json_object_object_get(r, "extra_data");
    cr_expect_str_eq(str(extra, "backend"), "vgpu");
    cr_expect_not_null(strstr(str(extra, "sandbox"), "bubblewrap"), "the sandbox is recorded");
    json_object_put(r);

    r = autograde(&a, "student/lab3/matmul.cu", "matmul.cu");
    cr_expect_eq(check_results(r), 0, "the stub scores 0");
    json_object_put(r);

    r = autograde(&a, SUB "missing_second_barrier.cu", "kernel.cu"); /* the only .cu */
    score = check_results(r);
    cr_expect(score > 0 && score < max_of(r), "a buggy kernel gets part: %g", score);
    cr_expect(strstr(str(r, "output"), "race") != NULL, "the output says why");
    json_object_put(r);

    r = autograde(&a, "", "");
    check_results(r);
    cr_expect(strstr(str(r, "output"), "no matmul.cu found") != NULL, "says the file is missing");
    json_object_put(r);
    rm_rf(a.tmp);
}

Test(export_gradescope, a_grader_fault_writes_results_that_say_so, .timeout = 1200)
{
    ag_t a = {0};
    setup_autograder(&a);
    char lib[256];
    snprintf(lib, sizeof lib, "%s/source/cugrade/bin/cugrade-vgpu", a.root);
    cr_assert_eq(unlink(lib), 0);
    json_object *r = autograde(&a, "reference/lab3/matmul.cu", "matmul.cu");
    check_results(r);
    json_object *extra = json_object_object_get(r, "extra_data");
    cr_expect(json_object_get_boolean(json_object_object_get(extra, "grader_fault")));
    cr_expect(strstr(str(r, "output"), "AUTOGRADER FAILED") != NULL, "%s", str(r, "output"));
    cr_expect(strstr(str(r, "output"), "not a grade") != NULL);
    json_object_put(r);
    rm_rf(a.tmp);
}

Test(export_gradescope, the_zip_holds_the_scripts_the_tree_and_the_secret)
{
    char tmp[64], zip[128], cmd[512];
    temp_dir(tmp, sizeof tmp, "gradescope");
    snprintf(zip, sizeof zip, "%s/autograder.zip", tmp);
    run_result_t r = cugrade_export("gradescope", "lab3", zip);
    cr_assert(ok(&r), "%s", r.output);
    run_result_free(&r);
    snprintf(cmd, sizeof cmd, "unzip -Z1 %s", zip);
    r = sh(NULL, cmd, NULL, 60);
    cr_assert(ok(&r));
    const char *want[] = {"setup.sh\n", "run_autograder\n", "gradescope_results.py\n",
                          "secret/hidden-seed\n", "cugrade/Makefile\n", "cugrade/rubric.json\n",
                          "cugrade/labs/lab3/lab.json\n", "cugrade/labs/kinds/matmul/driver.cu\n",
                          "cugrade/reference/lab3/matmul.cu\n", "cugrade/datasets/lab3/0/",
                          "cugrade/tools/deps.txt\n", "cugrade/emu/", NULL};
    for (int i = 0; want[i]; i++)
        cr_expect(strstr(r.output, want[i]) != NULL, "the zip lacks %s", want[i]);
    cr_expect(strstr(r.output, "cugrade/build/") == NULL, "no build output");
    cr_expect(strstr(r.output, "cugrade/labs/lab2/") == NULL, "only the lab's own files");
    cr_expect(strstr(r.output, "submission") == NULL);
    run_result_free(&r);
    snprintf(cmd, sizeof cmd, "unzip -p %s secret/hidden-seed | cmp - " HIDDEN_SEED, zip);
    r = sh(NULL, cmd, NULL, 60);
    cr_expect(ok(&r), "the secret is the grader's (here the tests' fixture): %s", r.output);
    run_result_free(&r);
    rm_rf(tmp);
}

/* A dataset too large to ship (manifest "generated") is not in the zip: the setup makes it once,
 * from its manifest line (tools/make_datasets.sh --missing), not each grading */
Test(export_gradescope, generated_datasets_are_made_by_the_setup_not_shipped)
{
    char tmp[64], zip[128], cmd[512];
    temp_dir(tmp, sizeof tmp, "gradescope");
    snprintf(zip, sizeof zip, "%s/autograder.zip", tmp);
    run_result_t r = cugrade_export("gradescope", "vecadd", zip);
    cr_assert(ok(&r), "%s", r.output);
    run_result_free(&r);
    snprintf(cmd, sizeof cmd, "unzip -Z1 %s", zip);
    r = sh(NULL, cmd, NULL, 60);
    cr_assert(ok(&r));
    cr_expect(strstr(r.output, "cugrade/datasets/vecadd/7/output.raw\n") != NULL, "%s", r.output);
    cr_expect(strstr(r.output, "cugrade/datasets/vecadd/manifest.txt\n") != NULL);
    cr_expect(strstr(r.output, "cugrade/datasets/vecadd/8/") == NULL, "the generated 2^20 + 1 is not shipped");
    cr_expect(strstr(r.output, ".generate.lock") == NULL);
    run_result_free(&r);
    snprintf(cmd, sizeof cmd, "unzip -p %s setup.sh | grep -q 'make_datasets.sh\" --missing vecadd'", zip);
    r = sh(NULL, cmd, NULL, 60);
    cr_expect(ok(&r), "the setup makes it");
    run_result_free(&r);
    rm_rf(tmp);
}

/* The backend is the export's: the executor by default, whose setup finds
 * or installs nvcc; the emulator with --backend emu, whose needs none. */
Test(export_gradescope, the_scripts_grade_on_the_backend_the_export_names)
{
    char tmp[64], zip[128], cmd[512];
    temp_dir(tmp, sizeof tmp, "gradescope");
    const char *backends[] = {NULL, "emu"};
    for (int b = 0; b < 2; b++) {
        snprintf(zip, sizeof zip, "%s/autograder-%d.zip", tmp, b);
        char *argv[] = {"bin/cugrade", "export", "gradescope", "--lab", "lab3", "--out", zip,
                        b ? "--backend" : NULL, (char *)backends[b], NULL};
        run_spec_t spec = {.argv = argv, .timeout_s = 120};
        run_result_t r;
        run_one(&spec, &r);
        cr_assert(ok(&r), "%s", r.output);
        run_result_free(&r);
        snprintf(cmd, sizeof cmd, "unzip -p %s run_autograder setup.sh", zip);
        r = sh(NULL, cmd, NULL, 60);
        cr_assert(ok(&r));
        cr_expect(strstr(r.output, b ? "--backend emu --color never" : "--backend vgpu --color never"),
                  "%s", r.output);
        cr_expect(strstr(r.output, b ? "backend=emu\n" : "backend=vgpu\n"), "%s", r.output);
        cr_expect(strstr(r.output, "tools/cuda_pip.sh\" \"$root/cuda\")"), "setup.sh installs nvcc where "
                  "there is none");
        run_result_free(&r);
    }
    char *bad[] = {"bin/cugrade", "export", "gradescope", "--lab", "lab3", "--out", zip, "--backend", "gpu", NULL};
    run_spec_t spec = {.argv = bad, .timeout_s = 120};
    run_result_t r;
    run_one(&spec, &r);
    cr_expect(r.exited && r.exit_code == 64, "a package's grader has no GPU: %s", r.output);
    cr_expect(strstr(r.output, "bad --backend 'gpu'"), "%s", r.output);
    run_result_free(&r);
    rm_rf(tmp);
}

Test(export_gradescope, an_unknown_lab_is_refused_naming_it)
{
    char tmp[64], zip[128];
    temp_dir(tmp, sizeof tmp, "gradescope");
    snprintf(zip, sizeof zip, "%s/autograder.zip", tmp);
    run_result_t r = cugrade_export("gradescope", "lab99", zip);
    cr_expect(r.exited && r.exit_code == 2);
    cr_expect(strstr(r.output, "unknown lab 'lab99'") != NULL, "%s", r.output);
    cr_expect(!is_file(zip));
    run_result_free(&r);
    rm_rf(tmp);
}

Test(export_gradescope, an_unwritable_out_is_refused_and_leaves_nothing)
{
    run_result_t r = cugrade_export("gradescope", "lab3", "/proc/cugrade/autograder.zip");
    cr_expect(r.exited && r.exit_code == 2);
    cr_expect(strstr(r.output, "/proc/cugrade/autograder.zip") != NULL, "%s", r.output);
    run_result_free(&r);
}
