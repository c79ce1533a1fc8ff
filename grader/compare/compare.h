/* compare.h - element-wise comparison of a student's output against the
 * expected matrix, with a diagnosis of the error pattern.
 *
 * An element is wrong when !(|got - exp| <= atol + rtol*|exp|): written this
 * way a NaN (or an infinity) never passes. Elements that still hold the
 * harness's poison bit pattern (POISON_BITS, see labs/common/matbin.h) are
 * counted apart as "never written". */
#ifndef CUGRADE_COMPARE_H
#define CUGRADE_COMPARE_H

#include "dataset/rawio.h"
#include "compare/tolerance.h"

#define COMPARE_MAX_SHOWN 5

/* The error map: the output matrix downsampled to at most ERROR_MAP_MAX x
 * ERROR_MAP_MAX cells, each covering a block of ceil(rows / map_rows) x
 * ceil(cols / map_cols) elements (the last row and column of cells may be
 * smaller). A cell is the worst state of its elements: never written beats
 * wrong beats right. */
#define ERROR_MAP_MAX 64
#define MAP_RIGHT '.'     /* every element of the block is right */
#define MAP_WRONG 'x'     /* some element was written but is wrong */
#define MAP_UNWRITTEN 'o' /* some element still holds the poison */

typedef struct {
    int rows, cols;         /* the output matrix */
    int map_rows, map_cols; /* 0 when there is no map (wrong shape, empty matrix) */
    char cells[ERROR_MAP_MAX * ERROR_MAP_MAX + 1]; /* map_rows*map_cols chars, row-major */
} error_map_t;

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
    HINT_HYPOTHESIS,        /* a classic wrong program reproduces the output (hypotheses.h) */
    HINT_FOREIGN_VALUES,    /* elements no sum of the inputs' products can be
                             * (compare_explainer_t.bound); failure key all- or some-wrong */
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
    char hint_text[1024]; /* one line for the student; "" when passed */
    char hint_hidden[1024]; /* when hint_text quotes expected values (or errors against
                               them): the hint for a hidden dataset, without them; "" if
                               hint_text quotes none */
    char hypothesis[100]; /* the id of the wrong program that reproduces the output, or "";
                             several, comma-separated, when this dataset cannot tell them apart */
    int nhypotheses;      /* how many reproduce it (hypothesis's ids) */
    char summary[256];    /* a kind's own summary line (a reduction: the sum against the
                             expected one); "" for compare_summary's element counts */
    error_map_t map;     /* where the wrong elements are; none on a shape mismatch */
} compare_result_t;

/* What a kind's diagnosis by hypothesis found (kinds/): the classic wrong
 * programs that reproduce the output. */
#define HYPOTHESIS_MAX_MATCHES 3

typedef struct {
    int nmatched;            /* hypotheses that reproduce the output (0: none) */
    char id[HYPOTHESIS_MAX_MATCHES][32]; /* e.g. "b-transposed", "phases-intdiv" */
    char hint[1024];          /* the hint for the student ("" when none matched) */
    char ruled_out[384];     /* what was tried, for a hint when none matched */
    int ntried;              /* hypotheses tried on this output */
    long checked;            /* written elements each match was verified on */
    int sampled;             /* 1: a large output, verified on a sample of elements */
} hypothesis_result_t;

/* An output value no sum of the inputs' products can be: NaN, infinite, or
 * over COMPARE_FOREIGN_FACTOR times the kind's bound (compare_explainer_t's:
 * the largest sum of products, however a kernel pairs or repeats them); and
 * what can add in such a value, for the hints. */
#define COMPARE_FOREIGN_FACTOR 1e6

/* The largest |x[i]| of n values (0 for none): for a kind's bound. */
double compare_largest(const float *x, size_t n);
#define COMPARE_FOREIGN_CAUSES                                                                   \
    "the kernel added in something not in A or B (a read past their ends, where a GPU has "    \
    "3.39e38; shared memory no thread wrote; a sum not set to 0)"

/* A kind's diagnosis by hypothesis: computes what classic wrong programs
 * would have written from the dataset's inputs and fills h with those that
 * reproduce got on every written element. */
typedef struct {
    void (*explain)(const void *inputs, const matrix_t *exp, const matrix_t *got, tolerance_t tol,
                    int tile_width, hypothesis_result_t *h);
    /* The largest magnitude an output element can have as a sum of the
     * inputs' products, whatever elements a wrong kernel pairs (matmul: K
     * max|A| max|B|); NULL: unknown. */
    double (*bound)(const void *inputs);
    const void *inputs;
} compare_explainer_t;

/* Compares got against exp. tile_width is the lab's tile (used, with 8, 16
 * and 32, to recognise boundary patterns and phases); ex, when not NULL, is
 * the lab kind's diagnosis by hypothesis, tried before the error patterns.
 * Always fills r; returns r->passed. */
int compare_matrices(const matrix_t *exp, const matrix_t *got, tolerance_t tol, int tile_width,
                     const compare_explainer_t *ex, compare_result_t *r);

/* One-line summary, e.g. "312 of 65536 elements wrong (max abs err 3.2, max
 * rel err 0.5); 0 never written". Writes into buf. */
void compare_summary(const compare_result_t *r, char *buf, size_t buflen);

/* The same for a hidden dataset, whose expected values must not show:
 * element counts without the errors, or for a kind's own summary only
 * whether the output is within the tolerance. */
void compare_summary_hidden(const compare_result_t *r, char *buf, size_t buflen);

/* Elements per cell along each axis (1 when there is no map). */
/* A map of a rows x cols output, every cell right, and the element (row,
 * col) marked MAP_WRONG or MAP_UNWRITTEN (a cell keeps its worst state):
 * for a kind whose output compare_matrices does not compare. */
void error_map_start(error_map_t *m, int rows, int cols);
void error_map_mark(error_map_t *m, int row, int col, char state);
int error_map_cell_rows(const error_map_t *m);
int error_map_cell_cols(const error_map_t *m);

/* Downsamples m further to at most max_rows x max_cols cells (the same
 * rule: whole blocks of cells, the worst state wins) into out. */
void error_map_shrink(const error_map_t *m, int max_rows, int max_cols, error_map_t *out);

#endif
