/* sandbox.c - bubblewrap around student runs, or rlimits where it is
 * missing. The bwrap command line is built in the parent; mounts listed
 * later lie on top of earlier ones, so the hidden folders come after the
 * read-only root and the run's own folders after the private /tmp. */
#include "run/sandbox.h"
#include "util/util.h"

#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <spawn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define MAX_HIDDEN 16
#define MAX_ARGS 256

static char bwrap_path[PATH_MAX];
static int available = -1;
static char *hidden[MAX_HIDDEN];
static int nhidden;

static const char *const base_args[] = {
    "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
    "--unshare-pid", "--unshare-net", "--die-with-parent", "--new-session", NULL};

static int disabled_by_env(void)
{
    const char *v = getenv("CUGRADE_SANDBOX");
    return v && strcmp(v, "none") == 0;
}

static int find_bwrap(void)
{
    const char *path = getenv("PATH");
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", path && *path ? path : "/usr/bin:/bin");
    for (char *save, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(bwrap_path, sizeof bwrap_path, "%.4000s/bwrap", d);
        if (access(bwrap_path, X_OK) == 0)
            return 1;
    }
    return 0;
}

/* bwrap runs `true` in the sandbox: 1 if it exits 0 within 10 s. Spawned
 * here, not through runner.c, which is built on top of this file. */
static int trial_run(void)
{
    char *argv[32];
    int n = 0;
    argv[n++] = bwrap_path;
    for (int i = 0; base_args[i]; i++)
        argv[n++] = (char *)base_args[i];
    argv[n++] = "true";
    argv[n] = NULL;
    posix_spawn_file_actions_t quiet;
    posix_spawn_file_actions_init(&quiet);
    posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int spawned = posix_spawn(&pid, bwrap_path, &quiet, NULL, argv, environ) == 0;
    posix_spawn_file_actions_destroy(&quiet);
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

int sandbox_available(void)
{
    if (available < 0)
        available = !disabled_by_env() && find_bwrap() && trial_run();
    return available;
}

const char *sandbox_description(void)
{
    if (sandbox_available())
        return "sandbox: bubblewrap";
    return disabled_by_env()
               ? "sandbox: none (disabled by CUGRADE_SANDBOX=none: rlimits and a process group only)"
               : "sandbox: none (bubblewrap unavailable: rlimits and a process group only)";
}

void sandbox_hide_dir(const char *dir)
{
    char real[PATH_MAX];
    if (!dir || !realpath(dir, real) || !is_dir(real) || strcmp(real, "/") == 0)
        return;
    for (int i = 0; i < nhidden; i++)
        if (strcmp(hidden[i], real) == 0)
            return;
    if (nhidden < MAX_HIDDEN)
        hidden[nhidden++] = strdup(real);
}

void sandbox_set_results_dir(const char *dir) { sandbox_hide_dir(dir); }

/* <tree>/datasets of the running cugrade (bin/cugrade -> <tree>). */
static void hide_own_datasets(void)
{
    char exe[PATH_MAX], ds[PATH_MAX + 16];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return;
    exe[n] = '\0';
    snprintf(ds, sizeof ds, "%s/../../datasets", exe);
    sandbox_hide_dir(ds);
}

static void add(char **argv, int *n, const char *s)
{
    if (*n < MAX_ARGS - 1)
        argv[(*n)++] = strdup(s);
}

static void add_mount(char **argv, int *n, const char *how, const char *path)
{
    add(argv, n, how);
    add(argv, n, path);
    add(argv, n, path);
}

static void add_nvidia_devices(char **argv, int *n)
{
    DIR *d = opendir("/dev");
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        char path[300];
        if (strncmp(e->d_name, "nvidia", 6) != 0)
            continue;
        snprintf(path, sizeof path, "/dev/%s", e->d_name);
        add_mount(argv, n, "--dev-bind", path);
    }
    closedir(d);
}

char **sandbox_wrap_argv(char *const *program_argv, const char *cwd)
{
    if (!sandbox_available() || !cwd)
        return NULL;
    hide_own_datasets();
    char **argv = calloc(MAX_ARGS, sizeof *argv);
    int n = 0;
    add(argv, &n, bwrap_path);
    for (int i = 0; base_args[i]; i++)
        add(argv, &n, base_args[i]);
    for (int i = 0; i < nhidden; i++) {
        add(argv, &n, "--tmpfs");
        add(argv, &n, hidden[i]);
    }
    char progdir[PATH_MAX];
    snprintf(progdir, sizeof progdir, "%s", program_argv[0]);
    add_mount(argv, &n, "--ro-bind", dirname(progdir));
    add_mount(argv, &n, "--bind", cwd);
    add_nvidia_devices(argv, &n);
    add(argv, &n, "--chdir");
    add(argv, &n, cwd);
    add(argv, &n, "--");
    for (char *const *a = program_argv; *a; a++)
        add(argv, &n, *a);
    return argv;
}

void sandbox_argv_free(char **argv)
{
    for (int i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

void sandbox_apply_rlimits(void)
{
    struct rlimit nproc = {SANDBOX_NPROC_LIMIT, SANDBOX_NPROC_LIMIT};
    struct rlimit fsize = {SANDBOX_FSIZE_LIMIT, SANDBOX_FSIZE_LIMIT};
    setrlimit(RLIMIT_NPROC, &nproc); /* ignored for root (CAP_SYS_RESOURCE) */
    setrlimit(RLIMIT_FSIZE, &fsize);
}
