/* checks.h - the graded checks (race-free, barriers-uniform, memory-safe,
 * uses-shared-memory, traffic-reduced): evidence gathered from the CPU
 * emulator's reports of every dataset run, and one test per check that the
 * rubric lists. A check that could not run says why and scores 0; a check
 * never fails on a correct kernel. */
#ifndef CUGRADE_CHECKS_H
#define CUGRADE_CHECKS_H

#include "run/emureport.h"
#include "report/results.h"
#include "course/rubric.h"
#include "util/util.h"

#define CHECK_DETAILS_SHOWN 3

/* One distinct finding: the same bug found on several datasets is one. */
typedef struct {
    char *message;       /* without the emulator's "(N times in this launch)" */
    char *key;           /* what makes it the same bug: see bug_key() in checks.c */
    char first_dataset[96];
    char last_dataset[96]; /* the dataset it was last found on (one counted once) */
    int datasets;        /* on how many datasets it was found */
} check_detail_t;

/* One report evidence_add was given, kept so that the checks can be scored
 * again from it (score/measured.h): its label, the report, its FLOP. */
typedef struct {
    char *label;
    emu_report_t report;
    double flop;
} evidence_run_t;

/* The reports of a grading's check runs, in the order they were added. */
typedef struct {
    evidence_run_t *runs;
    int n, cap;
} evidence_log_t;

typedef struct {
    long findings[CHECK_COUNT];          /* emulator findings mapped to each check */
    int datasets_with[CHECK_COUNT];      /* datasets on which each check found something */
    check_detail_t details[CHECK_COUNT][CHECK_DETAILS_SHOWN]; /* the first distinct findings */
    int ndetails[CHECK_COUNT];
    long distinct[CHECK_COUNT];          /* distinct findings, shown or not */
    double global_bytes, flop;           /* summed over the runs */
    double shared_load_bytes;            /* of the runs global_bytes counts (the roofline's) */
    double staged_loads;                 /* shared loads of data staged in the same block */
    double const_loads;                  /* reads of __constant__ variables (the executor's) ... */
    int const_counted;                   /* ... in this many runs: the emulator cannot count them */
    double global_atomics, shared_atomics; /* atomic operations (lanes) by space (the executor's) */
    double executed_flop;                /* the FLOP the kernels did (the executor's "flops"), summed
                                          * over the ended runs of 1e6 FLOP or more that counted them */
    double executed_base_flop;           /* what those runs needed (their datasets' FLOP) */
    double executed_global_bytes, executed_shared_bytes; /* what those runs moved (the roofline's:
                                          * bytes per FLOP done, padding of partial tiles included) */
    double threads, blocks;              /* launched, summed over the runs: a square block's
                                          * side is the tile (traffic-reduced's explanation) */
    int runs;                            /* runs whose report was read */
    int instrumented_runs;               /* runs whose report has the checking mode's statistics */
    double insight_flop;                 /* FLOP of the run the insight lines come from */
    char *insight;                       /* coalescing / bank-conflict lines of the largest run */
    evidence_log_t *record;              /* not NULL: evidence_add keeps a copy of every report
                                          * there (not owned: evidence_free leaves it) */
    int refused;                         /* runs whose report was refused (emureport.h): every
                                          * check then fails, charged to the submission */
    char refused_why[192];               /* the first one's why ... */
    char refused_dataset[96];            /* ... and its dataset */
} check_evidence_t;

/* The check an emulator finding counts against, or CHECK_COUNT for none. */
check_id_t check_for_finding(const char *kind);

/* Adds one dataset run's report; flop is the dataset's arithmetic (2*M*N*K).
 * With e->record set, a copy of the report goes there too. A refused report
 * (emureport.h) adds nothing but the refusal. */
void evidence_add(check_evidence_t *e, const char *dataset_label, const emu_report_t *r,
                  double flop);

/* Adds a copy of one report to log (what evidence_add does with e->record). */
void evidence_log_add(evidence_log_t *log, const char *label, const emu_report_t *r, double flop);
/* The evidence of every report in log, added in its order: what evidence_add
 * made of them when they were first added. */
void evidence_replay(check_evidence_t *e, const evidence_log_t *log);
void evidence_log_free(evidence_log_t *log);

/* Adds one test per check present in the rubric. not_run: NULL when the
 * checks ran, else why they did not (the tests then score 0 and say so).
 * After a refused report every check fails, saying which and why (the
 * submission wrote to the grader's report channel), whatever not_run says.
 * unearned: why a clean check still scores nothing (e.g. no dataset passed,
 * so the stub's empty kernel earns no "race-free"), or NULL; failing checks
 * report their findings either way. */
void checks_score(const lab_rubric_t *rub, const check_evidence_t *e, const char *not_run,
                  const char *unearned, grade_t *g);

void evidence_free(check_evidence_t *e);

#endif
