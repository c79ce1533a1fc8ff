/* html_class.h - the class as batch_class.c loads it from every
 * RESULTS_DIR/<id>/results.json, and the class page RESULTS_DIR/class.html
 * rendered from it: one self-contained file (inline CSS, JS and SVG, PNG
 * data: URIs) with the score histogram, the pass rate per test, the
 * distribution of the performance ratio, the counts, and a sortable table of
 * the students (click a header, or open it with #sort=KEY / #sort=-KEY; the
 * script sets body's data-ready="1" once the table is sorted), and for a lab
 * with a performance test the class leaderboard (board.h). */
#ifndef CUGRADE_HTML_CLASS_H
#define CUGRADE_HTML_CLASS_H

#include "compare/compare.h"
#include "report/board.h"
#include "score/roofline.h"

typedef struct {
    char *name;
    double score, max_score;
    int passed;
    int skipped; /* 0 of 0 and "not scored ..." or "not run ...": does not apply */
    int not_run; /* failed without running: its compile failed, the budget ran out */
} class_cell_t;

typedef struct {
    char *id;
    char lab[32];
    double total, max;
    int cannot_grade, no_compile, no_file, empty_file, timed_out, crashed;
    char *rejected;     /* not graded: its archive was refused, and why (NULL: graded);
                         * such a row is also cannot_grade, out of every count */
    char *cannot_why;   /* could not grade: the batch's reason (NULL: none given) */
    int nfailed;        /* tests failed, those that do not apply not counted */
    int first_fail;     /* the first of them, an index in tests (-1: none) */
    char *first_why;    /* its reason, one line of its output (malloc'd; NULL: none) */
    double perf_ratio;  /* student / reference speed; <= 0: not timed */
    roofline_t *roofline; /* where its kernel sits (extra_data "roofline"; malloc'd), or NULL */
    error_map_t *map;   /* the first failing dataset's error map, or NULL */
    int map_test;       /* that test's index in tests */
    class_cell_t *tests;
    int ntests;
} class_row_t;

typedef struct {
    class_row_t *rows;
    int n;
    char **cols; /* test names, the table's columns */
    int ncols, colcap;
    char *gpu_spread; /* the batch's baseline timings, one sentence (malloc'd; NULL: none) */
    char *gpu_use;    /* where the GPUs' time went, a line a GPU (batch/gpu_holds.h; NULL: none) */
} class_data_t;

typedef struct {
    int graded, cannot, rejected, no_compile, no_file, empty_file, timed_out, crashed;
    double mean, max;
} class_counts_t;

/* The test of row r named name, or NULL. */
const class_cell_t *class_find_cell(const class_row_t *r, const char *name);

/* How many students test col applies to (graded, the test not skipped: no
 * performance on the emu backend) into *have, and how many passed it. */
void class_pass_count(const class_data_t *c, const char *col, int *pass, int *have);

/* The students' table, one row each (html_class_table.c). */
void html_class_table(strbuf_t *sb, const class_data_t *c);

/* class.html (caller frees). Student pages are linked as <id>/report.html.
 * board: the leaderboard section (html_board.c); NULL or empty: none. */
char *html_class_page(const class_data_t *c, const class_counts_t *k, const board_t *board);

/* The leaderboard section: ranked table, then the students not on it. */
void html_board_section(strbuf_t *sb, const board_t *b);

#endif
