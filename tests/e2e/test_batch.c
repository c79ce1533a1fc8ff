/* test_batch.c - end to end: `cugrade batch` grades a small synthetic class
 * on the CPU emulator (reference, integer-division grid, compile error, host
 * segfault) on two datasets and two hidden ones (made once for the batch),
 * writes the per-student and class files, skips unchanged work on --resume
 * (but regrades everyone under a new hidden datasets' secret), regrades with
 * --only, survives a kill -9 halfway, and stops before grading anyone when
 * the setup is broken. (The SHA-256 test vectors its resume hashes rely on:
 * tests/unit/test_sha256.c.) Runs from the repository root. */
#include "e2e.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define NSTUDENTS 6

static const char *const students[NSTUDENTS][2] = {
    {"alice", "reference/lab3/matmul.cu"}, {"bob", SUB "intdiv_grid.cu"},
    {"carol", SUB "compile_error.cu"},      {"dave", SUB "host_segfault.cu"},
    {"erin", "reference/lab3/matmul.cu"},  {"frank", SUB "intdiv_grid.cu"}};

/* the hidden datasets' shapes are the tests' secret's (e2e.h) */
static const char *const expected_gradebook =
    "id,total,max,compiles,dataset 0 (16x16x16),dataset 1 (33x17x9),hidden dataset 1 (1x1x1),"
    "hidden dataset 2 (1x22x171)\n"
    "alice,4,4,0,1,1,1,1\n"
    "bob,1,4,0,1,0,0,0\n"
    "carol,0,4,0,0,0,0,0\n"
    "dave,0,4,0,0,0,0,0\n"
    "erin,4,4,0,1,1,1,1\n"
    "frank,1,4,0,1,0,0,0\n";

typedef batch_class_t class_t; /* e2e.h's class, with two hidden datasets */

static class_t make_class(void)
{
    class_t c = make_batch_class_with("batch", 2);
    for (int i = 0; i < NSTUDENTS; i++)
        class_add_student(&c, students[i][0], students[i][1]);
    char junk[256];
    snprintf(junk, sizeof junk, "%s/.hidden/lab3", c.subs); /* skipped: hidden */
    cr_assert_eq(mkdir_p(junk, NULL, 0), 0);
    snprintf(junk, sizeof junk, "%s/notes.txt", c.subs); /* skipped: not a folder */
    write_text(junk, "not a submission\n");
    return c;
}

/* argv of `cugrade batch` on class c into results folder out, plus extra. */
static void batch_argv(const class_t *c, const char *out, const char *const *extra, char **argv)
{
    const char *base[] = {"bin/cugrade", "batch", "--lab", "lab3", "--out", out, "--backend", "emu",
                          "--checks", "none", "--datasets", c->datasets, "--rubric", c->rubric};
    int n = 0;
    for (size_t i = 0; i < sizeof base / sizeof *base; i++)
        argv[n++] = (char *)base[i];
    for (int i = 0; extra && extra[i]; i++)
        argv[n++] = (char *)extra[i];
    argv[n++] = (char *)c->subs;
    argv[n] = NULL;
}

static run_result_t batch(const class_t *c, const char *out, const char *const *extra)
{
    char *argv[40];
    batch_argv(c, out, extra, argv);
    run_spec_t spec = {.argv = argv, .timeout_s = 300, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

static void results_dir(const class_t *c, const char *name, char *out, size_t len)
{
    snprintf(out, len, "%s/%s", c->dir, name);
}

static char *slurp(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(text, "missing %s", path);
    return text;
}

static json_object *results_of(const char *out, const char *id)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/results.json", out, id);
    json_object *j = json_object_from_file(path);
    cr_assert_not_null(j, "no results.json for %s", id);
    return j;
}

static long long mtime_ns(const char *out, const char *id)
{
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s/results.json", out, id);
    cr_assert_eq(stat(path, &st), 0, "%s", path);
    return (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
}

static void grade_class(const class_t *c, const char *out)
{
    run_result_t r = batch(c, out, NULL);
    cr_assert(r.exited && r.exit_code == 0, "batch failed:\n%s", r.output);
    run_result_free(&r);
}

Test(batch, grades_every_student_and_writes_the_class_files, .timeout = 300)
{
    class_t c = make_class();
    char out[128];
    results_dir(&c, "results", out, sizeof out);
    double t0 = now_seconds();
    run_result_t r = batch(&c, out, NULL);
    double took = now_seconds() - t0;
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_log_info("synthetic class of %d graded in %.2f s", NSTUDENTS, took);
    cr_assert(strstr(r.output, "[6/6] "), "%s", r.output);
    cr_assert(strstr(r.output, "alice  4/4  "), "%s", r.output);
    cr_assert(strstr(r.output, "1 did not compile, 0 had no file, 0 an empty one, 0 timed out, 1 crashed"), "%s", r.output);
    cr_assert_null(strstr(r.output, ".hidden"));
    for (int i = 0; i < NSTUDENTS; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s/run.log", out, students[i][0]);
        cr_expect(is_file(path), "%s", path);
        snprintf(path, sizeof path, "%s/%s/inputs.sha256", out, students[i][0]);
        cr_expect(is_file(path), "%s", path);
    }
    json_object *ref = results_of(out, "alice"), *ce = results_of(out, "carol");
    json_object *intdiv = results_of(out, "bob");
    cr_assert_float_eq(num(ref, "score"), 4.0, 1e-9);
    cr_assert_float_eq(num(intdiv, "score"), 1.0, 1e-9);
    cr_assert_float_eq(num(ce, "score"), 0.0, 1e-9);
    json_object *tests;
    cr_assert(json_object_object_get_ex(ce, "tests", &tests));
    json_object *d0 = json_object_array_get_idx(tests, 1);
    cr_assert(strstr(str(d0, "output"), "not run: does not compile"), "%s", str(d0, "output"));
    json_object_put(ref), json_object_put(ce), json_object_put(intdiv);

    char *csv = slurp(out, "gradebook.csv");
    cr_assert_str_eq(csv, expected_gradebook);
    free(csv);
    char path[512];
    snprintf(path, sizeof path, "%s/summary.json", out);
    json_object *sum = json_object_from_file(path), *total, *hist;
    cr_assert_not_null(sum);
    cr_assert_float_eq(num(sum, "submissions"), 6, 1e-9);
    cr_assert_float_eq(num(sum, "graded"), 6, 1e-9);
    cr_assert_float_eq(num(sum, "could_not_grade"), 0, 1e-9);
    cr_assert_float_eq(num(sum, "did_not_compile"), 1, 1e-9);
    cr_assert_float_eq(num(sum, "crashed"), 1, 1e-9);
    cr_assert(json_object_object_get_ex(sum, "total", &total));
    cr_assert_float_eq(num(total, "mean"), 10.0 / 6, 1e-9);
    cr_assert_float_eq(num(total, "median"), 1.0, 1e-9);
    cr_assert(json_object_object_get_ex(total, "histogram", &hist));
    cr_assert_eq(json_object_get_int(json_object_array_get_idx(hist, 0)), 2);
    cr_assert_eq(json_object_get_int(json_object_array_get_idx(hist, 2)), 2);
    cr_assert_eq(json_object_get_int(json_object_array_get_idx(hist, 9)), 2);
    json_object_put(sum);
    run_result_free(&r);
    rm_rf(c.dir);
}

Test(batch, resume_regrades_nothing_unchanged_and_exactly_the_edited_student, .timeout = 300)
{
    class_t c = make_class();
    char out[128];
    results_dir(&c, "results", out, sizeof out);
    grade_class(&c, out);
    long long before[NSTUDENTS];
    for (int i = 0; i < NSTUDENTS; i++)
        before[i] = mtime_ns(out, students[i][0]);
    const char *resume[] = {"--resume", NULL};
    run_result_t r = batch(&c, out, resume);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "0 to grade, 0 to re-score, 6 unchanged (skipped)"), "%s", r.output);
    cr_assert(strstr(r.output, "batch: 0 graded, 0 re-scored, 0 could not grade, 6 skipped"), "%s", r.output);
    for (int i = 0; i < NSTUDENTS; i++)
        cr_expect_eq(mtime_ns(out, students[i][0]), before[i], "%s regraded", students[i][0]);
    run_result_free(&r);

    char path[512];
    snprintf(path, sizeof path, "%s/bob/lab3/matmul.cu", c.subs);
    char *text = read_file(path, NULL, NULL, 0);
    strbuf_t sb = {0};
    sb_appendf(&sb, "%s\n// edited after the first grade\n", text);
    write_text(path, sb_str(&sb));
    free(text), sb_free(&sb);
    r = batch(&c, out, resume);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "1 to grade, 0 to re-score, 5 unchanged"), "%s", r.output);
    cr_assert(strstr(r.output, "[1/1] bob  1/4"), "%s", r.output);
    for (int i = 0; i < NSTUDENTS; i++)
        if (strcmp(students[i][0], "bob") != 0)
            cr_expect_eq(mtime_ns(out, students[i][0]), before[i], "%s regraded", students[i][0]);
    cr_expect_neq(mtime_ns(out, "bob"), before[1]);
    char *csv = slurp(out, "gradebook.csv");
    cr_assert_str_eq(csv, expected_gradebook);
    free(csv);
    run_result_free(&r);
    rm_rf(c.dir);
}

Test(batch, only_regrades_the_chosen_student_and_keeps_the_gradebook_whole, .timeout = 300)
{
    class_t c = make_class();
    char out[128];
    results_dir(&c, "results", out, sizeof out);
    grade_class(&c, out);
    long long alice = mtime_ns(out, "alice"), dave = mtime_ns(out, "dave");
    const char *only[] = {"--only", "dave", NULL};
    run_result_t r = batch(&c, out, only);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "[1/1] dave  0/4"), "%s", r.output);
    cr_expect_eq(mtime_ns(out, "alice"), alice);
    cr_expect_neq(mtime_ns(out, "dave"), dave);
    char *csv = slurp(out, "gradebook.csv");
    cr_assert_str_eq(csv, expected_gradebook);
    free(csv);
    run_result_free(&r);
    const char *unknown[] = {"--only", "zed", NULL};
    r = batch(&c, out, unknown);
    cr_assert(r.exited && r.exit_code == 64, "%s", r.output);
    cr_assert(strstr(r.output, "zed"), "%s", r.output);
    run_result_free(&r);
    rm_rf(c.dir);
}

static int count_done(const char *out)
{
    int n = 0;
    for (int i = 0; i < NSTUDENTS; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s/inputs.sha256", out, students[i][0]);
        n += is_file(path);
    }
    return n;
}

/* Starts the batch, SIGKILLs it once `after` submissions are complete. */
static void batch_killed_after(const class_t *c, const char *out, int after)
{
    char *argv[40];
    const char *extra[] = {"--jobs", "1", "--resume", NULL};
    batch_argv(c, out, extra, argv);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1), dup2(devnull, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    double deadline = now_seconds() + 120;
    while (count_done(out) < after && now_seconds() < deadline && waitpid(pid, NULL, WNOHANG) == 0)
        usleep(2000);
    int killed = kill(pid, SIGKILL) == 0, status = 0;
    waitpid(pid, &status, 0);
    cr_assert(killed && WIFSIGNALED(status), "the batch ended before it could be killed");
    cr_assert_lt(count_done(out), NSTUDENTS, "killed too late to test anything");
}

Test(batch, kill_9_halfway_then_resume_gives_the_uninterrupted_gradebook, .timeout = 300)
{
    class_t c = make_class();
    char killed[128], whole[128];
    results_dir(&c, "killed", killed, sizeof killed);
    results_dir(&c, "whole", whole, sizeof whole);
    batch_killed_after(&c, killed, 2);
    batch_killed_after(&c, killed, 4);
    const char *resume[] = {"--resume", NULL};
    run_result_t r = batch(&c, killed, resume);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "unchanged (skipped)") && !strstr(r.output, " 0 unchanged"),
              "the resume regraded everything:\n%s", r.output);
    run_result_free(&r);
    grade_class(&c, whole);
    char *a = slurp(killed, "gradebook.csv"), *b = slurp(whole, "gradebook.csv");
    cr_assert_str_eq(a, b);
    cr_assert_str_eq(a, expected_gradebook);
    free(a), free(b);
    rm_rf(c.dir);
}

Test(batch, a_broken_setup_stops_the_batch_before_anyone_is_graded, .timeout = 300)
{
    class_t c = make_class();
    char out[128], path[256];
    results_dir(&c, "results", out, sizeof out);
    snprintf(c.datasets, sizeof c.datasets, "%s/no-such-datasets", c.dir);
    const char *only[] = {"--only", "alice", NULL};
    run_result_t r = batch(&c, out, only);
    cr_assert(r.exited && r.exit_code == 2, "%s", r.output);
    cr_assert(strstr(r.output, "cannot grade: ") && strstr(r.output, "no such dataset folder"),
              "%s", r.output);
    cr_assert(strstr(r.output, "stopped before grading anyone"), "%s", r.output);
    snprintf(path, sizeof path, "%s/alice/results.json", out);
    cr_assert(!is_file(path), "a grader fault wrote a result for alice");
    snprintf(path, sizeof path, "%s/gradebook.csv", out);
    cr_assert(!is_file(path), "a grader fault wrote a gradebook");
    run_result_free(&r);
    rm_rf(c.dir);
}

/* A child killed by --timeout-s (not a grader fault: cugrade run did not say
 * it could not grade) still gets a row saying it could not be graded. */
Test(batch, a_submission_that_cannot_be_graded_still_gets_a_row, .timeout = 300)
{
    class_t c = make_class();
    char out[128];
    results_dir(&c, "results", out, sizeof out);
    const char *only[] = {"--only", "alice", "--timeout-s", "0.05", NULL};
    run_result_t r = batch(&c, out, only);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "alice  could not grade (exceeded the time limit"), "%s", r.output);
    json_object *j = results_of(out, "alice");
    cr_assert_float_eq(num(j, "score"), 0.0, 1e-9);
    json_object_put(j);
    char *csv = slurp(out, "gradebook.csv");
    cr_assert_str_eq(csv, "id,total,max,grading\nalice,0,0,0\n");
    free(csv);
    run_result_free(&r);
    rm_rf(c.dir);
}

/* The hidden datasets are made once, in a private folder the batch removes
 * when it is done, and every student is graded on the same ones. */
Test(batch, the_hidden_datasets_are_made_once_for_the_class, .timeout = 300)
{
    class_t c = make_class();
    char out[128], dir[PATH_MAX];
    results_dir(&c, "results", out, sizeof out);
    run_result_t r = batch(&c, out, NULL);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    const char *line = strstr(r.output, "cugrade batch: 2 hidden datasets, made once for every "
                                        "submission in ");
    cr_assert_not_null(line, "%s", r.output);
    line += strlen("cugrade batch: 2 hidden datasets, made once for every submission in ");
    snprintf(dir, sizeof dir, "%.*s", (int)strcspn(line, " "), line);
    cr_expect(!is_dir(dir), "%s is still there after the batch", dir);
    for (int i = 0; i < NSTUDENTS; i++) {
        json_object *j = results_of(out, students[i][0]), *extra;
        cr_assert(json_object_object_get_ex(j, "extra_data", &extra));
        cr_expect_float_eq(num(extra, "hidden_total"), 2, 1e-9, "%s", students[i][0]);
        json_object_put(j);
    }
    run_result_free(&r);
    rm_rf(c.dir);
}

/* The secret is part of every submission's inputs: a new one (new hidden
 * datasets) regrades everyone on --resume. */
Test(batch, a_new_hidden_datasets_secret_regrades_everyone, .timeout = 300)
{
    class_t c = make_class();
    char out[128];
    results_dir(&c, "results", out, sizeof out);
    grade_class(&c, out);
    const char *resume[] = {"--resume", NULL};
    run_result_t r = batch(&c, out, resume);
    cr_assert(strstr(r.output, "0 to grade, 0 to re-score, 6 unchanged (skipped)"), "%s", r.output);
    run_result_free(&r);
    const char *other[] = {"--resume", "--hidden-seed", OTHER_HIDDEN_SEED, NULL};
    r = batch(&c, out, other);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "6 to grade, 0 to re-score, 0 unchanged (skipped)"), "%s", r.output);
    char *csv = slurp(out, "gradebook.csv");
    cr_expect_str_neq(csv, expected_gradebook, "the other secret's hidden datasets");
    cr_expect(strstr(csv, "hidden dataset 1 (1x1x1),hidden dataset 2 ("), "%s", csv);
    cr_expect(strstr(csv, "\nalice,4,4,0,1,1,1,1\n"), "%s", csv);
    free(csv);
    run_result_free(&r);
    rm_rf(c.dir);
}
