/* test_batch_interrupted.c - a batch stopped by a signal (Ctrl-C, a Slurm
 * task's end) kills the gradings under way and writes no verdict for them:
 * an interrupted student has no results.json (a --resume grades it again),
 * and the ones finished before keep theirs. */
#include "e2e.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

/* `cugrade batch` on class k, two at a time, started in the background;
 * what it writes goes to log. */
static pid_t start_batch(const batch_class_t *k, const char *log)
{
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        execl("bin/cugrade", "bin/cugrade", "batch", "--lab", "lab3", "--out", k->out,
              "--backend", "emu", "--checks", "none", "--jobs", "2", "--datasets", k->datasets,
              "--rubric", k->rubric, k->subs, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static int exists(const char *dir, const char *id, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", dir, id, file);
    return access(path, F_OK) == 0;
}

Test(batch_interrupted, no_verdict_for_the_gradings_under_way, .timeout = 300)
{
    batch_class_t k = make_batch_class("interrupted");
    class_add_student(&k, "done", "reference/lab3/matmul.cu");
    class_add_student(&k, "hung", SUB "endless_kernel.cu");
    char log[160];
    snprintf(log, sizeof log, "%s/batch.log", k.dir);
    pid_t pid = start_batch(&k, log);
    double until = now_seconds() + 120;
    while (!exists(k.out, "done", "results.json") && now_seconds() < until)
        usleep(20000);
    cr_assert(exists(k.out, "done", "results.json"), "the reference was not graded in time");
    usleep(500 * 1000); /* the endless kernel is running into its 20 s limit */
    cr_assert_eq(kill(pid, SIGINT), 0);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT,
              "the batch did not end by its SIGINT (status 0x%x)", status);
    cr_expect(!exists(k.out, "hung", "results.json"),
              "the interrupted grading got a verdict it never earned");
    /* it says what it did and how to go on (it ended silently, status 130) */
    char *said = read_file(log, NULL, NULL, 0);
    cr_assert_not_null(said);
    cr_expect(strstr(said, "cugrade batch: stopped by signal 2 after 1 of 2 gradings"), "%s", said);
    char resume[1024];
    snprintf(resume, sizeof resume, "bin/cugrade batch --lab lab3 --out %s --backend emu --checks "
             "none --jobs 2 --datasets %s --rubric %s %s --resume\n", k.out, k.datasets, k.rubric,
             k.subs);
    cr_expect(strstr(said, resume), "no '%s' in:\n%s", resume, said);
    free(said);
    json_object *done = class_results(&k, "done");
    cr_expect_float_eq(num(done, "score"), 2.0, 1e-9, "the finished grading kept its result");
    json_object_put(done);
    rm_rf(k.dir);
}
