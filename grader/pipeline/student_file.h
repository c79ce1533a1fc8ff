/* student_file.h - where a submission's student file is: the one rule of
 * `cugrade run` and `cugrade batch` (and of the exports, which call run). */
#ifndef CUGRADE_STUDENT_FILE_H
#define CUGRADE_STUDENT_FILE_H

#include <stddef.h>

#define STUDENT_FILE_DEPTH 4 /* folders searched below the submission's */

/* The student's file of a lab in SUBMISSION, the first of:
 *   SUBMISSION itself, if it is a file;
 *   SUBMISSION/<lab>/<file>, then SUBMISSION/<file>;
 *   the shallowest <file> at most STUDENT_FILE_DEPTH folders deep (hidden
 *   folders and __MACOSX skipped; by name among equals);
 *   the only .cu file that deep, whatever its name (a lone kernel.cu).
 * 0 with the path in out and, when it searched, a line saying what it took
 * in note ("took src/matmul.cu (the only matmul.cu in the submission)"), else
 * ""; -1 with why in note: where it looked, and the files there whose names
 * are near (Matmul.cu, matmul.cpp, matmul.cu.txt). */
int student_file_find(const char *submission, const char *lab, const char *file, char *out,
                      size_t outlen, char *note, size_t notelen);

#endif
