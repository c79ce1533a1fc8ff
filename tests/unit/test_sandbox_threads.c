/* test_sandbox_threads.c - sandboxes built by several threads while another
 * hides folders (grader/run/sandbox.c): a grading builds its emulator build's
 * sandbox, a retry's and its datasets' at once, and a batch times its
 * baselines while it makes the hidden datasets. A folder hidden must never be
 * seen half-added: the list of hidden folders counted one before it held
 * it, and a `cugrade run` of a class of 500 on an H200 died of it
 * (SIGSEGV, 2026-11-29). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/sandbox.h"
#include "util/util.h"

#define FOLDERS 56  /* new hidden folders a child adds (the list holds 64) */
#define CHILDREN 150 /* each a fresh list: the races are in the adding */
#define WRAPPERS 2

static char base[64];
static atomic_int stop;

static void *wrap_until_stopped(void *arg)
{
    (void)arg;
    char *program[] = {"/bin/true", NULL};
    while (!atomic_load(&stop)) {
        char **argv = sandbox_wrap_argv(program, base, NULL, NULL, NULL);
        if (!argv)
            _exit(3); /* bubblewrap was usable in the parent */
        sandbox_argv_free(argv);
    }
    return NULL;
}

/* In a child: FOLDERS folders hidden while WRAPPERS threads build sandboxes. */
static void hide_while_wrapping(void)
{
    pthread_t t[WRAPPERS];
    for (int i = 0; i < WRAPPERS; i++)
        if (pthread_create(&t[i], NULL, wrap_until_stopped, NULL) != 0)
            _exit(4);
    for (int k = 0; k < FOLDERS; k++) {
        char d[96];
        snprintf(d, sizeof d, "%s/h%d", base, k);
        sandbox_hide_dir(d);
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < WRAPPERS; i++)
        pthread_join(t[i], NULL);
}

/* The last child's sandbox, built after it all: every folder hidden under
 * the writable folder covered. */
static int covers_every_folder(void)
{
    char *program[] = {"/bin/true", NULL};
    char **argv = sandbox_wrap_argv(program, base, NULL, NULL, NULL);
    int covered = 0;
    for (int i = 0; argv && argv[i] && argv[i + 1]; i++)
        covered += strcmp(argv[i], "--tmpfs") == 0 && strncmp(argv[i + 1], base, strlen(base)) == 0;
    sandbox_argv_free(argv);
    return covered;
}

Test(sandbox_threads, folders_hidden_while_other_threads_build_sandboxes, .timeout = 120)
{
    if (!sandbox_available())
        cr_skip_test("bubblewrap is not usable here");
    snprintf(base, sizeof base, "/tmp/cugrade-hide-XXXXXX");
    cr_assert_not_null(mkdtemp(base));
    for (int k = 0; k < FOLDERS; k++) {
        char d[96];
        snprintf(d, sizeof d, "%s/h%d", base, k);
        cr_assert_eq(mkdir(d, 0755), 0);
    }
    int crashed = 0, failed = 0, last_covered = -1;
    for (int c = 0; c < CHILDREN; c++) {
        fflush(NULL);
        pid_t pid = fork();
        cr_assert(pid >= 0);
        if (pid == 0) {
            hide_while_wrapping();
            _exit(c == CHILDREN - 1 ? covers_every_folder() : 0);
        }
        int status;
        cr_assert_eq(waitpid(pid, &status, 0), pid);
        crashed += WIFSIGNALED(status);
        if (WIFEXITED(status) && c == CHILDREN - 1)
            last_covered = WEXITSTATUS(status);
        else
            failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    }
    rm_rf(base);
    cr_expect_eq(crashed, 0, "%d of %d children died building sandboxes while folders were hidden",
                 crashed, CHILDREN);
    cr_expect_eq(failed - crashed, 0, "%d children failed otherwise", failed - crashed);
    cr_expect_eq(last_covered, FOLDERS, "the last sandbox covered %d of the %d hidden folders",
                 last_covered, FOLDERS);
}
