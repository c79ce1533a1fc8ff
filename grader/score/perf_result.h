/* perf_result.h - what a timing program measured, as the grader keeps it:
 * each implementation's times on each shape, the device, and the student's
 * speed over the reference's. The types and two lookups (perf_result.c):
 * the lab kinds' perf_bound reads them (kinds/kind.h), score/perf.h parses
 * and scores them, score/roofline.h places them. */
#ifndef CUGRADE_PERF_RESULT_H
#define CUGRADE_PERF_RESULT_H

#include "course/rubric.h" /* PERF_MAX_SHAPES */

#define PERF_MAX_IMPLS 4

/* How an implementation's reps were timed (the timing program's "gated"):
 * through the launch gate, or not (its launch function did not return while
 * the gate held the GPU, --gate off, or the emulator, which has none). */
enum { PERF_GATE_UNKNOWN = 0, PERF_GATED, PERF_UNGATED };

typedef struct {
    char name[16];        /* student, reference, naive, cublas */
    double median_ms, mean_ms, rse;
    double q1_ms;         /* the first quartile, whose time the rate is (0: a timing
                             program from before it was reported: the median's) */
    double rate;          /* in the lab kind's unit: "gflops" (GFLOP/s) or "gbs" (GB/s) */
    int reps;
    long wrong;           /* wrong elements in its timed outputs */
    int gate;             /* PERF_GATED, PERF_UNGATED, or PERF_GATE_UNKNOWN (not reported) */
    int wrong_reps;       /* timed reps found wrong, when has_wrong_reps (else not reported) */
    int has_wrong_reps;
} perf_impl_t;

typedef struct {
    char shape[32];
    double copy_gbs;      /* reduction labs: the device's measured copy bandwidth (0: none) */
    perf_impl_t impls[PERF_MAX_IMPLS];
    int nimpls;
} perf_shape_t;

typedef struct {
    char device[128];
    double sm_clock_mhz, bandwidth_gbs;
    long l2_bytes;
    int sms, driver_version, runtime_version;
    int cc_major, cc_minor; /* compute capability (0.0: not reported) */
    perf_shape_t shapes[PERF_MAX_SHAPES];
    int nshapes;
    double speed_ratio;   /* student / reference speed, geometric mean over the
                             shapes; 0 when a shape has no usable timing or a
                             wrong timed output (results.json "perf_ratio") */
} perf_result_t;

/* The implementation of s called name ("student", "reference", "cublas", "library"), or NULL. */
const perf_impl_t *perf_impl(const perf_shape_t *s, const char *name);
/* r's compute capability from "9.0" (left as it was unless text is one). */
void perf_set_compute_capability(perf_result_t *r, const char *text);

#endif
