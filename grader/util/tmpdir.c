/* tmpdir.c - temporary folders that name their owner's lock, and the sweep
 * of those whose owner died (tmpdir.h). */
#include "util/tmpdir.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define TMP_PREFIX "cugrade-"
#define LOCK_PREFIX TMP_PREFIX "lock-"

/* This process's lock file (a batch's threads share it; a forked child that
 * makes folders takes its own). */
static pthread_mutex_t lock_mutex = PTHREAD_MUTEX_INITIALIZER;
static char lock_path[PATH_MAX];
static int lock_fd = -1;
static pid_t lock_pid;

const char *tmp_root(void)
{
    const char *tmp = getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

/* At a normal exit the lock file goes (a kill leaves it to the next sweep);
 * a folder still naming it is then a dead owner's. */
static void drop_lock(void)
{
    if (lock_fd >= 0 && lock_pid == getpid()) {
        unlink(lock_path);
        close(lock_fd);
        lock_fd = -1;
    }
}

/* The lock file made under a temporary name, locked, then renamed into
 * place: whoever finds it finds it locked. */
static int make_lock(char *err, size_t errlen)
{
    char tmp[PATH_MAX], final[PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s/.%sXXXXXX", tmp_root(), LOCK_PREFIX) >= (int)sizeof tmp)
        return fail(err, errlen, "the temporary folder %.600s: path too long", tmp_root());
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0)
        return fail(err, errlen, "cannot create a lock file under %.600s: %s", tmp_root(),
                    strerror(errno));
    snprintf(final, sizeof final, "%s/%s", tmp_root(), path_base(tmp) + 1);
    if (flock(fd, LOCK_EX) != 0 || rename(tmp, final) != 0) {
        int e = errno;
        unlink(tmp);
        close(fd);
        return fail(err, errlen, "cannot lock %.600s: %s", final, strerror(e));
    }
    if (lock_fd >= 0 && lock_pid != getpid())
        close(lock_fd); /* the parent's, inherited */
    else if (lock_fd < 0)
        atexit(drop_lock);
    lock_fd = fd;
    lock_pid = getpid();
    snprintf(lock_path, sizeof lock_path, "%s", final);
    return 0;
}

/* The folder's owner file, naming this process's lock file. Where no lock
 * can be had (a filesystem without flock) the folder stays unowned: never
 * swept, never a grading's failure. */
static void own(const char *path)
{
    char owner[PATH_MAX], named[PATH_MAX];
    if (path_join(owner, sizeof owner, path, TMP_OWNER_FILE) != 0)
        return;
    pthread_mutex_lock(&lock_mutex);
    int rc = lock_fd >= 0 && lock_pid == getpid() ? 0 : make_lock(NULL, 0);
    snprintf(named, sizeof named, "%s", lock_path);
    pthread_mutex_unlock(&lock_mutex);
    if (rc == 0 && write_file_atomic(owner, named, strlen(named), NULL, 0) != 0)
        unlink(owner);
}

int tmp_dir_make(const char *kind, char *path, size_t pathlen, char *err, size_t errlen)
{
    if (snprintf(path, pathlen, "%s/" TMP_PREFIX "%sXXXXXX", tmp_root(), kind) >= (int)pathlen)
        return fail(err, errlen, "the temporary folder %.600s: path too long", tmp_root());
    if (!mkdtemp(path)) {
        int e = errno;
        path[0] = '\0';
        return fail(err, errlen, "cannot create a scratch folder under %.600s: %s", tmp_root(),
                    strerror(e));
    }
    own(path);
    return 0;
}

int tmp_dir_make_at(const char *path, char *err, size_t errlen)
{
    if (mkdir(path, 0700) != 0)
        return fail(err, errlen, "%s: cannot create: %s", path, strerror(errno));
    own(path);
    return 0;
}

int tmp_dir_is_mine(const char *dir)
{
    char owner[PATH_MAX];
    if (!lock_path[0] || path_join(owner, sizeof owner, dir, TMP_OWNER_FILE) != 0)
        return 0;
    char *named = read_file(owner, NULL, NULL, 0);
    int mine = named && strcmp(named, lock_path) == 0;
    free(named);
    return mine;
}

void tmp_dir_keep(const char *path)
{
    char owner[PATH_MAX];
    if (path_join(owner, sizeof owner, path, TMP_OWNER_FILE) == 0)
        unlink(owner);
}

/* path is the user's and of the given type (S_IFDIR, S_IFREG), not a link. */
static int users(const char *path, mode_t type)
{
    struct stat st;
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == type && st.st_uid == getuid();
}

/* Whether the lock file at path is held: 0 when it is free, missing or not
 * a lock file of ours (a dead owner's, or a forged name); 1 when flock says
 * it is taken or cannot say (a filesystem without locks). */
static int held(const char *path)
{
    if (strncmp(path_base(path), LOCK_PREFIX, strlen(LOCK_PREFIX)) != 0 || !users(path, S_IFREG))
        return 0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int busy = flock(fd, LOCK_SH | LOCK_NB) != 0; /* any doubt: its owner may live */
    close(fd);
    return busy;
}

/* The folder path, made here by a process that is gone: removed. */
static int sweep_folder(const char *path)
{
    char owner[PATH_MAX];
    if (path_join(owner, sizeof owner, path, TMP_OWNER_FILE) != 0 || !users(path, S_IFDIR) ||
        !users(owner, S_IFREG))
        return 0;
    char *named = read_file(owner, NULL, NULL, 0);
    int dead = named && !held(named);
    free(named);
    if (dead)
        rm_rf(path);
    return dead;
}

int tmp_sweep(void)
{
    const char *root = tmp_root();
    DIR *d = opendir(root);
    if (!d)
        return 0;
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char path[PATH_MAX];
        if (strncmp(e->d_name, TMP_PREFIX, strlen(TMP_PREFIX)) != 0 ||
            path_join(path, sizeof path, root, e->d_name) != 0)
            continue;
        if (strncmp(e->d_name, LOCK_PREFIX, strlen(LOCK_PREFIX)) == 0) {
            if (users(path, S_IFREG) && !held(path))
                unlink(path); /* folders naming it are the dead's, as when it is missing */
        } else {
            removed += sweep_folder(path);
        }
    }
    closedir(d);
    return removed;
}
