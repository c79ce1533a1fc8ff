/* sandbox_jail.c - the jail's side of the sandbox (sandbox_jail.h), the
 * lowest of its layers (jail, argv, tier, view: each calls only those
 * before it): where bin/cugrade-jail is, the uid a grading's code runs as
 * and its command line; and, in the runner's child as root, the folders
 * that uid is given or let through, and the rlimits. */
#include "run/sandbox_jail.h"
#include "util/cugrade.h"
#include "util/tmpdir.h"

#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned uid_of_grading; /* jail_uid(), set by jail_settle */
static char our_tmp[PATH_MAX];  /* <tmp_root, resolved>/cugrade-, set by jail_settle */

int jail_find(char *jail, size_t len)
{
    char self[PATH_MAX], cwd[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    const char *candidates[3] = {NULL, NULL, NULL};
    char beside[PATH_MAX], in_root[PATH_MAX], in_cwd[PATH_MAX], found[PATH_MAX];
    if (n > 0) {
        self[n] = '\0';
        snprintf(beside, sizeof beside, "%.*s/cugrade-jail", (int)(strrchr(self, '/') - self), self);
        candidates[0] = beside;
    }
    snprintf(in_root, sizeof in_root, "%.4000s/bin/cugrade-jail", cugrade_root());
    candidates[1] = in_root;
    if (getcwd(cwd, sizeof cwd)) {
        snprintf(in_cwd, sizeof in_cwd, "%.4000s/bin/cugrade-jail", cwd);
        candidates[2] = in_cwd;
    }
    for (int i = 0; i < 3; i++)
        if (candidates[i] && access(candidates[i], X_OK) == 0 && realpath(candidates[i], found) &&
            strlen(found) < len) {
            snprintf(jail, len, "%s", found);
            return 1;
        }
    return 0;
}

void jail_settle(void)
{
    uid_of_grading = (unsigned)geteuid();
    if (geteuid() == 0) {
        const char *base = getenv("CUGRADE_SANDBOX_UID_BASE");
        unsigned long b = base && *base ? strtoul(base, NULL, 10) : SANDBOX_UID_BASE;
        uid_of_grading = (unsigned)(b + (unsigned long)getpid());
    }
    char tmp[PATH_MAX];
    if (realpath(tmp_root(), tmp))
        snprintf(our_tmp, sizeof our_tmp, "%.4000s/cugrade-", tmp);
}

int sandbox_seccomp_off(void)
{
    const char *v = getenv("CUGRADE_SECCOMP");
    return v && strcmp(v, "off") == 0;
}

unsigned jail_uid(void) { return uid_of_grading; }

#define JAIL_MAX_ARGS (16 + 2 * 8)

static void add(char **argv, int *n, const char *s)
{
    if (*n < JAIL_MAX_ARGS - 1)
        argv[(*n)++] = strdup(s);
}

char **jail_args(const char *jail, int userns, const sandbox_how_t *how)
{
    char **argv = calloc(JAIL_MAX_ARGS, sizeof *argv);
    int nargs = 0, *n = &nargs;
    char num[32];
    if (!argv)
        return NULL;
    add(argv, n, jail);
    if (geteuid() == 0) {
        snprintf(num, sizeof num, "%u", uid_of_grading);
        add(argv, n, "--uid");
        add(argv, n, num);
        add(argv, n, "--gid");
        add(argv, n, num);
        if (userns)
            add(argv, n, "--userns");
    }
    add(argv, n, "--policy");
    add(argv, n, how && how->tool ? "tool" : "program");
    if (sandbox_seccomp_off())
        add(argv, n, "--no-seccomp");
    for (int i = 0; how && i < how->nkeep; i++) {
        snprintf(num, sizeof num, "%d", how->keep[i]);
        add(argv, n, "--keep");
        add(argv, n, num);
    }
    if (how) { /* a trial has no start pipe */
        add(argv, n, "--started");
        add(argv, n, SANDBOX_STARTED_FD_TEXT);
    }
    add(argv, n, "--");
    argv[nargs] = NULL;
    return argv;
}

static unsigned given_uid; /* for give_one: nftw passes no context */

static int give_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return lchown(path, given_uid, given_uid);
}

/* The second tier, where no view hides the way: each folder above path in
 * one of this grading's own temporary folders (<tmp_root>/cugrade-*, 0700,
 * its owner file naming this process) lets the sandbox's gid pass (group,
 * g+x), not read or write: the grading reaches its program and run folder,
 * nothing of another grading's, and never changes a folder another grading
 * (a batch's unpacked archives) shares. */
void jail_open_way(const char *path)
{
    char abs[PATH_MAX];
    size_t k = strlen(our_tmp);
    if (!path || !k || !realpath(path, abs) || strncmp(abs, our_tmp, k) != 0)
        return;
    char *top_end = strchr(abs + k, '/');
    if (top_end)
        *top_end = '\0';
    int mine = tmp_dir_is_mine(abs);
    if (top_end)
        *top_end = '/';
    if (!mine)
        return;
    for (char *slash = strchr(abs + k, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        struct stat st;
        if (lstat(abs, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == 0 &&
            (st.st_gid != uid_of_grading || !(st.st_mode & S_IXGRP))) {
            if (chown(abs, (uid_t)-1, uid_of_grading) == 0)
                chmod(abs, (st.st_mode & 07777 & ~(mode_t)S_IRWXG) | S_IXGRP);
        }
        *slash = '/';
    }
}

int jail_give_folder(const char *dir, int with_contents)
{
    given_uid = uid_of_grading;
    if (!with_contents)
        return chown(dir, given_uid, given_uid);
    return nftw(dir, give_one, 16, FTW_PHYS);
}

void sandbox_apply_rlimits(size_t file_limit)
{
    rlim_t f = file_limit > SANDBOX_FSIZE_LIMIT ? (rlim_t)file_limit : (rlim_t)SANDBOX_FSIZE_LIMIT;
    struct rlimit nproc = {SANDBOX_NPROC_LIMIT, SANDBOX_NPROC_LIMIT};
    struct rlimit fsize = {f, f};
    setrlimit(RLIMIT_NPROC, &nproc); /* ignored for root (CAP_SYS_RESOURCE) */
    setrlimit(RLIMIT_FSIZE, &fsize);
}
