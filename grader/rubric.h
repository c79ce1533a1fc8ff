/* rubric.h - points, visibility and limits per lab, from rubric.json.
 *
 * rubric.json (top level of the repository):
 * {
 *   "version": 1,
 *   "labs": {
 *     "lab3": {
 *       "compile":  { "name": "compiles", "points": 10, "visibility": "visible" },
 *       "datasets": { "points": 5, "visibility": "visible", "time_limit_s": 20,
 *                     "overrides": { "12": { "points": 10, "visibility": "after_published",
 *                                            "time_limit_s": 60 } } },
 *       "checks":      { ... },   reserved for the emulator checks (issue 3)
 *       "performance": { ... }    reserved for the performance score (issue 4)
 *     }
 *   }
 * }
 * "datasets.points" is per dataset (uniform); "datasets.total" may be given
 * instead and is split evenly over the datasets found. Visibility is one of
 * Gradescope's: visible, hidden, after_due_date, after_published.
 * time_limit_s is optional; unset (0) means the lab manifest's time_limit_s.
 * Unknown keys are errors (typos must not silently change grades), except
 * inside the reserved "checks" and "performance" objects. */
#ifndef CUGRADE_RUBRIC_H
#define CUGRADE_RUBRIC_H

#include <stddef.h>

typedef enum { VIS_VISIBLE = 0, VIS_HIDDEN, VIS_AFTER_DUE_DATE, VIS_AFTER_PUBLISHED } visibility_t;

const char *visibility_name(visibility_t v); /* Gradescope spelling */
/* 0 and *out set if s is one of Gradescope's spellings, else -1. */
int visibility_parse(const char *s, visibility_t *out);

typedef struct {
    double points;
    visibility_t visibility;
    double time_limit_s;
} dataset_rule_t;

typedef struct {
    char name[64];
    dataset_rule_t rule;
} dataset_override_t;

typedef struct {
    char lab[64];
    char compile_name[64];
    double compile_points;
    visibility_t compile_visibility;
    dataset_rule_t datasets;  /* defaults for every dataset */
    int datasets_total_given; /* 1 if "total" was given instead of "points" */
    double datasets_total;
    dataset_override_t *overrides;
    int noverrides;
    char *checks_json;        /* raw JSON text of "checks", or NULL */
    char *performance_json;   /* raw JSON text of "performance", or NULL */
} lab_rubric_t;

/* Loads the rubric of `lab` from path. On failure returns -1 with err naming
 * the file and, for syntax errors, the line ("rubric.json:12: ..."), or the
 * JSON path of the bad field ("rubric.json: labs.lab3.datasets.points: must
 * be a non-negative number"). */
int rubric_load(const char *path, const char *lab, lab_rubric_t *out, char *err, size_t errlen);

/* The rule for one dataset (by folder name), overrides applied. ndatasets is
 * how many datasets are graded (used when "total" was given). */
dataset_rule_t rubric_dataset_rule(const lab_rubric_t *r, const char *dataset_name, int ndatasets);

void rubric_free(lab_rubric_t *r);

/* ---- JSON helpers shared by rubric.c and lab.c (json-c) --------------------
 * Messages start with the file name; `where` is the dotted JSON path of the
 * object being read ("labs.lab3.datasets"; "" at the top level). */
struct json_object;

typedef struct {
    const char *file; /* prefixes every message */
    char *err;
    size_t errlen;
} cfg_t;

/* Parses a JSON file (or text, `name` used in messages). Syntax errors read
 * "name:LINE: syntax error: <json-c's description>". NULL on failure; the
 * caller releases the result with json_object_put. */
struct json_object *cfg_parse_file(const char *path, char *err, size_t errlen);
struct json_object *cfg_parse_text(const char *name, const char *text, size_t len, char *err,
                                   size_t errlen);
/* Sets "file: where.key: message" (key may be NULL) and returns -1. */
int cfg_fail(const cfg_t *c, const char *where, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* -1 (error set) if obj is not an object. */
int cfg_require_object(const cfg_t *c, struct json_object *obj, const char *where);
/* -1 (error set) if obj has a key outside known (NULL-terminated). */
int cfg_check_keys(const cfg_t *c, struct json_object *obj, const char *where,
                   const char *const known[]);
/* The member `key` of obj, NULL if absent. */
struct json_object *cfg_member(struct json_object *obj, const char *key);
/* 1 if v is a finite JSON number (integer or not), stored in *out. */
int cfg_number(struct json_object *v, double *out);
/* Copies string member `key` into dst: 1 if copied, 0 if absent, -1 (error
 * set) if it is not a non-empty string that fits dst. */
int cfg_string(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
               char *dst, size_t dstlen);

#endif
