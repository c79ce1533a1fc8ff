/* board.h - the class leaderboard, read back from a batch's results folder:
 * every RESULTS_DIR/<id>/results.json, ranked by the first entry of its
 * "leaderboard" list (the rate's geometric mean; score/leaderboard.h), best
 * first, equal values sharing a rank; then the students who are not on it,
 * each with why (did not compile, did not pass correctness, not timed on the
 * emu backend, a wrong timed output, ...). A results.json that is not JSON,
 * or whose "leaderboard" is malformed, is skipped and named (with the line
 * json-c stopped at). Shown by class.html (html_board.c), summary.json
 * (batch_class.c) and `cugrade leaderboard` (board_text.c). */
#ifndef CUGRADE_BOARD_H
#define CUGRADE_BOARD_H

#include <stddef.h>

#include "score/perf.h"
#include "util/util.h"

struct json_object;

typedef struct {
    char shape[32];
    double value;   /* the student's rate there, in the board's unit */
    double percent; /* of the baseline there; < 0: unknown */
} board_shape_t;

typedef struct {
    char *id;
    char lab[32];
    int rank;       /* 1, 2, 2, 4, ...; 0: not ranked */
    double value;   /* the ranking key: the rate's geometric mean */
    int ascending;  /* its "order" is "asc" (lower is better) */
    int perf_test;  /* its results.json has a performance test (or a leaderboard) */
    double percent; /* % of the baseline (geometric mean); < 0: none */
    char unit[24];     /* "TFLOP/s", from the key's name */
    char baseline[24]; /* "cuBLAS", "reference"; "" */
    board_shape_t shapes[PERF_MAX_SHAPES];
    int nshapes;
    char why[240];  /* not ranked: why */
} board_row_t;

typedef struct {
    board_row_t *rows; /* after board_rank: the ranked by rank then id, then the rest by id */
    int n, cap;
    int nranked;
    char lab[32];      /* the lab asked for, else the one found ("" if none) */
    char unit[24];     /* the first ranked row's; "" when nobody is ranked */
    char baseline[24];
    char shapes[PERF_MAX_SHAPES][32]; /* every shape of a ranked row, first seen first */
    int nshapes;
    char **skipped;    /* "DIR/x/results.json:3: not JSON (...)": one per skipped file */
    int nskipped;
    int other_labs;    /* results of another lab than lab, left out */
    int perf_tests;    /* rows with a performance test or a leaderboard (0: the lab has none) */
} board_t;

/* Adds one results.json's text (path names it in messages). Returns 0, or
 * -1 when it is malformed: it is then listed in skipped, not in rows. */
int board_add_text(board_t *b, const char *id, const char *text, const char *path);

/* Reads every out_dir/<id>/results.json (ids sorted) and ranks them. lab:
 * only that lab's results (NULL: all, which must be of one lab). -1 with
 * err when the folder cannot be read or holds several labs. */
int board_load(const char *out_dir, const char *lab, board_t *b, char *err, size_t errlen);

/* Sorts and ranks the rows (board_load does it), sets unit, baseline, shapes. */
void board_rank(board_t *b);
void board_free(board_t *b);

/* The board as JSON (summary.json's "leaderboard", `cugrade leaderboard
 * --json`): lab, unit, baseline, shapes, ranked [{rank, id, value, percent,
 * shapes: [{shape, value, percent}]}], not_ranked [{id, why}], skipped. */
struct json_object *board_to_json(const board_t *b);

/* The terminal table (board_text.c): aligned columns, one line per student;
 * top > 0 keeps the rows ranked top or better and leaves the others out. */
void board_text(strbuf_t *out, const board_t *b, int top);
/* A number in the unit's precision ("45.210" TFLOP/s, "2950.4" GB/s). */
void board_number(strbuf_t *out, const char *unit, double v);

#endif
