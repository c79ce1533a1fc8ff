/* test_killed_grading.c - a grading killed outright (SIGKILL: a Slurm
 * task's time limit, the OOM killer) cannot remove its scratch folder nor
 * its hidden datasets; the next grading on the machine does
 * (util/tmpdir.h). Each test has its own TMPDIR. */
#include "e2e.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

static char tmp[64];

static void make_tmp(void)
{
    snprintf(tmp, sizeof tmp, "/tmp/killed-grading-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
}

static void remove_tmp(void) { rm_rf(tmp); }

TestSuite(killed_grading, .init = make_tmp, .fini = remove_tmp);

/* Names under tmp starting with "cugrade-", joined by spaces, into out;
 * how many. */
static int leftovers(char *out, size_t len)
{
    DIR *d = opendir(tmp);
    cr_assert_not_null(d);
    int n = 0;
    out[0] = '\0';
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strncmp(e->d_name, "cugrade-", 8) != 0)
            continue;
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s ", e->d_name);
        n++;
    }
    closedir(d);
    return n;
}

/* Whether tmp holds a folder named cugrade-XXXXXX<suffix>. */
static int holds(const char *suffix)
{
    DIR *d = opendir(tmp);
    cr_assert_not_null(d);
    int found = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        found |= strncmp(e->d_name, "cugrade-", 8) == 0 && n == 14 + strlen(suffix) &&
                 strcmp(e->d_name + 14, suffix) == 0;
    }
    closedir(d);
    return found;
}

/* `cugrade run` on the endless kernel with TMPDIR=tmp, in its own process
 * group, once its scratch folder and hidden datasets are there (it is then
 * building or running). */
static pid_t start_endless_grading(void)
{
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        setpgid(0, 0);
        setenv("TMPDIR", tmp, 1);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execl("bin/cugrade", "bin/cugrade", "run", "--lab", "lab3", "--backend", "emu",
              SUB "endless_kernel.cu", (char *)NULL);
        _exit(127);
    }
    double until = now_seconds() + 60;
    while (!(holds("") && holds("-hidden")) && now_seconds() < until)
        usleep(20000);
    return pid;
}

/* A grading of compile_error.cu with TMPDIR=tmp: it sweeps, then grades. */
static graded_t grade_another(void)
{
    char env_tmp[128];
    snprintf(env_tmp, sizeof env_tmp, "TMPDIR=%s", tmp);
    char *env[] = {env_tmp, NULL};
    graded_t g = grade_on("emu", SUB "compile_error.cu", NULL, env);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    return g;
}

static void kill_grading(pid_t pid)
{
    kill(-pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

Test(killed_grading, the_next_grading_removes_what_a_killed_one_left, .timeout = 180)
{
    char names[4096];
    pid_t pid = start_endless_grading();
    usleep(500000);
    int alive = waitpid(pid, NULL, WNOHANG) == 0;
    kill_grading(pid);
    cr_assert(alive, "it ended before it was killed");
    cr_assert(holds("") && holds("-hidden"), "the killed grading left nothing: %d: %s",
              leftovers(names, sizeof names), names);
    graded_t g = grade_another();
    cr_assert_eq(leftovers(names, sizeof names), 0, "left in TMPDIR: %s", names);
    release(&g);
}

/* A grading going on beside is not touched by the sweep of one starting. */
Test(killed_grading, a_live_grading_keeps_its_folders, .timeout = 180)
{
    char names[4096];
    pid_t pid = start_endless_grading();
    graded_t g = grade_another();
    int alive = waitpid(pid, NULL, WNOHANG) == 0;
    int kept = holds("") && holds("-hidden");
    leftovers(names, sizeof names);
    kill_grading(pid);
    cr_assert(alive, "the first grading ended too soon to tell");
    cr_assert(kept, "a live grading's folders were removed: %s", names);
    release(&g);
}
