/* hidden.c - the hidden datasets' secret (find it, make it on first use,
 * read it) and the seeds derived from it with SHA-256. */
#include "dataset/hidden.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

void hidden_secret_path(const char *root, const char *given, char *path, size_t len,
                        int *is_default)
{
    const char *env = getenv(HIDDEN_SEED_ENV);
    *is_default = 0;
    if (given && *given)
        snprintf(path, len, "%s", given);
    else if (env && *env)
        snprintf(path, len, "%s", env);
    else {
        snprintf(path, len, "%s/%s", root, HIDDEN_SEED_FILE);
        *is_default = 1;
    }
}

static int fill_random(unsigned char *buf, size_t len)
{
    for (size_t got = 0; got < len;) {
        ssize_t n = getrandom(buf + got, len - got, 0);
        if (n < 0 && errno != EINTR)
            return -1;
        got += n > 0 ? (size_t)n : 0;
    }
    return 0;
}

/* Writes a new secret to a private temporary file and links it into place:
 * link() fails if another grading made the file first, and then theirs is
 * the secret. The folder is made 0700. */
static int make_secret(const char *path, char *err, size_t errlen)
{
    char dir[PATH_MAX], tmp[PATH_MAX + 32];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return fail(err, errlen, "%s: cannot create: %s", dir, strerror(errno));
    }
    unsigned char bytes[HIDDEN_SECRET_NEW];
    if (fill_random(bytes, sizeof bytes) != 0)
        return fail(err, errlen, "getrandom: %s", strerror(errno));
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return fail(err, errlen, "%s: cannot create: %s", tmp, strerror(errno));
    int ok = fchmod(fd, 0600) == 0 && write(fd, bytes, sizeof bytes) == (ssize_t)sizeof bytes &&
             fsync(fd) == 0;
    int e = errno;
    close(fd);
    memset(bytes, 0, sizeof bytes);
    if (ok && link(tmp, path) != 0 && errno != EEXIST)
        ok = 0, e = errno;
    unlink(tmp);
    return ok ? 0 : fail(err, errlen, "%s: cannot write the secret: %s", path, strerror(e));
}

static void digest_of(hidden_secret_t *s)
{
    sha256_t h;
    sha256_init(&h);
    hash_str(&h, "cugrade hidden-seed digest v1");
    sha256_update(&h, s->bytes, s->len);
    sha256_final_hex(&h, s->digest);
}

int hidden_secret_load(const char *root, const char *given, hidden_secret_t *s, char *err,
                       size_t errlen)
{
    int is_default;
    memset(s, 0, sizeof *s);
    hidden_secret_path(root, given, s->path, sizeof s->path, &is_default);
    if (is_default && !is_file(s->path)) {
        if (make_secret(s->path, err, errlen) != 0)
            return -1;
        s->created = 1;
    }
    size_t len = 0;
    char why[PATH_MAX + 128];
    char *data = read_file(s->path, &len, why, sizeof why);
    if (!data)
        return fail(err, errlen, "the hidden datasets' secret: %s", why);
    int rc = 0;
    if (len < HIDDEN_SECRET_MIN || len > HIDDEN_SECRET_MAX)
        rc = fail(err, errlen, "%s: the hidden datasets' secret must be %d to %d bytes, not %zu "
                  "(remove it to get a new one of %d random bytes)", s->path, HIDDEN_SECRET_MIN,
                  HIDDEN_SECRET_MAX, len, HIDDEN_SECRET_NEW);
    else {
        memcpy(s->bytes, data, len);
        s->len = len;
        digest_of(s);
    }
    memset(data, 0, len);
    free(data);
    return rc;
}

uint64_t hidden_seed(const hidden_secret_t *s, const char *lab, int index)
{
    sha256_t h;
    char hex[65], idx[24];
    sha256_init(&h);
    hash_str(&h, "cugrade hidden dataset v1");
    sha256_update(&h, s->bytes, s->len);
    hash_str(&h, lab);
    snprintf(idx, sizeof idx, "%d", index);
    hash_str(&h, idx);
    sha256_final_hex(&h, hex);
    hex[16] = '\0';
    return strtoull(hex, NULL, 16);
}
