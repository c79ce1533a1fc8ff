/* readable_copy.c - a readable copy of a submission's folder for the
 * sandbox's uid (readable_copy.h). */
#include "build/readable_copy.h"
#include "run/sandbox.h"
#include "util/sha256.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHARE_MAX_FILES 256
#define SHARE_MAX_BYTES (16L * 1024 * 1024) /* a larger file is not a source file */

/* 1 if the sandbox's uid may list and enter st's folder, or read st's file
 * (as its owner, else as others). */
static int readable(const struct stat *st, int folder)
{
    mode_t need = folder ? S_IROTH | S_IXOTH : S_IROTH;
    if (st->st_uid == sandbox_uid())
        need = folder ? S_IRUSR | S_IXUSR : S_IRUSR;
    return (st->st_mode & need) == need;
}

/* A file the compilers may read from a submission's folder: its sources
 * and headers (not whatever else lies there: /tmp's other files). */
static int source_like(const char *name)
{
    static const char *const ext[] = {".cu", ".cuh", ".h", ".hh", ".hpp", ".c", ".cc",
                                      ".cpp", ".cxx", ".inc", ".inl", ".cuinc", NULL};
    const char *dot = strrchr(name, '.');
    for (int i = 0; dot && ext[i]; i++)
        if (strcmp(dot, ext[i]) == 0)
            return 1;
    return 0;
}

/* 1 if the sandbox's uid may list dir and read each of its sources. */
static int readable_by_sandbox(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0 || !readable(&st, 1))
        return 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int ok = 1;
    for (struct dirent *e; ok && (e = readdir(d));) {
        char path[PATH_MAX];
        if (source_like(e->d_name) &&
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path &&
            stat(path, &st) == 0 && S_ISREG(st.st_mode))
            ok = readable(&st, 0);
    }
    closedir(d);
    return ok;
}

static int copy_files(const char *from, const char *to, char *why, size_t whylen)
{
    DIR *d = opendir(from);
    if (!d) {
        snprintf(why, whylen, "cannot read %s: %s", from, strerror(errno));
        return -1;
    }
    int n = 0, rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        char src[PATH_MAX], dst[PATH_MAX];
        struct stat st;
        if (snprintf(src, sizeof src, "%s/%s", from, e->d_name) >= (int)sizeof src ||
            snprintf(dst, sizeof dst, "%s/%s", to, e->d_name) >= (int)sizeof dst ||
            !source_like(e->d_name) || lstat(src, &st) != 0 || !S_ISREG(st.st_mode) ||
            st.st_size > SHARE_MAX_BYTES ||
            ++n > SHARE_MAX_FILES)
            continue;
        size_t len = 0;
        char *data = read_file(src, &len, NULL, 0);
        if (!data) /* gone since it was listed (a folder others use, /tmp): not the copy's */
            continue;
        if (write_file_atomic(dst, data, len, why, whylen) != 0 || chmod(dst, 0644) != 0)
            rc = -1;
        free(data);
    }
    closedir(d);
    return rc;
}

/* 1 if the sandbox's uid may pass through every folder above dir (the
 * second tier, where no view makes the way). */
static int reachable_by_sandbox(const char *dir)
{
    char path[PATH_MAX];
    if (!realpath(dir, path))
        return 0;
    for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        struct stat st;
        int pass = stat(path, &st) == 0 &&
                   (st.st_uid == sandbox_uid() ? (st.st_mode & S_IXUSR) : (st.st_mode & S_IXOTH));
        *slash = '/';
        if (!pass)
            return 0;
    }
    return 1;
}

static int make_copy(const char *src_dir, const char *scratch, char *copy, size_t copylen,
                     char *why, size_t whylen);

int readable_copy(const char *src_dir, const char *scratch, char *copy, size_t copylen,
                  char *why, size_t whylen)
{
    if (geteuid() != 0 || sandbox_tier() != SANDBOX_BWRAP || readable_by_sandbox(src_dir))
        return 0;
    return make_copy(src_dir, scratch, copy, copylen, why, whylen);
}

int readable_copy_in_place(const char *src, const char *out_dir, char *copied, size_t len,
                           char *why, size_t whylen)
{
    char dir[PATH_MAX], copy[PATH_MAX];
    path_dir(src, dir, sizeof dir);
    if (geteuid() != 0 || sandbox_tier() != SANDBOX_UID ||
        (reachable_by_sandbox(dir) && readable_by_sandbox(dir)))
        return 0;
    if (make_copy(dir, out_dir, copy, sizeof copy, why, whylen) != 1)
        return -1;
    if (snprintf(copied, len, "%s/%s", copy, path_base(src)) >= (int)len) {
        snprintf(why, whylen, "%s: path too long", copy);
        return -1;
    }
    return 1;
}

/* The copy of src_dir's files into <scratch>/shown-<digest of src_dir>
 * (made once: a second call finds it). */
static int make_copy(const char *src_dir, const char *scratch, char *copy, size_t copylen,
                     char *why, size_t whylen)
{
    char digest[65];
    sha256_hex(src_dir, strlen(src_dir), digest);
    if (snprintf(copy, copylen, "%s/shown-%.16s", scratch, digest) >= (int)copylen) {
        snprintf(why, whylen, "%s: path too long", scratch);
        return -1;
    }
    if (is_dir(copy))
        return 1;
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s.tmp", copy);
    rm_rf(tmp);
    if (mkdir(tmp, 0755) != 0 || chmod(tmp, 0755) != 0) {
        snprintf(why, whylen, "cannot make %s: %s", tmp, strerror(errno));
        return -1;
    }
    if (copy_files(src_dir, tmp, why, whylen) != 0 || rename(tmp, copy) != 0) {
        rm_rf(tmp);
        return -1;
    }
    return 1;
}
