/* test_build_cache.c - end to end: the build cache under gradings that
 * start together. A cached object (the lab driver, the timing objects) is
 * compiled once, by one grader, while the others wait for it; a GPU batch
 * compiles the timing objects beside its canary, before any child needs
 * them. An nvcc of the test's own on PATH (no GPU here: CUGRADE_GPU_COUNT=1
 * pretends one) logs what it is asked to compile. Runs from the repository
 * root. */
#include "tree_case.h"

/* Where a fake nvcc logs (<t>/name), and its FAKE_NVCC_LOG= entry. */
static void fake_nvcc_log(const tree_t *t, const char *name, char *log, size_t loglen,
                          char *log_env, size_t envlen)
{
    snprintf(log, loglen, "%s/%s", t->dir, name);
    snprintf(log_env, envlen, "FAKE_NVCC_LOG=%s", log);
}

/* Three gradings that start together on a cold build cache compile the lab
 * driver once: the others wait for it and find it made (a batch's first
 * children, each compiling the cached objects anew, took 5 s each on an
 * H200 host). The fake nvcc takes a second over the driver and logs each
 * compile of it; the rest fails, a grader fault, after the driver. */
static const char slow_driver_nvcc[] =
    "#!/bin/sh\n"
    "case \"$*\" in *driver.cu*) sleep 1; echo driver >> \"$FAKE_NVCC_LOG\"\n"
    "    " FAKE_NVCC_TOUCH_OUTPUT "exit 0;; esac\n"
    "echo \"nvcc fatal   : not this one\" >&2\n"
    "exit 1\n";

Test(build_cache, gradings_started_together_compile_the_cached_driver_once, .timeout = 120)
{
    tree_t t = make_tree(1, NULL);
    char path_env[4400], log_env[192], log[160];
    fake_nvcc_on_path(&t, slow_driver_nvcc, path_env, sizeof path_env);
    fake_nvcc_log(&t, "driver-compiles", log, sizeof log, log_env, sizeof log_env);
    enum { N = 3 };
    char json[N][160];
    char *argv[N][20];
    char *envp[] = {t.env_root, path_env, log_env, "CUGRADE_GPU_COUNT=1", "CUGRADE_NVCC=", NULL};
    run_spec_t specs[N];
    run_result_t results[N];
    for (int i = 0; i < N; i++) {
        snprintf(json[i], sizeof json[i], "%s/r%d.json", t.dir, i);
        char *a[] = {"bin/cugrade", "run", "--lab", "lab3", "--backend", "native", "--checks",
                     "none", "--datasets", ONE_DATASET, "--json", json[i],
                     SUB "compile_error.cu", NULL};
        memcpy(argv[i], a, sizeof a);
        specs[i] = (run_spec_t){.argv = argv[i], .extra_env = envp, .timeout_s = 60,
                                .output_cap = 1 << 20};
    }
    run_many(specs, results, N, N);
    for (int i = 0; i < N; i++) {
        cr_assert(exited_with(&results[i], 2), "%s", results[i].output);
        run_result_free(&results[i]);
    }
    size_t len = 0;
    char *text = read_file(log, &len, NULL, 0);
    cr_assert_not_null(text, "the driver was never compiled");
    cr_assert_str_eq(text, "driver\n", "compiled more than once: %s", text);
    free(text);
    rm_rf(t.dir);
}

/* A GPU batch compiles the lab's timing objects beside its canary, before
 * any child needs them (each of a cold batch's first children waited 5 s for
 * them): with an nvcc that compiles anything and links nothing, the canary
 * fails, and by then perf.cu and the timed driver were compiled. */
static const char logging_nvcc[] =
    "#!/bin/sh\n"
    "case \" $* \" in *\" -c \"*) echo \"$*\" >> \"$FAKE_NVCC_LOG\"\n"
    "    " FAKE_NVCC_TOUCH_OUTPUT "exit 0;; esac\n"
    "echo \"nvcc fatal   : cannot link\" >&2\n"
    "exit 1\n";

Test(build_cache, a_gpu_batch_compiles_the_timing_objects_beside_its_canary, .timeout = 120)
{
    tree_t t = make_tree(1, NULL);
    const char *const students[][2] = {{"alice", "reference/lab3/matmul.cu"}};
    char subs[128], out[128], path_env[4400], log_env[192], log[160];
    make_class(&t, students, 1, subs, sizeof subs);
    snprintf(out, sizeof out, "%s/out", t.dir);
    fake_nvcc_on_path(&t, logging_nvcc, path_env, sizeof path_env);
    fake_nvcc_log(&t, "compiles", log, sizeof log, log_env, sizeof log_env);
    const char *env[] = {path_env, log_env, "CUGRADE_GPU_COUNT=1", "CUGRADE_NVCC=",
                         "CUGRADE_NVCC_ARCH=sm_90", NULL};
    const char *args[] = {"batch", "--lab", "lab3", "--backend", "native", "--jobs", "1",
                          "--datasets", ONE_DATASET, "--out", out, subs, NULL};
    run_result_t r = cugrade(&t, args, env);
    cr_assert(exited_with(&r, 2), "the canary cannot link: %s", r.output);
    cr_assert(strstr(r.output, "stopped before grading anyone"), "%s", r.output);
    char *text = read_file(log, NULL, NULL, 0);
    cr_assert_not_null(text, "nothing was compiled");
    cr_expect(strstr(text, "/kinds/matmul/perf.cu -o") != NULL, "perf.cu not compiled:\n%s",
              text);
    cr_expect(strstr(text, "-DCUGRADE_TIMING_TAIL") != NULL, "no timed driver:\n%s", text);
    free(text);
    run_result_free(&r);
    rm_rf(t.dir);
}
