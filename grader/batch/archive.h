/* archive.h - safe unpacking of a submission archive (.zip, .tar.gz, .tgz)
 * with the system unzip/tar, run as time-limited children. The archive is
 * listed and checked first: no absolute paths, no `..`, no links, at most
 * ARCHIVE_MAX_ENTRIES entries and ARCHIVE_MAX_BYTES unpacked. */
#ifndef CUGRADE_ARCHIVE_H
#define CUGRADE_ARCHIVE_H

#include <stddef.h>

#define ARCHIVE_MAX_ENTRIES 200
#define ARCHIVE_MAX_BYTES (20LL * 1024 * 1024)

typedef enum { ARCHIVE_NONE = 0, ARCHIVE_ZIP, ARCHIVE_TGZ } archive_kind_t;

/* The kind of a file name by its extension; *stem_len (if not NULL) gets the
 * length of the name without it (the student id). */
archive_kind_t archive_kind(const char *name, size_t *stem_len);

/* Absolute path of program on PATH into out; -1 when it is not there. */
int archive_find_tool(const char *program, char *out, size_t outlen);

/* Lists and checks the archive; 0 when it may be unpacked, else -1 and why
 * in err. */
int archive_validate(const char *archive, char *err, size_t errlen);

/* Validates, then unpacks into dest (an existing, empty folder). */
int archive_unpack(const char *archive, const char *dest, char *err, size_t errlen);

#endif
