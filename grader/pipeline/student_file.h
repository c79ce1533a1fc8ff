/* student_file.h - where a submission's student file is: the one rule of
 * `cugrade run` and `cugrade batch` (and the exports, which call run). */
#ifndef CUGRADE_STUDENT_FILE_H
#define CUGRADE_STUDENT_FILE_H

#include <stddef.h>

/* Finds the student's file for a lab: SUBMISSION itself if it is a file,
 * else SUBMISSION/<lab>/<file> or SUBMISSION/<file>. */
int find_student_file(const char *submission, const char *lab, const char *file, char *out,
                      size_t outlen);

/* Finds lab's student file under dir: <dir>/<lab>/<file>, <dir>/<file>, else
 * the shallowest match at depth <= 4 (hidden folders and __MACOSX skipped).
 * note says what was taken when searched. 0 found, -1 none. */
int batch_find_file(const char *dir, const char *lab, const char *file, char *out, size_t outlen,
                    char *note, size_t notelen);

#endif
