/* test_tmpdir.c - temporary folders that name their owner's lock (util/tmpdir.h):
 * a live one survives every sweep, one whose owner died is removed by the
 * next, and nothing else is touched (a folder without an owner file, one
 * kept, a file, a link to a stale folder elsewhere). Owners that die are
 * forked children that make a folder and _exit. And the temporary names a
 * file is made under before it is renamed over its place (temp_path_for):
 * never the same twice in a process, so threads that make the same file at
 * once do not write into one. */
#include <criterion/criterion.h>

#include "util/tmpdir.h"
#include "util/util.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char root[64], elsewhere[64];

static void make_roots(void)
{
    snprintf(root, sizeof root, "/tmp/tmpdir-test-XXXXXX");
    snprintf(elsewhere, sizeof elsewhere, "/tmp/tmpdir-else-XXXXXX");
    cr_assert_not_null(mkdtemp(root));
    cr_assert_not_null(mkdtemp(elsewhere));
    setenv("TMPDIR", root, 1);
}

static void remove_roots(void)
{
    rm_rf(root);
    rm_rf(elsewhere);
}

TestSuite(tmpdir, .init = make_roots, .fini = remove_roots);

/* A child makes a folder of kind `kind` under TMPDIR=under (or, with keep,
 * keeps it) and dies without removing it; its path into path. */
static void made_by_a_dead_owner(const char *under, const char *kind, int keep, char *path,
                                 size_t len)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        char p[PATH_MAX], err[256];
        setenv("TMPDIR", under, 1);
        if (tmp_dir_make(kind, p, sizeof p, err, sizeof err) != 0)
            _exit(1);
        if (keep)
            tmp_dir_keep(p);
        if (write(fds[1], p, strlen(p) + 1) < 0)
            _exit(2);
        _exit(0);
    }
    close(fds[1]);
    ssize_t n = read(fds[0], path, len - 1);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0 && n > 0, "the child made no folder");
    path[n] = '\0';
}

/* How many folders a sweep in another process removes. */
static int sweep_in_a_child(void)
{
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0)
        _exit(tmp_sweep());
    int status;
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* The lock files under TMPDIR. */
static int count_locks(void)
{
    DIR *d = opendir(root);
    cr_assert_not_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strncmp(e->d_name, "cugrade-lock-", 13) == 0;
    closedir(d);
    return n;
}

Test(tmpdir, a_folder_is_made_under_TMPDIR_with_its_kind_and_an_owner_file)
{
    char path[PATH_MAX], err[256], owner[PATH_MAX + 32], want[128];
    cr_assert_eq(tmp_dir_make("hidden-", path, sizeof path, err, sizeof err), 0, "%s", err);
    snprintf(want, sizeof want, "%s/cugrade-hidden-", root);
    cr_assert(strncmp(path, want, strlen(want)) == 0 && strlen(path) == strlen(want) + 6, "%s",
              path);
    snprintf(owner, sizeof owner, "%s/" TMP_OWNER_FILE, path);
    cr_assert(is_file(owner));
    rm_rf(path);
    cr_assert_not(is_dir(path));
}

Test(tmpdir, a_live_folder_survives_a_sweep_here_and_in_another_process)
{
    char path[PATH_MAX], sibling[PATH_MAX + 8], err[256];
    cr_assert_eq(tmp_dir_make("", path, sizeof path, err, sizeof err), 0, "%s", err);
    snprintf(sibling, sizeof sibling, "%s-hidden", path);
    cr_assert_eq(tmp_dir_make_at(sibling, err, sizeof err), 0, "%s", err);
    cr_assert_eq(tmp_sweep(), 0);
    cr_assert_eq(sweep_in_a_child(), 0);
    cr_assert(is_dir(path) && is_dir(sibling));
    rm_rf(sibling);
    rm_rf(path);
}

Test(tmpdir, a_folder_whose_owner_died_is_removed_by_the_next_sweep)
{
    char dead[PATH_MAX], live[PATH_MAX], err[256];
    made_by_a_dead_owner(root, "", 0, dead, sizeof dead);
    cr_assert_eq(tmp_dir_make("", live, sizeof live, err, sizeof err), 0, "%s", err);
    cr_assert(is_dir(dead), "the owner died without removing it");
    cr_assert_eq(count_locks(), 2, "each owner has a lock file");
    cr_assert_eq(tmp_sweep(), 1);
    cr_assert_not(is_dir(dead));
    cr_assert(is_dir(live));
    cr_assert_eq(count_locks(), 1, "the dead owner's lock file is gone, the live one's stays");
    cr_assert_eq(tmp_sweep(), 0);
    rm_rf(live);
}

Test(tmpdir, nothing_else_is_touched)
{
    char path[PATH_MAX + 32], stale[PATH_MAX], kept[PATH_MAX];
    snprintf(path, sizeof path, "%s/cugrade-unowned", root); /* an older cugrade's, a test's */
    cr_assert_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/cugrade-a-file", root);
    cr_assert_eq(write_file_atomic(path, "x", 1, NULL, 0), 0);
    made_by_a_dead_owner(root, "kept-", 1, kept, sizeof kept);
    made_by_a_dead_owner(elsewhere, "", 0, stale, sizeof stale);
    snprintf(path, sizeof path, "%s/cugrade-link", root);
    cr_assert_eq(symlink(stale, path), 0);
    cr_assert_eq(tmp_sweep(), 0);
    snprintf(path, sizeof path, "%s/cugrade-unowned", root);
    cr_assert(is_dir(path));
    snprintf(path, sizeof path, "%s/cugrade-a-file", root);
    cr_assert(is_file(path));
    cr_assert(is_dir(kept), "a kept folder stays");
    cr_assert(is_dir(stale), "a link is not followed");
    snprintf(path, sizeof path, "%s/" TMP_OWNER_FILE, stale);
    cr_assert(is_file(path));
}

Test(tmpdir, a_process_keeps_one_descriptor_whatever_the_number_of_folders)
{
    static char paths[200][PATH_MAX];
    char err[256];
    struct rlimit few = {.rlim_cur = 64, .rlim_max = 64};
    cr_assert_eq(setrlimit(RLIMIT_NOFILE, &few), 0);
    for (int i = 0; i < 200; i++) /* a batch's unpacked archives, all there at once */
        cr_assert_eq(tmp_dir_make("sub-", paths[i], sizeof paths[i], err, sizeof err), 0, "%d: %s",
                     i, err);
    cr_assert_eq(tmp_sweep(), 0);
    for (int i = 0; i < 200; i++) {
        rm_rf(paths[i]);
        cr_assert_not(is_dir(paths[i]));
    }
}

Test(tmpdir, a_normal_exit_takes_its_lock_file_along)
{
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        char p[PATH_MAX];
        if (tmp_dir_make("", p, sizeof p, NULL, 0) != 0)
            _exit(1);
        rm_rf(p);
        exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    cr_assert_eq(count_locks(), 0);
}

Test(temp_path, each_call_names_a_file_of_its_own_beside_the_path)
{
    char a[128], b[128], prefix[64];
    cr_assert_eq(temp_path_for(a, sizeof a, "/x/build/timing.o", ".o"), 0);
    cr_assert_eq(temp_path_for(b, sizeof b, "/x/build/timing.o", ".o"), 0);
    snprintf(prefix, sizeof prefix, "/x/build/timing.o.tmp.%ld.", (long)getpid());
    cr_assert_eq(strncmp(a, prefix, strlen(prefix)), 0, "%s", a);
    cr_assert_eq(strncmp(b, prefix, strlen(prefix)), 0, "%s", b);
    cr_assert_str_eq(a + strlen(a) - 2, ".o");
    cr_assert_str_neq(a, b, "two calls, one name: %s", a);
    char small[24];
    cr_assert_eq(temp_path_for(small, sizeof small, "/x/build/timing.o", ".o"), -1,
                 "a name that does not fit is refused, not cut");
}
