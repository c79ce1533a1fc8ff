/* rawio.h - libwb ".raw" matrix files: read (tolerant of what real course
 * files contain, strict about structure) and write (atomically).
 *
 * Format: a header line "rows cols" (a matrix) or "n" (a vector, read as n
 * rows of one column), then rows*cols whitespace-separated
 * decimal numbers wrapped over any number of lines. Accepted: "4.", "-0.20",
 * "1e-3", "+2", CRLF line ends, trailing spaces, blank lines. Rejected with
 * "path:line: message": a missing/bad header, a header with more than two
 * numbers, negative or zero-overflowing or absurd sizes (each dimension at
 * most RAW_MAX_DIM, product, or a vector's length, at most RAW_MAX_ELEMS), a token that is not a
 * number (including nan/inf), too few values, too many values. */
#ifndef CUGRADE_RAWIO_H
#define CUGRADE_RAWIO_H

#include <stddef.h>

#define RAW_MAX_DIM (1 << 20)
#define RAW_MAX_ELEMS (1L << 28)

typedef struct {
    int rows, cols;
    float *data; /* rows*cols, row-major; malloc'd */
    int vector;  /* 1: a libwb vector file (header "n"): rows = n, cols = 1 */
} matrix_t;

/* 0 on success; on failure -1 and err holds "path:line: message". */
int raw_read(const char *path, matrix_t *out, char *err, size_t errlen);
/* A program's answer (wbSolution's -o file): like raw_read, but non-finite
 * values are kept ("nan", "-nan(0x7fffff)" with its payload, so the
 * never-written poison survives; "inf") and an empty "0 0" matrix is read
 * as 0x0 (data NULL), for the comparison to report. */
int raw_read_solution(const char *path, matrix_t *out, char *err, size_t errlen);
/* Parses an in-memory buffer; `name` is used in messages. */
int raw_parse(const char *name, const char *text, size_t len, matrix_t *out, char *err, size_t errlen);
/* Writes "rows cols\n" then the values, one row per line, each as the shortest text (round
 * trips a float exactly), via a temporary file and rename. */
int raw_write(const char *path, const matrix_t *m, char *err, size_t errlen);
/* An output as a program's answer (raw_read_solution reads it back): like
 * raw_write, but NaNs and infinities are written too, a NaN with its
 * payload ("-nan(0x7fffff)": the never-written poison survives). */
int raw_write_solution(const char *path, const matrix_t *m, char *err, size_t errlen);
void matrix_free(matrix_t *m);

#endif
