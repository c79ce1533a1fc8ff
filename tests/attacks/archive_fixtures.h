/* archive_fixtures.h - the archive attacks of the red-team suite, made at
 * test time with libarchive's writer (no binary blobs in the repository):
 * each is a list of entries written as a zip, a tar.gz or a tar. Used by
 * tests/unit/test_archive.c and tests/e2e/test_attack_archives.c;
 * tests/attacks/README-archives.md lists them with the verdict each gets. */
#ifndef CUGRADE_ARCHIVE_FIXTURES_H
#define CUGRADE_ARCHIVE_FIXTURES_H

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { FX_FILE, FX_DIR, FX_SYMLINK, FX_HARDLINK, FX_FIFO } fx_type_t;
typedef enum { FX_ZIP, FX_TGZ, FX_TAR, FX_USTAR } fx_format_t; /* FX_TAR: pax */

typedef struct {
    const char *name;
    fx_type_t type;
    const char *text;  /* a file's contents, or a link's target */
    long long bytes;   /* or (text NULL) this many bytes: */
    unsigned seed;     /* zeros when 0, else pseudo-random from this seed */
} fx_entry_t;

/* Writes bytes zeros or pseudo-random bytes, 1 MiB at a time. */
static inline int fx_fill(struct archive *a, long long bytes, unsigned seed)
{
    static unsigned char block[1 << 20];
    unsigned x = seed;
    while (bytes > 0) {
        size_t n = bytes < (long long)sizeof block ? (size_t)bytes : sizeof block;
        for (size_t i = 0; i < n; i++)
            block[i] = seed ? (unsigned char)((x = x * 1103515245u + 12345u) >> 16) : 0;
        if (archive_write_data(a, block, n) != (la_ssize_t)n)
            return -1;
        bytes -= (long long)n;
    }
    return 0;
}

static inline int fx_entry(struct archive *a, const fx_entry_t *f)
{
    static const unsigned types[] = {AE_IFREG, AE_IFDIR, AE_IFLNK, AE_IFREG, AE_IFIFO};
    struct archive_entry *e = archive_entry_new();
    long long size = f->type != FX_FILE ? 0 : f->text ? (long long)strlen(f->text) : f->bytes;
    archive_entry_set_pathname(e, f->name);
    archive_entry_set_filetype(e, types[f->type]);
    archive_entry_set_perm(e, f->type == FX_DIR ? 0755 : 0644);
    archive_entry_set_size(e, size);
    archive_entry_set_mtime(e, 1700000000, 0);
    if (f->type == FX_SYMLINK)
        archive_entry_set_symlink(e, f->text);
    if (f->type == FX_HARDLINK)
        archive_entry_set_hardlink(e, f->text);
    int rc = archive_write_header(a, e) == ARCHIVE_OK ? 0 : -1;
    if (rc == 0 && f->type == FX_FILE && f->text)
        rc = archive_write_data(a, f->text, (size_t)size) == (la_ssize_t)size ? 0 : -1;
    else if (rc == 0 && f->type == FX_FILE)
        rc = fx_fill(a, f->bytes, f->seed);
    archive_entry_free(e);
    return rc;
}

/* Writes the n entries to path in the format, with libarchive's writer
 * options (e.g. "zip:compression=store"; NULL: none); 0, or -1 and why on
 * stderr. A tar is padded to 512-byte blocks only. */
static inline int fx_write_opts(const char *path, fx_format_t fmt, const fx_entry_t *ents, int n,
                                const char *options)
{
    struct archive *a = archive_write_new();
    if (fmt == FX_ZIP)
        archive_write_set_format_zip(a);
    else if (fmt == FX_USTAR)
        archive_write_set_format_ustar(a);
    else
        archive_write_set_format_pax_restricted(a);
    if (fmt == FX_TGZ)
        archive_write_add_filter_gzip(a);
    if (fmt != FX_ZIP)
        archive_write_set_bytes_in_last_block(a, 1);
    int rc = options && archive_write_set_options(a, options) != ARCHIVE_OK ? -1 : 0;
    if (rc == 0 && archive_write_open_filename(a, path) != ARCHIVE_OK)
        rc = -1;
    for (int i = 0; i < n && rc == 0; i++)
        rc = fx_entry(a, &ents[i]);
    if (rc != 0)
        fprintf(stderr, "fx_write %s: %s\n", path, archive_error_string(a));
    if (archive_write_close(a) != ARCHIVE_OK)
        rc = -1;
    archive_write_free(a);
    return rc;
}

static inline int fx_write(const char *path, fx_format_t fmt, const fx_entry_t *ents, int n)
{
    return fx_write_opts(path, fmt, ents, n, NULL);
}

/* count small files dir/f1 .. dir/f<count> (no folder entry). */
static inline int fx_write_many(const char *path, fx_format_t fmt, const char *dir, int count)
{
    fx_entry_t *ents = calloc((size_t)count, sizeof *ents);
    char (*names)[64] = calloc((size_t)count, sizeof *names);
    for (int i = 0; i < count; i++) {
        snprintf(names[i], sizeof names[i], "%s/f%d", dir, i + 1);
        ents[i] = (fx_entry_t){names[i], FX_FILE, "x\n", 0, 0};
    }
    int rc = fx_write(path, fmt, ents, count);
    free(names);
    free(ents);
    return rc;
}

/* ---- the attacks: file name, format, entries, what the refusal says ---- */
#define FX_KERNEL "__global__ void k(void) {}\n"
#define FX_BOMB_BYTES (200LL * 1024 * 1024)

static const fx_entry_t fx_symlink[] = {
    {"lab3", FX_DIR, NULL, 0, 0}, {"lab3/matmul.cu", FX_SYMLINK, "/etc/passwd", 0, 0}};
static const fx_entry_t fx_absolute[] = {{"/tmp/cugrade-pwned/matmul.cu", FX_FILE, FX_KERNEL, 0, 0}};
static const fx_entry_t fx_dotdot[] = {{"lab3/../../cugrade-pwned.cu", FX_FILE, FX_KERNEL, 0, 0}};
static const fx_entry_t fx_hardlink[] = {
    {"lab3/a.cu", FX_FILE, FX_KERNEL, 0, 0}, {"lab3/matmul.cu", FX_HARDLINK, "/etc/passwd", 0, 0}};
static const fx_entry_t fx_fifo[] = {{"lab3/matmul.cu", FX_FIFO, NULL, 0, 0}};
static const fx_entry_t fx_bomb[] = {{"lab3/matmul.cu", FX_FILE, NULL, FX_BOMB_BYTES, 0}};
static const fx_entry_t fx_ratio[] = {
    {"lab3/matmul.cu", FX_FILE, FX_KERNEL, 0, 0}, {"z1", FX_FILE, NULL, 1 << 20, 0},
    {"z2", FX_FILE, NULL, 1 << 20, 0},          {"z3", FX_FILE, NULL, 1 << 20, 0}};
static const fx_entry_t fx_twice[] = {
    {"lab3/matmul.cu", FX_FILE, FX_KERNEL, 0, 0}, {"lab3/matmul.cu", FX_FILE, "// again\n", 0, 0}};

typedef struct {
    const char *file;          /* the archive's name (the student id + extension) */
    fx_format_t fmt;
    const fx_entry_t *ents;    /* NULL: fx_write_many(ARCHIVE_MAX_ENTRIES + 1) */
    int n;
    const char *says;          /* a part of the refusal */
} fx_attack_t;

#define FX_N(a) (int)(sizeof a / sizeof *a)
static const fx_attack_t fx_attacks[] = {
    {"symlink.zip", FX_ZIP, fx_symlink, FX_N(fx_symlink),
     "entry 'lab3/matmul.cu' refused: a symbolic link (to '/etc/passwd')"},
    {"absolute.tgz", FX_TGZ, fx_absolute, FX_N(fx_absolute),
     "entry '/tmp/cugrade-pwned/matmul.cu' refused: an absolute path"},
    {"dotdot.zip", FX_ZIP, fx_dotdot, FX_N(fx_dotdot),
     "entry 'lab3/../../cugrade-pwned.cu' refused: a path with '..'"},
    {"hardlink.tar", FX_TAR, fx_hardlink, FX_N(fx_hardlink),
     "entry 'lab3/matmul.cu' refused: a hard link (to '/etc/passwd')"},
    {"fifo.tar", FX_TAR, fx_fifo, FX_N(fx_fifo), "entry 'lab3/matmul.cu' refused: a fifo"},
    {"bomb.zip", FX_ZIP, fx_bomb, FX_N(fx_bomb),
     "entry 'lab3/matmul.cu' refused: more than 10 MiB in one file (stopped while unpacking)"},
    {"ratio.tgz", FX_TGZ, fx_ratio, FX_N(fx_ratio),
     "refused: a compression ratio over 100:1"},
    {"many.tgz", FX_TGZ, NULL, 0, "entry 'many/f201' refused: more than 200 entries"},
    {"twice.tar", FX_TAR, fx_twice, FX_N(fx_twice),
     "entry 'lab3/matmul.cu' refused: cannot unpack it: the name is already in the archive"},
};

/* Writes attack a as dir/a->file; 0 or -1. */
static inline int fx_make_attack(const char *dir, const fx_attack_t *a)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, a->file);
    return a->ents ? fx_write(path, a->fmt, a->ents, a->n) : fx_write_many(path, a->fmt, "many", 201);
}

#endif
