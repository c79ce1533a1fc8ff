/* archive_put.c - the write side of archive unpacking: every folder is
 * opened with openat(O_DIRECTORY|O_NOFOLLOW) from the one above it, and every
 * file is created with openat(O_CREAT|O_EXCL|O_NOFOLLOW) in its folder, so
 * no link (there are none: archive.c refuses them) and no name already there
 * can redirect a write outside the destination. */
#include "batch/archive_put.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The sub-folder name of dirfd, made if missing; a new descriptor or -1. */
static int step_into(int dirfd, const char *name, char *why, size_t whylen)
{
    if (mkdirat(dirfd, name, 0755) != 0 && errno != EEXIST)
        return fail(why, whylen, "cannot make the folder '%.100s': %s", name, strerror(errno));
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return fail(why, whylen, "'%.100s' is already there and is not a folder", name);
    return fd;
}

int put_dir(int rootfd, const char *rel, char *why, size_t whylen)
{
    int fd = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return fail(why, whylen, "cannot reopen the destination: %s", strerror(errno));
    char copy[4096], *save = NULL;
    if (strlen(rel) >= sizeof copy) {
        close(fd);
        return fail(why, whylen, "name too long");
    }
    strcpy(copy, rel);
    for (char *c = strtok_r(copy, "/", &save); c && fd >= 0; c = strtok_r(NULL, "/", &save)) {
        int next = step_into(fd, c, why, whylen);
        close(fd);
        fd = next;
    }
    return fd;
}

int put_file(int rootfd, const char *rel, char *why, size_t whylen)
{
    char parent[4096];
    const char *slash = strrchr(rel, '/'), *leaf = slash ? slash + 1 : rel;
    size_t n = slash ? (size_t)(slash - rel) : 0;
    if (n >= sizeof parent || !*leaf)
        return fail(why, whylen, "bad file name");
    memcpy(parent, rel, n);
    parent[n] = '\0';
    int dirfd = put_dir(rootfd, parent, why, whylen);
    if (dirfd < 0)
        return -1;
    int fd = openat(dirfd, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    int saved = errno;
    close(dirfd);
    if (fd < 0 && saved == EEXIST)
        return fail(why, whylen, "the name is already in the archive (twice, or as a folder)");
    if (fd < 0)
        return fail(why, whylen, "cannot create it: %s", strerror(saved));
    return fd;
}

int put_bytes(int fd, const void *buf, size_t len, char *why, size_t whylen)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return fail(why, whylen, "cannot write it: %s", w < 0 ? strerror(errno) : "no space");
        p += w;
        len -= (size_t)w;
    }
    return 0;
}
