/* compare.h - element-wise comparison of a student's output against the
 * expected matrix, with a diagnosis of the error pattern.
 *
 * An element is wrong when !(|got - exp| <= atol + rtol*|exp|): written this
 * way a NaN (or an infinity) never passes. Elements that still hold the
 * harness's poison bit pattern (POISON_BITS, see labs/common/matbin.h) are
 * counted apart as "never written". */
#ifndef CUGRADE_COMPARE_H
#define CUGRADE_COMPARE_H

#include "rawio.h"

#define COMPARE_MAX_SHOWN 5

typedef struct {
    double rtol, atol;
} tolerance_t;

typedef struct {
    int row, col;
    float expected, got;
} mismatch_t;

typedef enum {
    HINT_NONE = 0,          /* passed */
    HINT_SHAPE,             /* output has the wrong dimensions */
    HINT_NEVER_WRITTEN,     /* every element still holds the poison */
    HINT_GRID_TOO_SMALL,    /* the unwritten elements are exactly the last partial tile rows/cols */
    HINT_BOUNDARY_WRONG,    /* wrong (written) elements only in the last partial tile rows/cols */
    HINT_LAST_PHASE,        /* K is not a multiple of the tile and (nearly) every element is wrong */
    HINT_PARTLY_UNWRITTEN,  /* some elements never written, not in a boundary pattern */
    HINT_ALL_WRONG,         /* every element wrong */
    HINT_SOME_WRONG         /* anything else */
} hint_t;

typedef struct {
    int passed;
    long total;          /* elements compared */
    long wrong;          /* elements failing the tolerance, never-written included */
    long never_written;  /* elements still holding the poison */
    long nonfinite;      /* NaN/inf the student computed (not poison) */
    double max_abs_err;  /* over written, finite elements */
    double max_rel_err;
    mismatch_t shown[COMPARE_MAX_SHOWN]; /* first wrong elements in row-major order */
    int nshown;
    hint_t hint;
    char hint_text[512]; /* one line for the student; "" when passed */
} compare_result_t;

/* Compares got against exp. tile_width is the lab's tile (used, with 8, 16
 * and 32, to recognise boundary patterns); inner_dim is K of C = A(MxK)B(KxN)
 * or 0 if the lab has none. Always fills r; returns r->passed. */
int compare_matrices(const matrix_t *exp, const matrix_t *got, tolerance_t tol, int tile_width,
                     int inner_dim, compare_result_t *r);

/* One-line summary, e.g. "312 of 65536 elements wrong (max abs err 3.2, max
 * rel err 0.5); 0 never written". Writes into buf. */
void compare_summary(const compare_result_t *r, char *buf, size_t buflen);

#endif
