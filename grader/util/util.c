/* util.c - growable strings, atomic writes, filesystem helpers, and the
 * SHA-256 of files and folder trees (what a cached result depends on). */
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void sb_reserve(strbuf_t *sb, size_t extra)
{
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < need)
        cap *= 2;
    char *p = realloc(sb->buf, cap);
    if (!p) {
        fputs("cugrade: out of memory\n", stderr);
        abort();
    }
    sb->buf = p;
    sb->cap = cap;
}

void sb_appendn(strbuf_t *sb, const char *s, size_t n)
{
    sb_reserve(sb, n);
    memcpy(sb->buf + sb->len, s, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
}

void sb_append(strbuf_t *sb, const char *s) { sb_appendn(sb, s, strlen(s)); }

void sb_vappendf(strbuf_t *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    sb_reserve(sb, (size_t)n);
    vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void sb_appendf(strbuf_t *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vappendf(sb, fmt, ap);
    va_end(ap);
}

const char *sb_str(const strbuf_t *sb) { return sb->buf ? sb->buf : ""; }

char *sb_detach(strbuf_t *sb)
{
    char *p = sb->buf ? sb->buf : strdup("");
    sb->buf = NULL;
    sb->len = sb->cap = 0;
    return p;
}

void sb_free(strbuf_t *sb)
{
    free(sb->buf);
    sb->buf = NULL;
    sb->len = sb->cap = 0;
}

int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int temp_path_for(char *out, size_t outlen, const char *path, const char *suffix)
{
    static atomic_uint made;
    unsigned k = atomic_fetch_add(&made, 1);
    int n = snprintf(out, outlen, "%s.tmp.%ld.%u%s", path, (long)getpid(), k, suffix);
    return n >= 0 && (size_t)n < outlen ? 0 : -1;
}

int file_lock(const char *path)
{
    char lock[PATH_MAX];
    int n = snprintf(lock, sizeof lock, "%s.lock", path);
    if (n < 0 || (size_t)n >= sizeof lock)
        return -1;
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    int rc;
    while ((rc = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
        ;
    if (rc != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

void file_unlock(int fd)
{
    if (fd >= 0)
        close(fd);
}

int write_file_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    char tmp[4096];
    if (temp_path_for(tmp, sizeof tmp, path, "") != 0)
        return fail(err, errlen, "%s: path too long", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return fail(err, errlen, "%s: cannot create: %s", tmp, strerror(errno));
    const char *p = data;
    size_t left = len;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = errno;
            close(fd);
            unlink(tmp);
            return fail(err, errlen, "%s: write failed: %s", tmp, strerror(e));
        }
        p += w;
        left -= (size_t)w;
    }
    if (fsync(fd) != 0 && errno != EINVAL) {
        int e = errno;
        close(fd);
        unlink(tmp);
        return fail(err, errlen, "%s: fsync failed: %s", tmp, strerror(e));
    }
    close(fd);
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return fail(err, errlen, "%s: rename failed: %s", path, strerror(e));
    }
    return 0;
}

char *read_file(const char *path, size_t *len_out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    strbuf_t sb = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sb_appendn(&sb, chunk, n);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        sb_free(&sb);
        fail(err, errlen, "%s: read error", path);
        return NULL;
    }
    if (len_out)
        *len_out = sb.len;
    return sb_detach(&sb);
}

int mkdir_p(const char *path, char *err, size_t errlen)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp)
        return fail(err, errlen, "%s: path too long", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
            return fail(err, errlen, "%s: cannot create directory: %s", tmp, strerror(errno));
        *p = '/';
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
        return fail(err, errlen, "%s: cannot create directory: %s", tmp, strerror(errno));
    return 0;
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

int rm_rf(const char *path)
{
    if (access(path, F_OK) != 0)
        return 0;
    return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int path_join(char *dst, size_t dstlen, const char *a, const char *b)
{
    size_t la = strlen(a);
    const char *sep = (la > 0 && a[la - 1] == '/') ? "" : "/";
    int n = snprintf(dst, dstlen, "%s%s%s", a, sep, b);
    return (n < 0 || (size_t)n >= dstlen) ? -1 : 0;
}

const char *path_base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void path_dir(const char *path, char *out, size_t outlen)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, outlen, ".");
    else
        snprintf(out, outlen, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The cores this process may run on: its affinity mask, which taskset, a
 * Slurm task's cpuset or a container narrows; all online cores when the mask
 * cannot be read. */
int cpu_count(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* ---- hashing (SHA-256 of what a result depends on) -------------------------- */

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void hash_str(sha256_t *s, const char *text) { sha256_update(s, text, strlen(text) + 1); }

void hash_file_contents(sha256_t *s, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        hash_str(s, "unreadable");
        return;
    }
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(s, buf, got);
    fclose(f);
}

/* Feeds a folder tree (relative names, sorted; hidden entries included) into
 * s: with contents, or with sizes and mtimes only (datasets: large). */
void hash_tree(sha256_t *s, const char *dir, const char *rel, int contents)
{
    DIR *d = opendir(dir);
    if (!d) {
        hash_str(s, "missing");
        return;
    }
    char **names = NULL;
    int n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            names = realloc(names, (size_t)cap * sizeof *names);
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n > 0)
        qsort(names, (size_t)n, sizeof *names, cmp_names);
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX], sub[PATH_MAX], line[PATH_MAX + 96];
        struct stat st;
        if (path_join(path, sizeof path, dir, names[i]) != 0 || stat(path, &st) != 0)
            continue;
        snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", names[i]);
        if (S_ISDIR(st.st_mode)) {
            snprintf(line, sizeof line, "D %s", sub);
            hash_str(s, line);
            hash_tree(s, path, sub, contents);
        } else if (contents) {
            snprintf(line, sizeof line, "F %s %lld", sub, (long long)st.st_size);
            hash_str(s, line);
            hash_file_contents(s, path);
        } else {
            snprintf(line, sizeof line, "F %s %lld %lld.%09ld", sub, (long long)st.st_size,
                     (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
            hash_str(s, line);
        }
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

void hash_file_stat(sha256_t *s, const char *path)
{
    struct stat st;
    char line[PATH_MAX + 96];
    if (stat(path, &st) != 0)
        snprintf(line, sizeof line, "M %.4000s", path);
    else
        snprintf(line, sizeof line, "S %.4000s %lld %lld.%09ld", path, (long long)st.st_size,
                 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    hash_str(s, line);
}

/* PATH, then the CUDA toolkit's usual bin folder. */
int find_nvcc(char *out, size_t outlen)
{
    const char *nv = getenv("CUGRADE_NVCC");
    return find_program(nv && *nv ? nv : "nvcc", out, outlen);
}

int find_program(const char *name, char *out, size_t outlen)
{
    if (strchr(name, '/')) {
        snprintf(out, outlen, "%s", name);
        return access(out, X_OK) == 0 ? 0 : -1;
    }
    const char *path = getenv("PATH");
    char buf[8192];
    snprintf(buf, sizeof buf, "%s:/usr/local/cuda/bin", path ? path : "/usr/bin:/bin");
    for (char *save = NULL, *dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        if (path_join(out, outlen, dir, name) == 0 && access(out, X_OK) == 0)
            return 0;
    }
    return -1;
}
