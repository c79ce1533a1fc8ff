/* matmul_wrong.h - internal to the matmul hypotheses: the classic wrong
 * programs of a tiled matrix multiplication as the two halves see them.
 * matmul_hypotheses.c computes what each would have written (its formula)
 * and tests it against the output; matmul_hints.c says what a match means
 * and how to fix it (its describe function). A: M x K, B: K x N, C: M x N,
 * row-major. */
#ifndef CUGRADE_MATMUL_WRONG_H
#define CUGRADE_MATMUL_WRONG_H

#include <stddef.h>

typedef struct {
    const float *a, *b, *exp;
    int m, k, n;
} problem_t;

typedef struct hypothesis hypothesis_t;

/* The families, for the "ruled out" list. */
enum {
    FAM_TRANSPOSED = 1 << 0,
    FAM_C_TRANSPOSED = 1 << 1,
    FAM_PHASES = 1 << 2,
    FAM_RESET = 1 << 3,
    FAM_TILE = 1 << 4,
    FAM_BLOCKS = 1 << 5,
    FAM_STRIDE = 1 << 6,
    FAM_ZEROS = 1 << 7,
};

struct hypothesis {
    const char *id;
    int family;
    int tile; /* T, for the tile-based ones */
    int x;    /* a cut: the prefix length, the first zero row, ... */
    double (*value)(const problem_t *p, const hypothesis_t *h, int i, int j);
    void (*describe)(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                     size_t len);
};

/* What a hypothesis that reproduced the output says, into buf: the fact,
 * the code that gives it, the fix (lab_tile: the lab's TILE_WIDTH). */
void say_b_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len);
void say_a_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len);
void say_both_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len);
void say_c_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len);
void say_prefix(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len);
void say_all_zero(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len);
void say_suffix(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len);
void say_running_totals(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len);
void say_tile_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len);
void say_blocks_swapped(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len);
void say_a_stride_n(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len);
void say_b_stride_k(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len);
void say_zeros(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len);

#endif
