/* util.h - small helpers shared by the grader: growable strings, atomic file
 * writes, paths and directories, hashes of files and trees. Nothing here
 * knows about CUDA or labs. */
#ifndef CUGRADE_UTIL_H
#define CUGRADE_UTIL_H

#include <stddef.h>
#include <stdarg.h>

#include "util/sha256.h"

/* A growable, always NUL-terminated string. Zero-initialise before use. */
typedef struct {
    char *buf;
    size_t len;
    size_t cap;
} strbuf_t;

void sb_append(strbuf_t *sb, const char *s);
void sb_appendn(strbuf_t *sb, const char *s, size_t n);
void sb_appendf(strbuf_t *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vappendf(strbuf_t *sb, const char *fmt, va_list ap);
const char *sb_str(const strbuf_t *sb); /* "" when empty, never NULL */
char *sb_detach(strbuf_t *sb);          /* caller frees; sb is reset */
void sb_free(strbuf_t *sb);

/* printf into err (if err != NULL), always NUL-terminated. Returns -1 so
 * callers can write `return fail(err, errlen, "...")`. */
int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Write len bytes to path via a temporary file in the same directory,
 * fsync and rename: readers see the old file or the new one, never half. */
int write_file_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* Read a whole file into a NUL-terminated heap buffer. */
char *read_file(const char *path, size_t *len_out, char *err, size_t errlen);

int mkdir_p(const char *path, char *err, size_t errlen);
int rm_rf(const char *path);
int is_dir(const char *path);
int is_file(const char *path);
/* dst = a "/" b (snprintf-truncation is reported as error). */
int path_join(char *dst, size_t dstlen, const char *a, const char *b);
/* Last component of a path (pointer into path). */
const char *path_base(const char *path);
/* The folder of a path into out: "." for a bare name, "/" for one in the root. */
void path_dir(const char *path, char *out, size_t outlen);
/* A temporary name beside path, to be renamed over it: path ".tmp." the
 * process's id "." a number no other call of this process gets, then suffix
 * (a compiler's ".o"). Threads of one process that make the same file at once
 * (the baselines of several GPUs filling the build caches) write apart.
 * -1 when it does not fit. */
int temp_path_for(char *out, size_t outlen, const char *path, const char *suffix);
/* Waits for, then takes, the right to make path, a file several graders may
 * make at once (a cached object): an exclusive flock on path ".lock", which
 * file_unlock or the process's end drops. Those that waited find it made
 * instead of all compiling it together. The descriptor, or -1 when the lock
 * cannot be had (the caller goes on without it). */
int file_lock(const char *path);
void file_unlock(int fd);

/* Monotonic clock in seconds. */
double now_seconds(void);

/* Number of online CPUs, at least 1. */
int cpu_count(void);

/* ---- hashing what a cached result depends on ---- */
/* Feeds text and its NUL into s. */
void hash_str(sha256_t *s, const char *text);
/* Feeds a file's bytes ("unreadable" if it cannot be read). */
void hash_file_contents(sha256_t *s, const char *path);
/* Feeds a folder tree (relative names, sorted; hidden entries included): with
 * contents, or with sizes and mtimes only (large files); "missing" if absent. */
void hash_tree(sha256_t *s, const char *dir, const char *rel, int contents);
/* Feeds a path with its size and mtime (following links), or that it is missing. */
void hash_file_stat(sha256_t *s, const char *path);

/* Absolute path of a program found in PATH (or the path itself if it has a
 * '/'); 0 on success. */
int find_program(const char *name, char *out, size_t outlen);
/* The nvcc the grader compiles with: $CUGRADE_NVCC (a path, or a name
 * looked up as find_program does), else nvcc found by find_program. 0 if
 * it is there and executable. */
int find_nvcc(char *out, size_t outlen);

#endif
