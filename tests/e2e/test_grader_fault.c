/* test_grader_fault.c - end to end: a grader fault is never a student's zero.
 * Each test builds a throw-away cugrade tree (CUGRADE_ROOT: bin/, emu/,
 * labs/, datasets/ and rubric.json linked to this checkout; build/ and
 * reference/ its own) with one piece broken: the emulator runtime missing,
 * a failing nvcc on PATH, a reference that does not build or fails. Grading
 * must then exit 2 with "cannot grade" and what failed, and write no score;
 * a batch must stop before anyone is graded, or mark the students it could
 * not grade "not graded" and leave them to --resume. A compile jail whose
 * sandbox does not start (a bwrap on PATH that fails as bwrap does, at one
 * step of the student's build) is a grader fault too. A student's compile
 * error with a healthy toolchain stays the student's, and the canary that
 * tells the two apart is paid once (its stamp). Runs from the repository
 * root; one-dataset grading (datasets/lab3/17, 1x1x1) keeps it fast. */
#include "tree_case.h"

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>

#include <sys/stat.h>

/* `cugrade run` of one submission on one dataset, results into json. */
static run_result_t grade_in(const tree_t *t, const char *backend, const char *submission,
                             const char *json, const char *const *env)
{
    const char *args[] = {"run", "--lab", "lab3", "--backend", backend, "--checks", "none",
                          "--color", "never", "--datasets", ONE_DATASET, "--json", json,
                          submission, NULL};
    return cugrade(t, args, env);
}

static void json_path(const tree_t *t, char *out, size_t len)
{
    snprintf(out, len, "%s/r.json", t->dir);
}

static run_result_t batch_in(const tree_t *t, const char *subs, const char *out, int resume,
                             const char *const *env)
{
    const char *args[] = {"batch", "--lab", "lab3", "--backend", "emu", "--checks", "none",
                          "--jobs", "1", "--datasets", ONE_DATASET, "--out", out,
                          resume ? "--resume" : subs, resume ? subs : NULL, NULL};
    return cugrade(t, args, env);
}

static int has_result(const char *out, const char *id, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", out, id, file);
    return is_file(path);
}

/* A class of two in tree t: alice (the reference) and bob (the file bob);
 * its folder in subs, the batch's results folder in out. */
static void alice_and_bob(const tree_t *t, const char *bob, char *subs, char *out)
{
    const char *const students[][2] = {{"alice", "reference/lab3/matmul.cu"}, {"bob", bob}};
    make_class(t, students, 2, subs, 128);
    snprintf(out, 128, "%s/out", t->dir);
}

/* ---- 1. the emulator runtime is missing ----------------------------------- */

Test(grader_fault, missing_runtime_is_not_the_references_zero, .timeout = 120)
{
    tree_t t = make_tree(0, NULL);
    char json[128];
    json_path(&t, json, sizeof json);
    write_text(json, "{\"score\": 90}\n"); /* an earlier run's: must not stand for this one */
    run_result_t r = grade_in(&t, "emu", "reference/lab3/matmul.cu", json, NULL);
    cr_assert(exited_with(&r, 2), "%s", r.output);
    cr_assert(strstr(r.output, "cugrade: cannot grade: the emulator runtime "), "%s", r.output);
    cr_assert(strstr(r.output, "build/libcugrade_emu.a is missing"), "%s", r.output);
    cr_assert(strstr(r.output, "what to do: run `make`"), "%s", r.output);
    cr_assert(!strstr(r.output, "does not compile") && !strstr(r.output, "Score:"), "%s", r.output);
    cr_assert(!is_file(json), "a results.json survived a grader fault");
    run_result_free(&r);
    rm_rf(t.dir);
}

/* The vgpu backend's runtime (build/libcugrade_vcudart.a, which a
 * submission is linked with) missing: a grader fault, not a link error of
 * the student's. */
Test(grader_fault, missing_vgpu_runtime_is_not_the_students_link_error, .timeout = 120)
{
    tree_t t = make_tree(1, NULL);
    char json[128];
    json_path(&t, json, sizeof json);
    run_result_t r = grade_in(&t, "vgpu", "reference/lab3/matmul.cu", json, NULL);
    cr_assert(exited_with(&r, 2), "%s", r.output);
    cr_assert(strstr(r.output, "cugrade: cannot grade: the CUDA runtime a vgpu program links "), "%s",
              r.output);
    cr_assert(strstr(r.output, "build/libcugrade_vcudart.a is missing (not the student's fault)"), "%s",
              r.output);
    cr_assert(!strstr(r.output, "Score:"), "%s", r.output);
    cr_assert(!is_file(json), "a results.json of a grader fault");
    run_result_free(&r);
    rm_rf(t.dir);
}

Test(grader_fault, missing_runtime_stops_a_batch_before_anyone_is_graded, .timeout = 120)
{
    tree_t t = make_tree(0, NULL);
    char subs[128], out[128];
    alice_and_bob(&t, SUB "compile_error.cu", subs, out);
    run_result_t r = batch_in(&t, subs, out, 0, NULL);
    cr_assert(exited_with(&r, 2), "%s", r.output);
    cr_assert(strstr(r.output, "cannot grade: the emulator runtime"), "%s", r.output);
    cr_assert(strstr(r.output, "stopped before grading anyone"), "%s", r.output);
    static const char *const ids[] = {"alice", "bob"};
    for (int i = 0; i < 2; i++)
        cr_assert(!has_result(out, ids[i], "results.json"), "%s got a result", ids[i]);
    cr_assert(!has_result(out, "", "gradebook.csv"), "a gradebook was written");
    run_result_free(&r);
    rm_rf(t.dir);
}

/* ---- 2. a broken nvcc ------------------------------------------------------------
 * There is no GPU here and `--backend native` refuses to start without one, so
 * CUGRADE_GPU_COUNT=1 pretends there is one: grading then goes through the
 * native backend's build path (nvcc) and fails there, before anything needs
 * the device. CUGRADE_NVCC is emptied so that nvcc is looked up in PATH. */

static const char fake_nvcc[] =
    "#!/bin/sh\n"
    "# a broken nvcc; FAKE_NVCC_DRIVER_OK=1: it still 'compiles' the lab driver\n"
    "case \"$*\" in *driver.cu*) if [ \"$FAKE_NVCC_DRIVER_OK\" = 1 ]; then\n"
    "    " FAKE_NVCC_TOUCH_OUTPUT "exit 0; fi;; esac\n"
    "echo \"nvcc fatal   : Unsupported gpu architecture 'compute_native'\" >&2\n"
    "exit 1\n";

static run_result_t grade_with_fake_nvcc(const tree_t *t, const char *json, int driver_ok)
{
    char path_env[4400];
    fake_nvcc_on_path(t, fake_nvcc, path_env, sizeof path_env);
    const char *env[] = {path_env, "CUGRADE_GPU_COUNT=1", "CUGRADE_NVCC=",
                         driver_ok ? "FAKE_NVCC_DRIVER_OK=1" : "FAKE_NVCC_DRIVER_OK=0", NULL};
    return grade_in(t, "native", SUB "compile_error.cu", json, env);
}

Test(grader_fault, broken_nvcc_fails_the_lab_driver_not_the_student, .timeout = 120)
{
    tree_t t = make_tree(1, NULL);
    char json[128];
    json_path(&t, json, sizeof json);
    run_result_t r = grade_with_fake_nvcc(&t, json, 0);
    cr_assert(exited_with(&r, 2), "%s", r.output);
    cr_assert(strstr(r.output, "cugrade: cannot grade: the lab driver "), "%s", r.output);
    cr_assert(strstr(r.output, "does not build on the native backend"), "%s", r.output);
    cr_assert(strstr(r.output, "nvcc fatal") && strstr(r.output, "command: "), "%s", r.output);
    cr_assert(!strstr(r.output, "compiles") && !is_file(json), "%s", r.output);
    run_result_free(&r);
    rm_rf(t.dir);
}

/* cugrade's own crash (grader/util/crash.c): said to be the grader's, with
 * its stack, and still an end by the signal, which a batch counts as a
 * grading that could not be made. The nvcc here crashes the cugrade that
 * runs it (SIGSEGV, as a bug in cugrade would). */
Test(grader_fault, a_crash_of_cugrade_itself_says_it_is_the_graders, .timeout = 120)
{
    tree_t t = make_tree(1, NULL);
    char json[128], path_env[4400];
    json_path(&t, json, sizeof json);
    fake_nvcc_on_path(&t, "#!/bin/sh\nkill -SEGV $PPID\nsleep 5\nexit 1\n", path_env,
                      sizeof path_env);
    const char *env[] = {path_env, "CUGRADE_GPU_COUNT=1", "CUGRADE_NVCC=", NULL};
    run_result_t r = grade_in(&t, "native", SUB "compile_error.cu", json, env);
    cr_expect(r.signaled && r.term_signal == SIGSEGV, "ended: exited %d (%d), signal %d:\n%s",
              r.exited, r.exit_code, r.term_signal, r.output);
    cr_expect(strstr(r.output, "cugrade: cannot grade: the grader itself crashed (signal 11, a "
                               "bug in cugrade, not the submission's fault)"),
              "%s", r.output);
    cr_expect(strstr(r.output, "bin/cugrade(") != NULL, "no frame of cugrade's:\n%s", r.output);
    cr_expect(!is_file(json));
    run_result_free(&r);
    rm_rf(t.dir);
}

/* The driver "builds", the student's file does not: the canary (the
 * reference, through the same nvcc) does not build either, so it is nvcc. */
Test(grader_fault, broken_nvcc_is_told_from_a_compile_error_by_the_canary, .timeout = 120)
{
    tree_t t = make_tree(1, NULL);
    char json[128];
    json_path(&t, json, sizeof json);
    run_result_t r = grade_with_fake_nvcc(&t, json, 1);
    cr_assert(exited_with(&r, 2), "%s", r.output);
    cr_assert(strstr(r.output, "cugrade: cannot grade: the lab's reference "), "%s", r.output);
    cr_assert(strstr(r.output, "does not build on the native backend"), "%s", r.output);
    cr_assert(strstr(r.output, "nvcc fatal"), "%s", r.output);
    cr_assert(!is_file(json), "a results.json was written");
    run_result_free(&r);
    rm_rf(t.dir);
}

/* ---- 3. the lab's reference fails -------------------------------------------- */

Test(grader_fault, a_reference_that_does_not_build_is_no_students_zero, .timeout = 120)
{
    tree_t t = make_tree(1, "this is not CUDA\n");
    char json[128];
    json_path(&t, json, sizeof json);
    run_result_t r = grade_in(&t, "emu", SUB "compile_error.cu", json, NULL);
    cr_assert(exited_with(&r, 2), "%s", r.output);
    cr_assert(strstr(r.output, "cugrade: cannot grade: the lab's reference "), "%s", r.output);
    cr_assert(strstr(r.output, "does not build on the emu backend"), "%s", r.output);
    cr_assert(strstr(r.output, "this is not CUDA"), "the log excerpt is missing:\n%s", r.output);
    cr_assert(!is_file(json), "a results.json was written");
    run_result_free(&r);
    /* a submission that passes needs no canary: it is graded as usual */
    r = grade_in(&t, "emu", "reference/lab3/matmul.cu", json, NULL);
    cr_assert(exited_with(&r, 0), "%s", r.output);
    cr_assert(strstr(r.output, "1 of 1 datasets passed") || strstr(r.output, "(1 of 1"), "%s",
              r.output);
    run_result_free(&r);
    rm_rf(t.dir);
}

Test(grader_fault, a_reference_that_fails_its_dataset_is_no_students_zero, .timeout = 120)
{
    tree_t t = make_tree(1, "void launchMatrixMultiplyShared(const float *, const float *, float *,"
                            " int, int, int, int, int, int) {}\n");
    char json[128];
    json_path(&t, json, sizeof json);
    run_result_t r = grade_in(&t, "emu", SUB "compile_error.cu", json, NULL);
    cr_assert(exited_with(&r, 2), "%s", r.output);
    cr_assert(strstr(r.output, "cannot grade: the lab's reference "), "%s", r.output);
    cr_assert(strstr(r.output, "fails dataset 17 (1x1x1) on the emu backend"), "%s", r.output);
    cr_assert(!is_file(json), "a results.json was written");
    run_result_free(&r);
    rm_rf(t.dir);
}

/* ---- 4. the normal path: a compile error is the student's ------------------ */

Test(grader_fault, a_compile_error_with_a_healthy_toolchain_is_the_students, .timeout = 120)
{
    const char *extra[] = {"--datasets", ONE_DATASET, "--checks", "none", NULL};
    graded_t g = grade(SUB "compile_error.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *compiles = test_named(&g, "compiles");
    cr_assert(!passed(compiles));
    cr_assert(strstr(str(compiles, "output"), "does not compile"), "%s", str(compiles, "output"));
    cr_assert(strstr(str(compiles, "output"),
                     "the lab's reference compiles with the same toolchain"),
              "%s", str(compiles, "output"));
    cr_assert_float_eq(num(g.json, "score"), 0.0, 1e-9);
    release(&g);
}

/* ---- 5. the canary is paid once --------------------------------------------- */

static const char *canary_note(const char *json)
{
    static char note[512];
    json_object *j = json_object_from_file(json), *extra;
    cr_assert_not_null(j, "no results.json");
    cr_assert(json_object_object_get_ex(j, "extra_data", &extra));
    snprintf(note, sizeof note, "%s", str(extra, "canary"));
    json_object_put(j);
    return note;
}

static struct timespec mtime_of(const char *path)
{
    struct stat st;
    cr_assert_eq(stat(path, &st), 0, "no %s", path);
    return st.st_mtim;
}

Test(grader_fault, the_canary_is_cached_until_the_toolchain_changes, .timeout = 120)
{
    tree_t t = make_tree(1, NULL);
    char json[128], stamp[256];
    json_path(&t, json, sizeof json);
    snprintf(stamp, sizeof stamp, "%s/build/canary/lab3-emu.ok", t.root);
    run_result_t r = grade_in(&t, "emu", SUB "compile_error.cu", json, NULL);
    cr_assert(exited_with(&r, 0), "%s", r.output);
    cr_assert(strstr(canary_note(json), "passed dataset 17 (1x1x1) on the emu backend (ran in"),
              "%s", canary_note(json));
    struct timespec first = mtime_of(stamp);
    run_result_free(&r);

    r = grade_in(&t, "emu", SUB "compile_error.cu", json, NULL);
    cr_assert(exited_with(&r, 0), "%s", r.output);
    cr_assert(strstr(canary_note(json), "(cached,"), "%s", canary_note(json));
    struct timespec second = mtime_of(stamp);
    cr_assert(first.tv_sec == second.tv_sec && first.tv_nsec == second.tv_nsec,
              "the stamp was rewritten: the canary ran again");
    run_result_free(&r);

    const char *env[] = {"CUGRADE_CXX=g++", NULL}; /* another host compiler: a new key */
    r = grade_in(&t, "emu", SUB "compile_error.cu", json, env);
    cr_assert(exited_with(&r, 0), "%s", r.output);
    cr_assert(strstr(canary_note(json), "(ran in"), "%s", canary_note(json));
    run_result_free(&r);
    rm_rf(t.dir);
}

/* ---- a grader fault in the middle of a batch ------------------------------------ */

/* The toolchain breaks mid-batch: a child process removes the tree's
 * emulator runtime as soon as alice's results are written (from outside:
 * the compile jail lets no compiler touch the tree). */
static pid_t remove_runtime_after(const tree_t *t, const char *out, const char *first)
{
    char done[512], runtime[512];
    snprintf(done, sizeof done, "%s/%s/results.json", out, first);
    snprintf(runtime, sizeof runtime, "%s/build/libcugrade_emu.a", t->root);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        for (int waited_ms = 0; waited_ms < 120000 && !is_file(done); waited_ms += 2)
            usleep(2000);
        unlink(runtime);
        _exit(0);
    }
    return pid;
}

Test(grader_fault, mid_batch_faults_leave_students_not_graded_for_resume, .timeout = 180)
{
    tree_t t = make_tree(1, NULL);
    const char *const students[][2] = {{"alice", "reference/lab3/matmul.cu"},
                                       {"bob", SUB "untiled.cu"},
                                       {"carol", SUB "compile_error.cu"}};
    char subs[128], out[128];
    make_class(&t, students, 3, subs, sizeof subs);
    snprintf(out, sizeof out, "%s/out", t.dir);
    pid_t remover = remove_runtime_after(&t, out, "alice");
    run_result_t r = batch_in(&t, subs, out, 0, NULL);
    waitpid(remover, NULL, 0);
    cr_assert(exited_with(&r, 2), "%s", r.output);
    /* one dataset and the 8 hidden ones (the checks are off) */
    cr_assert(strstr(r.output, "alice  23.5/43.5"), "alice was not graded:\n%s", r.output);
    cr_assert(strstr(r.output, "bob  NOT GRADED (grader fault: the emulator runtime"), "%s",
              r.output);
    cr_assert(strstr(r.output, "carol  NOT GRADED (grader fault:"), "%s", r.output);
    cr_assert(strstr(r.output, "batch: 2 submission(s) NOT GRADED because of a grader fault"),
              "%s", r.output);
    cr_assert(has_result(out, "alice", "results.json"));
    cr_assert(has_result(out, "alice", "inputs.sha256"));
    for (int i = 1; i < 3; i++) {
        cr_assert(!has_result(out, students[i][0], "results.json"), "%s: %s", students[i][0],
                  r.output);
        cr_assert(!has_result(out, students[i][0], "inputs.sha256"), "%s", students[i][0]);
        cr_assert(has_result(out, students[i][0], "run.log"), "%s", students[i][0]);
    }
    char gradebook[160];
    snprintf(gradebook, sizeof gradebook, "%s/gradebook.csv", out);
    char *csv = read_file(gradebook, NULL, NULL, 0);
    cr_assert(csv && strstr(csv, "\nalice,") && !strstr(csv, "bob") && !strstr(csv, "carol"),
              "%s", csv ? csv : "(no gradebook)");
    free(csv);
    run_result_free(&r);

    link_to_checkout(t.root, "build/libcugrade_emu.a"); /* fixed: --resume grades the rest */
    r = batch_in(&t, subs, out, 1, NULL);
    cr_assert(exited_with(&r, 0), "%s", r.output);
    cr_assert(strstr(r.output, "2 to grade, 0 to re-score, 1 unchanged (skipped)"), "%s", r.output);
    cr_assert(strstr(r.output, "bob  23.5/43.5") && strstr(r.output, "carol  0/43.5"), "%s",
              r.output);
    run_result_free(&r);
    rm_rf(t.dir);
}

/* A child `cugrade run` that crashes (from outside here: SIGSEGV to bob's
 * once it runs, as a bug of cugrade's would) is a grader fault: bob NOT
 * GRADED with the crash's own line, no results.json, the batch's exit 2,
 * and --resume grades him. */
static int is_childs_cugrade_run(pid_t pid, const char *student)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
    size_t len = 0;
    char *cmd = read_file(path, &len, NULL, 0);
    int yes = 0, run = 0;
    for (size_t at = 0; cmd && at < len; at += strlen(cmd + at) + 1) {
        run |= strcmp(cmd + at, "run") == 0;
        yes |= run && strstr(cmd + at, student) != NULL;
    }
    free(cmd);
    return yes;
}

static pid_t crash_the_grading_of(const char *student)
{
    pid_t watcher = fork();
    cr_assert_geq(watcher, 0);
    if (watcher != 0)
        return watcher;
    for (int waited_ms = 0; waited_ms < 120000; waited_ms += 5) {
        DIR *d = opendir("/proc");
        for (struct dirent *e; d && (e = readdir(d));) {
            pid_t pid = (pid_t)atoi(e->d_name);
            if (pid > 0 && is_childs_cugrade_run(pid, student)) {
                usleep(300000); /* past main's first line */
                kill(pid, SIGSEGV);
                _exit(0);
            }
        }
        if (d)
            closedir(d);
        usleep(5000);
    }
    _exit(1);
}

Test(grader_fault, a_child_grading_that_crashes_is_not_graded_and_resumed, .timeout = 180)
{
    tree_t t = make_tree(1, NULL);
    char subs[128], out[128];
    alice_and_bob(&t, SUB "untiled.cu", subs, out);
    /* this class's bob only: a bob of another test, run at once, is not ours to crash */
    char bob[160];
    snprintf(bob, sizeof bob, "%s/bob/", subs);
    pid_t watcher = crash_the_grading_of(bob);
    run_result_t r = batch_in(&t, subs, out, 0, NULL);
    int found;
    waitpid(watcher, &found, 0);
    cr_assert(WIFEXITED(found) && WEXITSTATUS(found) == 0, "bob's grading was not seen");
    cr_assert(exited_with(&r, 2), "%s", r.output);
    cr_assert(strstr(r.output, "alice  23.5/43.5"), "%s", r.output);
    cr_assert(strstr(r.output, "bob  NOT GRADED (grader fault: the grader itself crashed "
                               "(signal 11"),
              "%s", r.output);
    cr_assert(!has_result(out, "bob", "results.json") && !has_result(out, "bob", "inputs.sha256"));
    char log[160];
    snprintf(log, sizeof log, "%s/bob/run.log", out);
    char *text = read_file(log, NULL, NULL, 0);
    cr_assert(text && strstr(text, "for a bug report:\n") && strstr(text, "cugrade("), "%s",
              text ? text : "(no run.log)");
    free(text);
    run_result_free(&r);

    r = batch_in(&t, subs, out, 1, NULL);
    cr_assert(exited_with(&r, 0), "%s", r.output);
    cr_assert(strstr(r.output, "1 to grade, 0 to re-score, 1 unchanged (skipped)"), "%s", r.output);
    cr_assert(strstr(r.output, "bob  23.5/43.5"), "%s", r.output);
    run_result_free(&r);
    rm_rf(t.dir);
}

/* ---- 6. the compile jail's sandbox does not start --------------------------- */

/* A bwrap that fails as bwrap does ("bwrap: WHY", exit 1) when its command
 * line matches the pattern, and else runs the real one (both written into
 * the script: the sandbox is started with an environment of its own). */
static void write_fake_bwrap(const char *script, const char *pattern, const char *real)
{
    char text[8192];
    snprintf(text, sizeof text,
             "#!/bin/sh\n"
             "case \"$*\" in %s)\n"
             "    echo 'bwrap: Creating new namespace failed: No space left on device' >&2; exit 1;;\n"
             "esac\n"
             "exec '%s' \"$@\"\n",
             pattern, real);
    write_text(script, text);
    cr_assert_eq(chmod(script, 0755), 0);
}

/* Grades a copy of the reference (victim.cu) in this checkout, with the
 * canary skipped, so that only the student's build meets the failing
 * sandbox, at the step `pattern`. (Not in a make_tree tree: its bin/ is a
 * link out of the sandbox's view, where the real bwrap cannot mount the
 * compiler.) */
static void expect_a_sandbox_fault_at(const char *pattern)
{
    char real[4096];
    if (find_program("bwrap", real, sizeof real) != 0)
        cr_skip_test("no bwrap here: the compile jail runs without a sandbox");
    char dir[64] = "/tmp/cugrade-fault-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char bin[128], script[160], victim[128], json[128], path_env[4400];
    snprintf(bin, sizeof bin, "%s/fakebin", dir);
    cr_assert_eq(mkdir_p(bin, NULL, 0), 0);
    snprintf(script, sizeof script, "%s/bwrap", bin);
    write_fake_bwrap(script, pattern, real);
    snprintf(victim, sizeof victim, "%s/victim.cu", dir);
    char *text = read_file("reference/lab3/matmul.cu", NULL, NULL, 0);
    cr_assert_not_null(text);
    write_text(victim, text);
    free(text);
    snprintf(json, sizeof json, "%s/r.json", dir);
    const char *path = getenv("PATH");
    snprintf(path_env, sizeof path_env, "PATH=%s:%s", bin, path ? path : "/usr/bin:/bin");
    char *argv[] = {"bin/cugrade", "run", "--lab", "lab3", "--backend", "emu", "--checks", "none",
                    "--color", "never", "--datasets", ONE_DATASET, "--json", json, victim, NULL};
    char *env[] = {path_env, "CUGRADE_CANARY=skip", NULL};
    run_spec_t spec = {.argv = argv, .extra_env = env, .timeout_s = 120, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(exited_with(&r, 2), "a sandbox that did not start (%s) graded the student:\n%s",
              pattern, r.output);
    cr_assert(strstr(r.output, "cugrade: cannot grade"), "%s", r.output);
    cr_assert(strstr(r.output, "the sandbox did not start"), "%s", r.output);
    cr_assert(strstr(r.output, "bwrap: Creating new namespace failed"), "%s", r.output);
    cr_assert(!strstr(r.output, "does not compile") && !is_file(json), "%s", r.output);
    run_result_free(&r);
    rm_rf(dir);
}

Test(grader_fault, a_sandbox_that_does_not_start_to_preprocess_is_no_students_zero, .timeout = 120)
{
    expect_a_sandbox_fault_at("*victim.cu\\ -o\\ */student.i*");
}

Test(grader_fault, a_sandbox_that_does_not_start_to_compile_is_no_students_zero, .timeout = 120)
{
    expect_a_sandbox_fault_at("*victim.cu\\ -o\\ */student.o*");
}

Test(grader_fault, a_sandbox_that_does_not_start_to_link_is_no_students_zero, .timeout = 120)
{
    expect_a_sandbox_fault_at("*/student.o\\ -o\\ */program*");
}

/* The student's program, run on a dataset: before, its "exited with status
 * 1" and bwrap's words as its output failed the dataset. */
Test(grader_fault, a_sandbox_that_does_not_start_for_a_dataset_is_no_students_zero,
     .timeout = 120)
{
    expect_a_sandbox_fault_at("*/program\\ */input0.bin*");
}

/* Host code that writes bwrap's words and exits 1 started in its sandbox:
 * its dataset fails, as the student's, and nothing is called a fault. */
Test(grader_fault, a_submission_that_writes_bwraps_words_is_graded, .timeout = 120)
{
    char real[4096];
    if (find_program("bwrap", real, sizeof real) != 0)
        cr_skip_test("no bwrap here: the runs have no sandbox to start");
    char dir[64] = "/tmp/cugrade-fault-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char victim[128], json[128];
    snprintf(victim, sizeof victim, "%s/victim.cu", dir);
    write_text(victim, "#include <stdio.h>\n#include <stdlib.h>\n"
                       "void launchMatrixMultiplyShared(const float *A, const float *B, float *C,\n"
                       "    int a, int b, int c, int d, int e, int f) {\n"
                       "    (void)A; (void)B; (void)C; (void)a; (void)b; (void)c; (void)d; (void)e;"
                       " (void)f;\n"
                       "    fprintf(stderr, \"bwrap: Creating new namespace failed: No space left "
                       "on device\\n\");\n"
                       "    exit(1);\n}\n");
    snprintf(json, sizeof json, "%s/r.json", dir);
    char *argv[] = {"bin/cugrade", "run", "--lab", "lab3", "--backend", "emu", "--checks", "none",
                    "--color", "never", "--datasets", ONE_DATASET, "--json", json, victim, NULL};
    char *env[] = {"CUGRADE_CANARY=skip", NULL};
    run_spec_t spec = {.argv = argv, .extra_env = env, .timeout_s = 120, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(exited_with(&r, 0), "%s", r.output);
    cr_assert(!strstr(r.output, "the sandbox did not start"), "%s", r.output);
    cr_assert(strstr(r.output, "exited with status 1"), "%s", r.output);
    cr_assert(is_file(json), "%s", r.output);
    run_result_free(&r);
    rm_rf(dir);
}
