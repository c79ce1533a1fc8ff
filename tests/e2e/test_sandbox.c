/* test_sandbox.c - end to end: hostile lab 3 submissions. The object check
 * refuses the ones that call fork, fopen or getenv before they are linked,
 * naming the calls and the line. Behind it, the bubblewrap sandbox alone
 * (the object check turned off, CUGRADE_OBJCHECK=off; skipped where bwrap
 * is unavailable): a fork bomb leaves no process behind, the expected
 * outputs cannot be read, the results folder cannot be written, and a 1 GB
 * printf is cut. Runs from the repository root. */
#include <dirent.h>
#include <limits.h>

#include "e2e.h"
#include "run/sandbox.h"

typedef struct {
    char dir[64], datasets[128], rubric[128], results[128];
    char env_mark[160], env_ds[PATH_MAX + 40], env_results[200];
    char *env[5];
} setup_t;

static void skip_without_sandbox(void)
{
    if (!sandbox_available())
        cr_skip_test("%s", sandbox_description());
}

/* Two small datasets, a rubric with a 5 s limit, a results folder, and the
 * environment the submissions read (the marker finds their processes). */
static void setup(setup_t *s)
{
    snprintf(s->dir, sizeof s->dir, "/tmp/cugrade-sbx-XXXXXX");
    cr_assert_not_null(mkdtemp(s->dir));
    snprintf(s->datasets, sizeof s->datasets, "%s/ds", s->dir);
    snprintf(s->rubric, sizeof s->rubric, "%s/rubric.json", s->dir);
    snprintf(s->results, sizeof s->results, "%s/results", s->dir);
    cr_assert_eq(mkdir_p(s->results, NULL, 0), 0);
    const char *shapes[] = {"16x16x16", "33x17x9", NULL};
    make_datasets(s->datasets, shapes);
    write_text(s->rubric, "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"name\": \"compiles\","
                          " \"points\": 0}, \"datasets\": {\"points\": 1, \"time_limit_s\": 5},"
                       " \"hidden\": {\"count\": 0}}}}");
    char cwd[PATH_MAX];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    snprintf(s->env_mark, sizeof s->env_mark, "CUGRADE_SANDBOX_TEST_MARK=%s", s->dir);
    snprintf(s->env_ds, sizeof s->env_ds, "CUGRADE_SANDBOX_TEST_DS=%s/datasets/lab3", cwd);
    snprintf(s->env_results, sizeof s->env_results, "CUGRADE_SANDBOX_TEST_RESULTS=%s", s->results);
    s->env[0] = s->env_mark;
    s->env[1] = s->env_ds;
    s->env[2] = s->env_results;
    s->env[3] = "CUGRADE_OBJCHECK=off"; /* the sandbox alone: the layer behind the check */
    s->env[4] = NULL;
}

/* Grades submission; shipped datasets unless own_datasets. */
static graded_t grade_hostile(setup_t *s, const char *submission, int own_datasets)
{
    const char *with[] = {"--checks", "none", "--rubric", s->rubric, "--datasets", s->datasets, NULL};
    if (!own_datasets)
        with[4] = NULL;
    return grade_on("emu", submission, with, s->env);
}

/* Processes whose environment holds marker. */
static int count_marked(const char *marker)
{
    int n = 0;
    DIR *d = opendir("/proc");
    cr_assert_not_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        char path[300];
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || atoi(e->d_name) == getpid())
            continue;
        snprintf(path, sizeof path, "/proc/%s/environ", e->d_name);
        size_t len = 0;
        char *env = read_file(path, &len, NULL, 0);
        for (size_t i = 0; env && i < len; i += strlen(env + i) + 1)
            n += strcmp(env + i, marker) == 0;
        free(env);
    }
    closedir(d);
    return n;
}

static void expect_datasets_failed(const graded_t *g, int count)
{
    cr_assert_eq(exit_code(g), 0, "%s", g->run.output);
    cr_expect(passed(test_named(g, "compiles")), "%s", g->run.output);
    for (int i = 0; i < count; i++) {
        char name[32];
        snprintf(name, sizeof name, "dataset %d ", i);
        cr_expect(!passed(test_named(g, name)), "%s should fail", name);
    }
}

/* The first layer: each is refused at build time, with what it calls and
 * where, and scores nothing. */
Test(sandbox, hostile_calls_are_refused_before_linking, .timeout = 120)
{
    setup_t s;
    setup(&s);
    s.env[3] = NULL;
    const char *cases[][3] = {{"fork_bomb.cu", "calls fork, pause", "fork_bomb.cu:"},
                              {"read_expected.cu", "calls fclose, fopen, getenv", "read_expected.cu:"},
                              {"write_results.cu", "calls fclose, fopen, getenv", "write_results.cu:"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, SUB "%s", cases[i][0]);
        graded_t g = grade_hostile(&s, path, 1);
        cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
        const char *out = str(test_named(&g, "compiles"), "output");
        cr_expect(!passed(test_named(&g, "compiles")), "%s", cases[i][0]);
        cr_expect(strstr(out, cases[i][1]), "%s: %s", cases[i][0], out);
        cr_expect(strstr(out, "refused: the submission"), "%s: %s", cases[i][0], out);
        cr_expect_eq(num(g.json, "score"), 0.0, "%s", cases[i][0]);
        /* file:line of the first call in the source */
        const char *at = strstr(out, cases[i][2]);
        cr_expect(at && at[strlen(cases[i][2])] >= '1' && at[strlen(cases[i][2])] <= '9', "%s",
                  out);
        release(&g);
    }
    rm_rf(s.dir);
}

Test(sandbox, fork_bomb_is_killed_with_its_namespace, .timeout = 120)
{
    skip_without_sandbox();
    setup_t s;
    setup(&s);
    graded_t g = grade_hostile(&s, SUB "fork_bomb.cu", 1);
    expect_datasets_failed(&g, 2);
    cr_expect(strstr(str(test_named(&g, "dataset 0 "), "output"), "time limit"), "%s",
              str(test_named(&g, "dataset 0 "), "output"));
    usleep(200 * 1000);
    cr_assert_eq(count_marked(s.env_mark), 0, "fork bomb processes survived");
    release(&g);
    rm_rf(s.dir);
}

Test(sandbox, expected_outputs_are_hidden, .timeout = 120)
{
    skip_without_sandbox();
    setup_t s;
    setup(&s);
    graded_t g = grade_hostile(&s, SUB "read_expected.cu", 0);
    expect_datasets_failed(&g, 2);
    cr_assert_null(strstr(g.run.output, "READ-EXPECTED-OK"), "%s", g.run.output);
    cr_assert_null(strstr(json_object_to_json_string(g.json), "READ-EXPECTED-OK"));
    release(&g);
    rm_rf(s.dir);
}

Test(sandbox, results_folder_is_not_writable, .timeout = 120)
{
    skip_without_sandbox();
    setup_t s;
    setup(&s);
    graded_t g = grade_hostile(&s, SUB "write_results.cu", 1);
    expect_datasets_failed(&g, 2);
    char stray[200];
    snprintf(stray, sizeof stray, "%s/stray.txt", s.results);
    cr_assert(!is_file(stray), "the submission wrote into the results folder");
    cr_assert_null(strstr(g.run.output, "WRITE-RESULTS-OK"), "%s", g.run.output);
    release(&g);
    rm_rf(s.dir);
}

Test(sandbox, printf_flood_is_cut, .timeout = 200)
{
    skip_without_sandbox();
    setup_t s;
    setup(&s);
    graded_t g = grade_hostile(&s, SUB "printf_flood.cu", 1);
    expect_datasets_failed(&g, 2);
    const char *out = str(test_named(&g, "dataset 0 "), "output");
    cr_expect(strstr(out, "output cut"), "%.2000s", out);
    cr_expect_lt(strlen(json_object_to_json_string(g.json)), 4u << 20, "results.json too big");
    release(&g);
    rm_rf(s.dir);
}

Test(sandbox, description_names_bubblewrap)
{
    skip_without_sandbox();
    cr_assert_str_eq(sandbox_description(), "sandbox: bubblewrap");
}

/* A submission lying in /tmp itself: the compile jail shows its folder
 * read-only, the jail's /tmp with it, so the compilers' temporary files go
 * to the writable scratch folder (TMPDIR). Before, emucc could not make its
 * work folder, and the grading blamed the file ("the lab's reference
 * compiles with the same toolchain, so the error is in this file"). */
Test(sandbox, a_submission_in_tmp_itself_compiles, .timeout = 200)
{
    skip_without_sandbox();
    char src[] = "/tmp/cugrade-in-tmp-XXXXXX.cu";
    int fd = mkstemps(src, 3);
    cr_assert_geq(fd, 0);
    close(fd);
    copy_file_to("reference/lab3/matmul.cu", src);
    graded_t g = grade(src, NULL);
    unlink(src);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *compiles = test_named(&g, "compiles");
    cr_expect(passed(compiles), "%s", str(compiles, "output"));
    cr_expect(passed(test_named(&g, "dataset 0 ")), "%s", g.run.output);
    release(&g);
}

/* ---- whether a sandbox started (sandbox.h SANDBOX_STARTED_FD) ------------- */

static run_result_t run_sandboxed(const char *script, double timeout_s)
{
    char dir[] = "/tmp/cugrade-sbx-run-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    /* a shell script forks: the jail's tool policy (a lab program's has no fork) */
    run_spec_t spec = {.argv = argv, .cwd = dir, .timeout_s = timeout_s, .sandboxed = 1,
                       .tool = 1};
    run_result_t r;
    run_one(&spec, &r);
    rm_rf(dir);
    return r;
}

/* A program that exits 1 after writing what bwrap writes when it fails is
 * still the program's: it started, and the start's byte says so. Its
 * environment has no PWD from the shell that starts it, nor the descriptor. */
Test(sandbox, a_program_that_prints_bwraps_words_and_exits_1_is_the_programs, .timeout = 60)
{
    skip_without_sandbox();
    int before = run_sandbox_failures(NULL, 0);
    run_result_t r = run_sandboxed("echo 'bwrap: Creating new namespace failed: No space left on "
                                   "device' >&2; env | grep -c '^PWD=' || true; "
                                   "ls /proc/self/fd; exit 1", 30);
    cr_assert(r.exited && r.exit_code == 1, "%s", r.output);
    cr_assert_eq(r.sandbox_failed, 0, "%s", r.output);
    cr_assert(strstr(r.output, "\n0\n"), "the shell's PWD reached the program: %s", r.output);
    cr_assert(!strstr(r.output, "\n" SANDBOX_STARTED_FD_TEXT "\n"),
              "the program has the start descriptor: %s", r.output);
    cr_assert_eq(run_sandbox_failures(NULL, 0), before);
    run_result_free(&r);
}

/* A program the runner stops at its time limit is the program's, whether or
 * not its sandbox had started by then. */
Test(sandbox, a_program_stopped_at_its_limit_is_not_a_sandbox_failure, .timeout = 60)
{
    skip_without_sandbox();
    int before = run_sandbox_failures(NULL, 0);
    run_result_t r = run_sandboxed("sleep 30", 0.5);
    cr_assert(r.timed_out, "%s", r.output);
    cr_assert_eq(r.sandbox_failed, 0);
    cr_assert_eq(run_sandbox_failures(NULL, 0), before);
    run_result_free(&r);
}
