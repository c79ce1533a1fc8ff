/* archive.h - safe unpacking of a submission archive (.zip, .tar.gz, .tgz,
 * .tar) with libarchive, in-process, through our own write loop.
 *
 * The rules, each refusal a message naming the archive and the entry:
 *  - names: no absolute path, no `..` component, no control characters, at
 *    most ARCHIVE_MAX_NAME bytes and ARCHIVE_MAX_DEPTH folders deep;
 *  - types: regular files and folders only (no symbolic or hard link, no
 *    device, fifo or socket, no sparse file);
 *  - counts: at most ARCHIVE_MAX_ENTRIES entries, an archive file of at most
 *    ARCHIVE_MAX_INPUT bytes;
 *  - sizes, counted on the bytes that come out of the decompressor (never
 *    taken from a header): at most ARCHIVE_MAX_FILE_BYTES per file and
 *    ARCHIVE_MAX_BYTES in all, and past ARCHIVE_RATIO_FLOOR unpacked bytes
 *    at most ARCHIVE_MAX_RATIO times the archive's own size (a zip bomb is
 *    stopped while it inflates, not after).
 * Files are written with openat(O_CREAT|O_EXCL|O_NOFOLLOW) under the
 * destination, folder by folder with O_NOFOLLOW, never with
 * archive_write_disk; modes, owners and times in the archive are ignored. */
#ifndef CUGRADE_ARCHIVE_H
#define CUGRADE_ARCHIVE_H

#include <stddef.h>

#define ARCHIVE_MAX_ENTRIES 200
#define ARCHIVE_MAX_BYTES (20LL * 1024 * 1024)
#define ARCHIVE_MAX_FILE_BYTES (10LL * 1024 * 1024)
#define ARCHIVE_MAX_INPUT (24LL * 1024 * 1024)
#define ARCHIVE_MAX_RATIO 100
#define ARCHIVE_RATIO_FLOOR (1LL * 1024 * 1024)
#define ARCHIVE_MAX_NAME 1024
#define ARCHIVE_MAX_DEPTH 32
#define ARCHIVE_MAX_SECONDS 60.0 /* unpacking one archive, checked between data blocks */

typedef enum { ARCHIVE_NONE = 0, ARCHIVE_ZIP, ARCHIVE_TGZ, ARCHIVE_TAR } archive_kind_t;

/* The kind of a file name by its extension; *stem_len (if not NULL) gets the
 * length of the name without it (the student id). The content decides how
 * it is read: any of zip, tar and gzip-compressed tar is accepted. */
archive_kind_t archive_kind(const char *name, size_t *stem_len);

/* Reads every entry and its data and checks the rules; writes nothing.
 * 0 when it may be unpacked, else -1 and why in err. */
int archive_validate(const char *archive, char *err, size_t errlen);

/* Validates, then unpacks into dest (an existing, empty folder). On a
 * refusal dest may hold part of the archive (the caller removes it). */
int archive_unpack(const char *archive, const char *dest, char *err, size_t errlen);

/* ---- the one pass both use (also for tests and fuzzing) ---- */
typedef struct {
    const char *label; /* the archive's name in messages */
    const char *path;  /* a file to read, or NULL and: */
    const void *data;  /* a buffer of len bytes */
    size_t len;
    double max_seconds; /* its time limit (0: ARCHIVE_MAX_SECONDS) */
} archive_src_t;

/* One pass over the archive, every rule checked as it goes; with dest (not
 * NULL) each entry is written there as it is read, so the caps bound what
 * reaches the disk even without archive_validate first. */
int archive_walk(const archive_src_t *src, const char *dest, char *err, size_t errlen);

#endif
