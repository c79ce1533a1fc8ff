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

#endif
