/* results.h - one submission's grade and its Gradescope results.json.
 *
 * The JSON follows Gradescope's autograder specification: top-level "score",
 * "execution_time", "output", "extra_data" (cugrade's own facts: lab,
 * backend, version, ...), "tests": [ { "name", "score", "max_score",
 * "status" ("passed"/"failed"), "output", "visibility", and for a failing
 * dataset "extra_data": { "failure": how it failed (verdict.h), "error_map":
 * { "rows", "cols", "map_rows", "map_cols", "cells" } } } ], and for a timed
 * submission Gradescope's top-level "leaderboard" list (score/leaderboard.h).
 * Written through a temporary file and rename. */
#ifndef CUGRADE_RESULTS_H
#define CUGRADE_RESULTS_H

#include <stddef.h>

#include "compare/compare.h"
#include "course/rubric.h"

struct json_object;

typedef struct {
    char name[128];
    double score, max_score;
    int passed;
    visibility_t visibility;
    char *output; /* malloc'd, may be NULL */
    error_map_t *error_map; /* malloc'd, NULL if none: the test's "extra_data" */
    int is_dataset;         /* a dataset's test (the terminal report groups them) */
    int is_hidden;          /* a hidden dataset's (grouped apart from the public ones) */
    char failure[128];      /* a failing dataset: how it failed (verdict.h); "" otherwise */
} test_result_t;

#define GRADE_MAX_EXTRA 32

/* One entry of Gradescope's free-form "extra_data" object. */
typedef struct {
    char key[32];
    char *text;    /* malloc'd string value, or NULL for a number */
    double number;
    struct json_object *json; /* owned: a JSON value (wins over text and number), or NULL */
} extra_item_t;

typedef struct {
    test_result_t *tests;
    int ntests, cap;
    extra_item_t extra[GRADE_MAX_EXTRA];
    int nextra;
    double execution_time; /* seconds */
    char *output;          /* malloc'd top-level message, may be NULL */
    struct json_object *leaderboard; /* owned: Gradescope's "leaderboard" array, or NULL (none) */
} grade_t;

/* Appends a test; output is copied. Returns the new test. */
test_result_t *grade_add_test(grade_t *g, const char *name, double score, double max_score,
                              int passed, visibility_t vis, const char *output);
/* Hands an error map to the next grade_add_test (a copy; NULL clears it).
 * verdict_dataset judges a dataset just before the grader adds its test, so
 * the map of a failing dataset lands on that dataset's test. */
void grade_attach_error_map(const error_map_t *map);
/* The map handed over and not yet taken by a test (caller frees), or NULL;
 * the next test gets none. For a caller that keeps the map itself. */
error_map_t *grade_take_error_map(void);

/* The "error_map" object of a test's "extra_data", and back: from_json
 * returns 0 when obj is a well-formed map (at most ERROR_MAP_MAX cells a side,
 * map_rows*map_cols cells of '.', 'x', 'o'), -1 otherwise. */
struct json_object *error_map_to_json(const error_map_t *m);
int error_map_from_json(struct json_object *obj, error_map_t *m);

/* Adds "key": value to the top-level "extra_data" (silently ignored past
 * GRADE_MAX_EXTRA entries). */
void grade_set_extra_text(grade_t *g, const char *key, const char *value);
void grade_set_extra_number(grade_t *g, const char *key, double value);
/* The same with a JSON value (an array, an object); g takes it over. */
void grade_set_extra_json(grade_t *g, const char *key, struct json_object *value);
/* Sets the top-level "leaderboard" array (replacing any); g takes it over. */
void grade_set_leaderboard(grade_t *g, struct json_object *board);
/* A JSON number as results.json writes them: integers as "10", others with
 * up to 12 significant digits, a non-finite value as 0. */
struct json_object *grade_json_number(double v);
double grade_score(const grade_t *g);
double grade_max_score(const grade_t *g);

/* Renders results.json text (caller frees). */
char *grade_to_json(const grade_t *g);
int grade_write_json(const grade_t *g, const char *path, char *err, size_t errlen);
void grade_free(grade_t *g);

#endif
