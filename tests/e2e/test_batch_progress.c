/* test_batch_progress.c - end to end: what a TA sees while a batch runs (plain
 * lines with counts and ETA in a log; a progress bar redrawn in place on a
 * terminal, here a pseudo-terminal), and the time budget that makes an
 * endless loop cost one budget instead of one time limit per dataset. */
#include "e2e.h"

#include "batch/batch_progress.h"

#include <pty.h>
#include <sys/wait.h>

typedef struct {
    char dir[64], subs[128], datasets[128], rubric[128], out[128];
} klass_t;

static void add_student(const klass_t *k, const char *id, const char *file)
{
    char dir[256], cmd[1024];
    snprintf(dir, sizeof dir, "%s/%s", k->subs, id);
    cr_assert_eq(mkdir_p(dir, NULL, 0), 0);
    snprintf(cmd, sizeof cmd, "cp %s %s/matmul.cu", file, dir);
    cr_assert_eq(system(cmd), 0);
}

static klass_t make_klass(const char *rubric_datasets)
{
    klass_t k;
    char text[512];
    snprintf(k.dir, sizeof k.dir, "/tmp/cugrade-bprog-XXXXXX");
    cr_assert_not_null(mkdtemp(k.dir));
    snprintf(k.subs, sizeof k.subs, "%s/subs", k.dir);
    snprintf(k.datasets, sizeof k.datasets, "%s/datasets", k.dir);
    snprintf(k.rubric, sizeof k.rubric, "%s/rubric.json", k.dir);
    snprintf(k.out, sizeof k.out, "%s/out", k.dir);
    cr_assert_eq(mkdir_p(k.subs, NULL, 0), 0);
    const char *shapes[] = {"16x16x16", "33x17x9", "20x20x20", "8x8x8", NULL};
    make_datasets(k.datasets, shapes);
    snprintf(text, sizeof text,
             "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"name\": \"compiles\","
             " \"points\": 0}, \"datasets\": %s, \"hidden\": {\"count\": 0}}}}",
             rubric_datasets);
    write_text(k.rubric, text);
    return k;
}

static void batch_argv(const klass_t *k, char **argv)
{
    const char *a[] = {"bin/cugrade", "batch", "--lab", "lab3", "--out", k->out, "--backend",
                       "emu", "--checks", "none", "--jobs", "2", "--datasets", k->datasets,
                       "--rubric", k->rubric, k->subs, NULL};
    for (int i = 0; a[i] || (argv[i] = NULL); i++)
        argv[i] = (char *)a[i];
}

Test(batch_progress, a_log_gets_plain_lines_with_counts_and_eta, .timeout = 300)
{
    klass_t k = make_klass("{\"points\": 1, \"time_limit_s\": 20}");
    add_student(&k, "ann", "reference/lab3/matmul.cu");
    add_student(&k, "bob", "tests/submissions/lab3/intdiv_grid.cu");
    add_student(&k, "cy", "tests/submissions/lab3/compile_error.cu");
    char *argv[24];
    batch_argv(&k, argv);
    run_spec_t spec = {.argv = argv, .timeout_s = 300, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "3 to grade, 0 to re-score, 0 unchanged (skipped); 2 at once"), "%s", r.output);
    for (int i = 1; i <= 3; i++) {
        char counter[16];
        snprintf(counter, sizeof counter, "[%d/3] ", i);
        cr_assert(strstr(r.output, counter), "no %s line:\n%s", counter, r.output);
    }
    cr_assert(strstr(r.output, "ann  4/4"), "%s", r.output);
    cr_assert(strstr(r.output, "(eta 0 s)"), "the last line has nothing left:\n%s", r.output);
    cr_assert_null(strchr(r.output, '\r'), "no bar in a log:\n%s", r.output);
    cr_assert_null(strchr(r.output, '\033'), "no escape codes in a log:\n%s", r.output);
    run_result_free(&r);
    rm_rf(k.dir);
}

/* Runs the batch on a pseudo-terminal and returns all it printed. */
static char *run_on_pty(char **argv)
{
    int master;
    pid_t pid = forkpty(&master, NULL, NULL, NULL);
    cr_assert(pid >= 0);
    if (pid == 0) {
        execv(argv[0], argv);
        _exit(127);
    }
    strbuf_t out = {0};
    char buf[4096];
    ssize_t n;
    while ((n = read(master, buf, sizeof buf)) > 0) /* EIO once the child is gone */
        sb_appendn(&out, buf, (size_t)n);
    int status;
    waitpid(pid, &status, 0);
    close(master);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", sb_str(&out));
    return sb_detach(&out);
}

Test(batch_progress, a_terminal_gets_a_bar_with_eta_redrawn_in_place, .timeout = 300)
{
    klass_t k = make_klass("{\"points\": 1, \"time_limit_s\": 20}");
    add_student(&k, "ann", "reference/lab3/matmul.cu");
    add_student(&k, "bob", "tests/submissions/lab3/intdiv_grid.cu");
    add_student(&k, "cy", "reference/lab3/matmul_naive.cu");
    char *argv[24];
    batch_argv(&k, argv);
    char *out = run_on_pty(argv);
    cr_assert(strstr(out, "\r\033[K[###"), "no bar drawn:\n%s", out);
    cr_assert(strstr(out, "elapsed, eta "), "%s", out);
    cr_assert(strstr(out, "] 1/3 ") && strstr(out, "] 2/3 "), "the bar counts:\n%s", out);
    /* every finished line starts on a cleared line, above the bar */
    cr_assert(strstr(out, "\r\033[K[1/3] ") && strstr(out, "\r\033[K[3/3] "), "%s", out);
    const char *summary = strstr(out, "batch: 3 graded");
    cr_assert_not_null(summary, "%s", out);
    cr_assert_null(strstr(summary, "elapsed, eta"), "the bar is gone before the summary:\n%s", out);
    free(out);
    rm_rf(k.dir);
}

/* An endless kernel on 4 datasets of 20 s each would take 80 s; a budget of
 * 3 s stops it, and the datasets left are failed with that reason. */
Test(batch_progress, the_budget_stops_an_endless_loop_and_says_so, .timeout = 300)
{
    klass_t k = make_klass("{\"points\": 1, \"time_limit_s\": 20, \"budget_s\": 3}");
    add_student(&k, "ann", "reference/lab3/matmul.cu");
    add_student(&k, "loop", "tests/submissions/lab3/endless_kernel.cu");
    char *argv[24];
    batch_argv(&k, argv);
    run_spec_t spec = {.argv = argv, .timeout_s = 300, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    char path[256];
    snprintf(path, sizeof path, "%s/loop/results.json", k.out);
    char *text = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(text);
    cr_assert(strstr(text, "the submission's budget of 3 s for all its datasets ran out"), "%s",
              text);
    cr_assert(strstr(text, "was not run: the submission's time budget of 3 s"), "%s", text);
    cr_assert(strstr(r.output, "ann  4/4"), "the other student is graded as usual:\n%s", r.output);
    cr_assert_lt(r.wall_s, 60, "the budget, not 4 x 20 s, bounds the endless loop");
    free(text);
    run_result_free(&r);
    rm_rf(k.dir);
}

/* On a terminal the bar is drawn as the batch starts, before anything has
 * finished, so that the first finished line is also written over an erased
 * bar (it used to be written bare when it came before the first tick, and
 * the bar then appeared under it: seen once in a loaded make test). */
Test(batch_progress, a_terminal_shows_the_bar_before_anything_finishes)
{
    int master, slave;
    cr_assert_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
    FILE *tty = fdopen(slave, "w");
    cr_assert_not_null(tty);
    progress_t p;
    progress_start(&p, tty, 3, 3);
    progress_done(&p, 1, "ann  4/4  0.8 s");
    progress_end(&p);
    fclose(tty);
    strbuf_t out = {0};
    char buf[4096];
    ssize_t n;
    while ((n = read(master, buf, sizeof buf)) > 0) /* EIO once the slave is closed */
        sb_appendn(&out, buf, (size_t)n);
    close(master);
    const char *bar = strstr(sb_str(&out), "\r\033[K[..............................] 0/3  ");
    const char *line = strstr(sb_str(&out), "\r\033[K[1/3] ann  4/4  0.8 s");
    cr_assert(bar && line && bar < line, "no bar before the first line: %s", sb_str(&out));
    sb_free(&out);
}
