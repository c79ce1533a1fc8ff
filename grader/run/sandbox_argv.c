/* sandbox_argv.c - the pieces of a sandboxed command line and the trial
 * run that probes a tier (sandbox_argv.h). */
#include "run/sandbox_argv.h"
#include "run/sandbox_jail.h"
#include "util/util.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Namespaces, a fresh /dev, /proc and a small /tmp (anyone's, as a /tmp is:
 * the program is not root); the root is an empty tmpfs (bwrap's), so
 * nothing is visible that is not mounted below. */
static const char *const base_args[] = {
    "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--die-with-parent",
    "--new-session", "--dev", "/dev", "--proc", "/proc", "--size", SANDBOX_TMP_BYTES, "--perms",
    "1777", "--tmpfs", "/tmp", NULL};

const char *const sandbox_system_dirs[SANDBOX_SYSTEM_DIRS + 1] = {
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", NULL};

void argv_add(char **argv, int *n, const char *s)
{
    if (*n < SANDBOX_MAX_ARGS - 1)
        argv[(*n)++] = strdup(s);
}

void argv_add_mount(char **argv, int *n, const char *how, const char *path)
{
    argv_add(argv, n, how);
    argv_add(argv, n, path);
    argv_add(argv, n, path);
}

void argv_add_bwrap(char **argv, int *n, const char *bwrap)
{
    argv_add(argv, n, bwrap);
    for (int i = 0; base_args[i]; i++)
        argv_add(argv, n, base_args[i]);
}

void argv_add_system(char **argv, int *n)
{
    for (int i = 0; sandbox_system_dirs[i]; i++) {
        char target[PATH_MAX];
        ssize_t len = readlink(sandbox_system_dirs[i], target, sizeof target - 1);
        if (len > 0) {
            target[len] = '\0';
            argv_add(argv, n, "--symlink");
            argv_add(argv, n, target);
            argv_add(argv, n, sandbox_system_dirs[i]);
        } else if (is_dir(sandbox_system_dirs[i])) {
            argv_add_mount(argv, n, "--ro-bind", sandbox_system_dirs[i]);
        }
    }
}

void argv_add_jail_mount(char **argv, int *n, const char *jail)
{
    argv_add(argv, n, "--ro-bind");
    argv_add(argv, n, jail);
    argv_add(argv, n, JAIL_INSIDE);
}

void argv_add_jail(char **argv, int *n, const char *jail, int in_bwrap, int userns,
                   const sandbox_how_t *how)
{
    char **args = jail_args(in_bwrap ? JAIL_INSIDE : jail, in_bwrap && userns, how);
    for (int i = 0; args && args[i]; i++) {
        argv_add(argv, n, args[i]);
        free(args[i]);
    }
    free(args);
}

int sandbox_trial_run(const char *bwrap, const char *jail, int userns,
                      const char *const *option_args)
{
    char *argv[SANDBOX_MAX_ARGS];
    int n = 0;
    if (bwrap) {
        argv_add_bwrap(argv, &n, bwrap);
        for (int i = 0; option_args && option_args[i]; i++)
            argv_add(argv, &n, option_args[i]);
        argv_add_system(argv, &n);
        argv_add_jail_mount(argv, &n, jail);
        argv_add(argv, &n, "--");
    }
    argv_add_jail(argv, &n, jail, bwrap != NULL, userns, NULL);
    argv_add(argv, &n, "/bin/true");
    argv[n] = NULL;
    posix_spawn_file_actions_t quiet;
    posix_spawn_file_actions_init(&quiet);
    posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int spawned = posix_spawn(&pid, argv[0], &quiet, NULL, argv, environ) == 0;
    posix_spawn_file_actions_destroy(&quiet);
    for (int i = 0; i < n; i++)
        free(argv[i]);
    if (!spawned)
        return 0;
    int status = 0;
    for (int waited_ms = 0; waitpid(pid, &status, WNOHANG) == 0; waited_ms += 10) {
        if (waited_ms >= 10000) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return 0;
        }
        usleep(10000);
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
