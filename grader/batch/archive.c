/* archive.c - safe unpacking of submission archives with libarchive: one
 * pass reads each entry's header and data, checks the rules of archive.h
 * (names, types, counts, sizes counted as the data inflates, the compression
 * ratio) and, when unpacking, writes the data through archive_put.c. Only
 * the zip and tar formats and the gzip filter are enabled (no external
 * programs, no other formats). */
#include "batch/archive.h"
#include "batch/archive_put.h"
#include "util/util.h"

#include <archive.h>
#include <archive_entry.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHOWN 160       /* bytes of an entry name shown in a message */
#define MAX_PART 255    /* bytes of one path component */
#define READ_BLOCK 65536

typedef struct {
    const char *label;  /* the archive's name in messages */
    long long input;    /* the archive's own size in bytes */
    int entries;        /* entries seen so far */
    long long total;    /* bytes unpacked so far, all entries */
    int destfd;         /* where to unpack; -1: check only */
    double deadline;    /* now_seconds() past which it is stopped */
    double max_seconds;
    char last[SHOWN + 1]; /* the last entry read, for "damaged after" */
    char *err;
    size_t errlen;
} walk_t;

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

archive_kind_t archive_kind(const char *name, size_t *stem_len)
{
    static const struct { const char *ext; archive_kind_t kind; } exts[] = {
        {".zip", ARCHIVE_ZIP}, {".tar.gz", ARCHIVE_TGZ}, {".tgz", ARCHIVE_TGZ}, {".tar", ARCHIVE_TAR}};
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (ends_with(name, exts[i].ext)) {
            if (stem_len)
                *stem_len = strlen(name) - strlen(exts[i].ext);
            return exts[i].kind;
        }
    return ARCHIVE_NONE;
}

/* text as it may be printed: at most SHOWN bytes, control characters as '?'. */
static const char *printable(const char *text, char out[SHOWN + 1])
{
    size_t i = 0;
    for (; text[i] && i < SHOWN; i++)
        out[i] = ((unsigned char)text[i] < 0x20 || text[i] == 0x7f) ? '?' : text[i];
    out[i] = '\0';
    return out;
}

/* "<archive>: entry '<name>' refused: <why>"; returns -1. */
__attribute__((format(printf, 3, 4))) static int refuse(walk_t *w, const char *entry,
                                                        const char *fmt, ...)
{
    char why[512], shown[SHOWN + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return fail(w->err, w->errlen, "%s: entry '%s' refused: %s", w->label, printable(entry, shown),
                why);
}

/* One component of a name: skipped (0), kept (1), or refused (-1). */
static int check_part(walk_t *w, const char *name, const char *part, int *depth)
{
    if (!*part || strcmp(part, ".") == 0)
        return 0;
    if (strcmp(part, "..") == 0)
        return refuse(w, name, "a path with '..' would land outside the submission's folder");
    if (strlen(part) > MAX_PART)
        return refuse(w, name, "a name component over %d bytes", MAX_PART);
    if (++*depth > ARCHIVE_MAX_DEPTH)
        return refuse(w, name, "more than %d folders deep", ARCHIVE_MAX_DEPTH);
    return 1;
}

/* Refuses a name that is empty, too long, absolute or holds a control
 * character; else the name with '/' separators and no "." or empty parts
 * into clean ("" for the archive's root). */
static int check_name(walk_t *w, const char *name, char clean[ARCHIVE_MAX_NAME + 1])
{
    size_t n = strlen(name);
    if (n == 0)
        return refuse(w, name, "an empty name");
    if (n > ARCHIVE_MAX_NAME)
        return refuse(w, name, "a name over %d bytes", ARCHIVE_MAX_NAME);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
            return refuse(w, name, "a control character in the name");
    if (name[0] == '/' || name[0] == '\\' || (isalpha((unsigned char)name[0]) && name[1] == ':'))
        return refuse(w, name, "an absolute path");
    char copy[ARCHIVE_MAX_NAME + 1], *save = NULL;
    int depth = 0, rc = 0;
    strcpy(copy, name);
    clean[0] = '\0';
    for (char *p = strtok_r(copy, "/\\", &save); p && rc >= 0; p = strtok_r(NULL, "/\\", &save))
        if ((rc = check_part(w, name, p, &depth)) == 1) {
            if (clean[0])
                strcat(clean, "/");
            strcat(clean, p);
        }
    return rc < 0 ? -1 : 0;
}

static const char *type_name(unsigned type)
{
    switch (type) {
    case AE_IFCHR: return "character device";
    case AE_IFBLK: return "block device";
    case AE_IFIFO: return "fifo";
    case AE_IFSOCK: return "socket";
    default: return "special file";
    }
}

/* Regular files and folders only. */
static int check_type(walk_t *w, struct archive_entry *e, const char *name)
{
    static const char only[] = "only regular files and folders are unpacked";
    char shown[SHOWN + 1];
    const char *to = archive_entry_hardlink(e);
    unsigned type = archive_entry_filetype(e);
    if (to)
        return refuse(w, name, "a hard link (to '%s'); %s", printable(to, shown), only);
    if ((to = archive_entry_symlink(e)) != NULL || type == AE_IFLNK)
        return refuse(w, name, "a symbolic link (to '%s'); %s", printable(to ? to : "?", shown),
                      only);
    if (type != AE_IFREG && type != AE_IFDIR)
        return refuse(w, name, "a %s; %s", type_name(type), only);
    if (archive_entry_sparse_count(e) > 0)
        return refuse(w, name, "a sparse file (its data has holes)");
    return 0;
}

/* The caps on what came out of the decompressor so far, and on the time. */
static int check_sizes(walk_t *w, const char *name, long long file_bytes)
{
    if (now_seconds() > w->deadline)
        return refuse(w, name, "unpacking took more than %g s (stopped while unpacking)",
                      w->max_seconds);
    if (file_bytes > ARCHIVE_MAX_FILE_BYTES)
        return refuse(w, name, "more than %lld MiB in one file (stopped while unpacking)",
                      ARCHIVE_MAX_FILE_BYTES >> 20);
    if (w->total > ARCHIVE_MAX_BYTES)
        return refuse(w, name, "more than %lld MiB unpacked in all (stopped while unpacking)",
                      ARCHIVE_MAX_BYTES >> 20);
    if (w->total > ARCHIVE_RATIO_FLOOR && w->total > ARCHIVE_MAX_RATIO * w->input)
        return refuse(w, name,
                      "a compression ratio over %d:1 (%lld KiB unpacked so far from a %lld KiB "
                      "archive), as in a zip bomb (stopped while unpacking)",
                      ARCHIVE_MAX_RATIO, w->total >> 10, w->input >> 10);
    return 0;
}

/* Reads the entry's data block by block, counting it against the caps
 * before it is written to fd (-1: counted only). */
static int copy_data(walk_t *w, struct archive *a, const char *name, int fd)
{
    long long done = 0;
    for (;;) {
        const void *buf;
        size_t len;
        la_int64_t off;
        int r = archive_read_data_block(a, &buf, &len, &off);
        if (r == ARCHIVE_EOF)
            return 0;
        if (r != ARCHIVE_OK) { /* a warning here is a bad CRC: refused too */
            const char *why = archive_error_string(a);
            return refuse(w, name, "cannot read its data: %s", why ? why : "damaged archive");
        }
        if (len > 0 && off != done)
            return refuse(w, name, "a sparse file (its data has holes)");
        done += (long long)len;
        w->total += (long long)len;
        if (check_sizes(w, name, done) != 0)
            return -1;
        char why[256];
        if (fd >= 0 && len > 0 && put_bytes(fd, buf, len, why, sizeof why) != 0)
            return refuse(w, name, "%s", why);
    }
}

/* Where the entry goes: a new file's descriptor, or -1 (a folder, made
 * here, or nothing to write); -2 with err set when it cannot be made. */
static int place(walk_t *w, struct archive_entry *e, const char *name, const char *clean)
{
    char why[256];
    int fd = -1;
    if (w->destfd < 0)
        return -1;
    if (archive_entry_filetype(e) == AE_IFDIR) {
        if ((fd = put_dir(w->destfd, clean, why, sizeof why)) >= 0) {
            close(fd);
            return -1;
        }
    } else if ((fd = put_file(w->destfd, clean, why, sizeof why)) >= 0) {
        return fd;
    }
    refuse(w, name, "cannot unpack it: %s", why);
    return -2;
}

static int one_entry(walk_t *w, struct archive *a, struct archive_entry *e)
{
    const char *name = archive_entry_pathname(e);
    char clean[ARCHIVE_MAX_NAME + 1];
    if (!name)
        return refuse(w, "?", "a name that cannot be read");
    printable(name, w->last);
    if (++w->entries > ARCHIVE_MAX_ENTRIES)
        return refuse(w, name, "more than %d entries in the archive", ARCHIVE_MAX_ENTRIES);
    if (check_name(w, name, clean) != 0 || check_type(w, e, name) != 0)
        return -1;
    if (!clean[0] && archive_entry_filetype(e) != AE_IFDIR)
        return refuse(w, name, "a file without a name");
    int fd = place(w, e, name, clean);
    if (fd == -2)
        return -1;
    int rc = copy_data(w, a, name, fd);
    if (fd >= 0 && close(fd) != 0 && rc == 0)
        rc = refuse(w, name, "cannot write it: %s", strerror(errno));
    return rc;
}

static int walk_entries(walk_t *w, struct archive *a)
{
    struct archive_entry *e;
    int r;
    while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN)
        if (one_entry(w, a, e) != 0)
            return -1;
    if (r == ARCHIVE_EOF)
        return 0;
    const char *why = archive_error_string(a);
    if (w->entries == 0)
        return fail(w->err, w->errlen, "%s: not a zip or tar archive, or a damaged one: %s",
                    w->label, why ? why : "unreadable");
    return fail(w->err, w->errlen, "%s: damaged archive after entry '%s': %s", w->label, w->last,
                why ? why : "unreadable");
}

/* Opens the source into a; *fd gets the file's descriptor (the caller
 * closes it; libarchive does not). */
static int open_src(walk_t *w, struct archive *a, const archive_src_t *src, int *fd)
{
    struct stat st;
    if (!src->path) {
        w->input = (long long)src->len;
        if (w->input > ARCHIVE_MAX_INPUT)
            return fail(w->err, w->errlen, "%s: the archive is %lld MiB; at most %lld MiB is accepted",
                        w->label, w->input >> 20, ARCHIVE_MAX_INPUT >> 20);
        return archive_read_open_memory(a, src->data, src->len) == ARCHIVE_OK ? 0 : -2;
    }
    if ((*fd = open(src->path, O_RDONLY | O_CLOEXEC)) < 0 || fstat(*fd, &st) != 0)
        return fail(w->err, w->errlen, "%s: cannot read it: %s", w->label, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return fail(w->err, w->errlen, "%s: not a regular file", w->label);
    w->input = (long long)st.st_size;
    if (w->input > ARCHIVE_MAX_INPUT)
        return fail(w->err, w->errlen, "%s: the archive is %lld MiB; at most %lld MiB is accepted",
                    w->label, w->input >> 20, ARCHIVE_MAX_INPUT >> 20);
    return archive_read_open_fd(a, *fd, READ_BLOCK) == ARCHIVE_OK ? 0 : -2;
}

static struct archive *new_reader(void)
{
    struct archive *a = archive_read_new();
    if (a && (archive_read_support_format_zip(a) != ARCHIVE_OK ||
              archive_read_support_format_tar(a) != ARCHIVE_OK ||
              archive_read_support_filter_gzip(a) != ARCHIVE_OK)) {
        archive_read_free(a);
        a = NULL;
    }
    return a;
}

int archive_walk(const archive_src_t *src, const char *dest, char *err, size_t errlen)
{
    walk_t w = {.label = src->label ? src->label : "archive", .destfd = -1, .err = err,
                .errlen = errlen,
                .max_seconds = src->max_seconds > 0 ? src->max_seconds : ARCHIVE_MAX_SECONDS};
    w.deadline = now_seconds() + w.max_seconds;
    if (dest && (w.destfd = open(dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        return fail(err, errlen, "%s: cannot open the folder to unpack it into: %s", w.label,
                    strerror(errno));
    struct archive *a = new_reader();
    int fd = -1, rc = -1;
    if (!a)
        fail(err, errlen, "%s: cannot set up libarchive's zip and tar reader", w.label);
    else if ((rc = open_src(&w, a, src, &fd)) == -2)
        rc = fail(err, errlen, "%s: not a zip or tar archive, or a damaged one: %s", w.label,
                  archive_error_string(a) ? archive_error_string(a) : "unreadable");
    else if (rc == 0)
        rc = walk_entries(&w, a);
    if (a)
        archive_read_free(a);
    if (fd >= 0)
        close(fd);
    if (w.destfd >= 0)
        close(w.destfd);
    return rc;
}

int archive_validate(const char *archive, char *err, size_t errlen)
{
    archive_src_t src = {.label = path_base(archive), .path = archive};
    return archive_walk(&src, NULL, err, errlen);
}

int archive_unpack(const char *archive, const char *dest, char *err, size_t errlen)
{
    archive_src_t src = {.label = path_base(archive), .path = archive};
    if (archive_walk(&src, NULL, err, errlen) != 0)
        return -1;
    return archive_walk(&src, dest, err, errlen);
}
