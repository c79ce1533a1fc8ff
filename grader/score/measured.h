/* measured.h - what a grading measured, before any rubric scores it: the
 * rubric-independent facts of one submission. Whether it compiled and what
 * the compiler said; per dataset its test name, verdict, message, failure
 * key and error map; the reports the checks are judged from (replayed
 * through evidence_add); the performance timing, or why there is none; and
 * the facts results.json's extra_data keeps (backend, student file, canary
 * texts, phase times, execution time). score.h turns a measurement and a
 * rubric into the grade, for a fresh grading and a re-score alike;
 * measured_json.c writes it as measurements.json and reads it back, so a
 * rubric change re-scores a submission without building or running it. */
#ifndef CUGRADE_MEASURED_H
#define CUGRADE_MEASURED_H

#include <limits.h>

#include "build/backend.h"
#include "compare/compare.h"
#include "score/checks.h"
#include "score/perf.h"
#include "score/roofline.h"

#define MEASURED_FORMAT "cugrade-measurements"
#define MEASURED_VERSION 1

/* One dataset's run (or why it did not run). */
typedef struct {
    char name[128];         /* its test: "dataset 12 (417x210x519)", "hidden dataset 3 (...)" */
    char folder[64];        /* a public dataset's folder, which the rubric's overrides name */
    int hidden_index;       /* > 0: hidden dataset K of the grading */
    int passed;
    char *message;          /* the test's output */
    char failure[128];      /* how it failed (verdict.h); "" */
    error_map_t *error_map; /* owned; NULL: none */
} measured_dataset_t;

/* An extra_data text recorded while measuring (the canaries' "canary",
 * "canary_emu"), kept in the order it came. */
typedef struct {
    char key[32];
    char *text;
} measured_note_t;

#define MEASURED_MAX_NOTES 4

/* The seconds a grading spent in one of its phases (extra_data "phases"). */
typedef struct {
    char name[32];
    double seconds;
} measured_phase_t;

#define MEASURED_MAX_PHASES 16

/* The performance test's measurement. */
typedef struct {
    int measured;         /* the grading had a performance test (the rubric's) */
    int timed;            /* result holds a timing to score */
    int on_gpu;           /* vgpu: timed on a GPU by replaying the executor's records
                           * (pipeline/grade_perf_replay.h), so scored as on the gpu backend */
    char *text;           /* the message before the score (the timing queue's wait, why the
                           * timing program failed); NULL: none */
    perf_result_t result; /* what perf_score scores, when timed */
    roofline_traffic_t reference_traffic; /* the reference's kernels on the datasets, counted on
                                           * the executor (its budgets); flop 0: not counted */
} measured_perf_t;

typedef struct {
    char cugrade_version[32];
    char lab[64];
    backend_t backend;            /* resolved */
    char backend_why[160];
    char sandbox[192];            /* how student code ran (sandbox_description()) */
    char student_file[PATH_MAX];  /* "" when none was found */
    char *rubric_run_fields;      /* rubric_run_fields() of the rubric it ran under */
    /* build */
    int compiled;
    char *compile_message;
    char rule_broken[1024];       /* "" unless a rule of the lab is broken */
    /* datasets, public then hidden */
    measured_dataset_t *datasets;
    int ndatasets, cap;
    char *cannot_grade;           /* why some dataset could not be graded; NULL */
    /* checks */
    int checks_measured;          /* the grading had checks (the rubric's) */
    char *checks_not_run;         /* why they did not run; NULL: they ran */
    evidence_log_t evidence;      /* the reports they are judged from */
    /* performance */
    measured_perf_t perf;
    /* extra_data */
    measured_note_t notes[MEASURED_MAX_NOTES];
    int nnotes;
    char *phase_times;            /* "build 3.1 s, datasets 6.0 s, ..." */
    measured_phase_t phases[MEASURED_MAX_PHASES];
    int nphases;
    double execution_time;        /* seconds */
} measured_t;

/* Appends a dataset; message is copied, error_map taken over (may be NULL). */
measured_dataset_t *measured_add_dataset(measured_t *m, const char *name, const char *folder,
                                         int hidden_index, int passed, const char *message,
                                         const char *failure, error_map_t *error_map);
/* Records an extra_data text (ignored past MEASURED_MAX_NOTES). */
void measured_add_note(measured_t *m, const char *key, const char *text);
/* Records a phase's seconds (ignored past MEASURED_MAX_PHASES). */
void measured_add_phase(measured_t *m, const char *name, double seconds);
/* *slot = a copy of text (NULL: none), freeing what was there. */
void measured_set(char **slot, const char *text);

/* How many public and hidden datasets there are and how many passed. */
typedef struct {
    int datasets_passed, datasets_total, hidden_passed, hidden_total;
} measured_counts_t;
measured_counts_t measured_counts(const measured_t *m);

void measured_free(measured_t *m);

/* ---- measurements.json (measured_json.c) ---- */

/* The JSON text (caller frees). */
char *measured_to_json(const measured_t *m);
/* Writes it to path through a temporary file and rename. */
int measured_write(const measured_t *m, const char *path, char *err, size_t errlen);
/* Reads path into m (zeroed first; freed again on failure). -1 with err
 * naming the file and what is wrong with it ("PATH: datasets[3].passed:
 * must be true or false", "PATH:1: syntax error: ..."). */
int measured_read(const char *path, measured_t *m, char *err, size_t errlen);
/* The same from text; name stands for the file in messages. */
int measured_parse(const char *name, const char *text, measured_t *m, char *err, size_t errlen);

#endif
