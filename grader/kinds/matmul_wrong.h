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
    FAM_GUARD = 1 << 8,
};
#define FAM_COUNT 9

/* What a hypothesis that reproduced the output says, into buf: the fact,
 * the code that gives it, the fix (lab_tile: the lab's TILE_WIDTH). */
typedef void describe_fn(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                         size_t len);

struct hypothesis {
    const char *id;
    int family;
    int tile; /* T, for the tile-based ones */
    int x;    /* a cut: the prefix length, the first zero row, ... */
    double (*value)(const problem_t *p, const hypothesis_t *h, int i, int j);
    describe_fn *describe;
    const char *also; /* another mistake with the same formula here (k < K - 1 is a phase count
                         rounded down when K - 1 is a multiple of the tile): both fit or neither */
};

/* A hypothesis's mistake in a few words, for a list of those that fit
 * (matmul_hints.c); the id itself when it has none. */
const char *hypothesis_short(const char *id);

/* The describe functions (matmul_hints.c). */
describe_fn say_b_transposed, say_a_transposed, say_both_transposed, say_c_transposed,
    say_prefix, say_all_zero, say_suffix, say_running_totals, say_tile_transposed,
    say_blocks_swapped, say_a_stride_n, say_b_stride_k, say_zeros, say_inner_guard, say_k_off_by_one;

#endif
