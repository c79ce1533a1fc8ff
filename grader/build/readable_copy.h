/* readable_copy.h - a submission's folder the sandbox's uid can read.
 * As root, student code and the compilers that read it run as the
 * grading's own uid (run/sandbox.h), which reads only what others may read:
 * a submission saved 0600 (a TA's umask of 077, an archive's modes) would
 * not compile, and the student would get the zero. Such a folder's files
 * are copied, readable, into the scratch folder, and the first tier shows
 * the copy at the folder's own place, so that file names in messages stay
 * as they were. */
#ifndef CUGRADE_READABLE_COPY_H
#define CUGRADE_READABLE_COPY_H

#include <stddef.h>

/* 1 with the copy's folder in copy (<scratch>/shown-<digest of src_dir>,
 * made once: a second call finds it), 0 where none is needed (not root, the
 * folder readable by the sandbox's uid, or not the first tier), -1 with why
 * when the copy failed. Only the folder's sources and headers (.cu, .cuh,
 * .h, .hpp, .c, .cpp, ...) are looked at and copied, not its sub-folders. */
int readable_copy(const char *src_dir, const char *scratch, char *copy, size_t copylen,
                  char *why, size_t whylen);

/* The second tier, where no view can show a copy at another's place: if
 * the sandbox's uid cannot reach src's folder (the folders above it, or it
 * and its files), its files are copied into <out_dir>/shown-<digest> and
 * copied names the copy of src: 1; 0 where none is needed; -1 with why. The
 * compilers then read the copy, and their messages name it. */
int readable_copy_in_place(const char *src, const char *out_dir, char *copied, size_t len,
                           char *why, size_t whylen);

#endif
