/* perf.h - the performance test: parse what the lab's timing program
 * (labs/kinds/matmul/perf.cu) printed on a GPU, and score the student's speed
 * relative to the lab's reference kernel, or to cuBLAS (rubric.json
 * "relative_to"), on a linear scale from the rubric.
 * The report gives the rate in the lab kind's unit (GFLOP/s for matmul, GB/s
 * for a reduction), the ratios to the reference and to cuBLAS, the speed-up
 * over a baseline, and the kind's bound (kinds/kind.h perf_bound). */
#ifndef CUGRADE_PERF_H
#define CUGRADE_PERF_H

#include "course/rubric.h"
#include "score/perf_result.h"
#include "util/util.h"

/* The command line of a timing program as the grader runs it: the rubric's
 * time cap and shapes, and the lab's tolerance (lab.json "compare"). Every
 * kind's perf.cu must accept it (tests/e2e/test_timing_args.c). */
typedef struct {
    char cap[32], rtol[32], atol[32], impls[64];
    char *argv[2 * PERF_MAX_SHAPES + 10]; /* NULL-ended */
} perf_command_t;

/* impls: the program's --impl list ("student"; NULL: every implementation,
 * interleaved). */
void perf_command(const char *program, const perf_rule_t *rule, double rtol, double atol,
                  const char *impls, perf_command_t *out);

/* Completes a student-only timing r with the other implementations' timings
 * of the same shapes from base, a timing of them alone on the same device
 * (a batch's baseline, pipeline/perf_baseline.h), and sets r->speed_ratio.
 * 0, or -1 (err: why) when base is of another device or lacks a shape. */
int perf_merge_baseline(perf_result_t *r, const perf_result_t *base, char *err, size_t errlen);

/* Parses the timing program's "key value" lines (and sets speed_ratio). */
int perf_parse(const char *text, perf_result_t *out, char *err, size_t errlen);
/* The same lines from the timing run's report channel (a file; runner.h):
 * what the timing program wrote there, never what the submission printed. */
int perf_parse_file(const char *report_path, perf_result_t *out, char *err, size_t errlen);

/* The student's speed over the reference's (PERF_VS_REFERENCE) or cuBLAS's
 * on one shape; -1 without usable timings or when the student's timed
 * output was wrong. */
double perf_shape_ratio(const perf_shape_t *s, perf_relative_t vs);
/* The geometric mean of the shapes' ratios, 0 if any is unusable. */
double perf_speed_ratio(const perf_result_t *r, perf_relative_t vs);

/* Appends the report to out and returns the score (0..rule->points); *ok is
 * set when the student's timed outputs were all right and the speed earned
 * the full points. roofline: where the kernel sits on the device's roofline
 * (score/roofline.h), said after the shapes in place of the kind's bound;
 * NULL: none drawn. */
struct lab;
struct roofline_s;
double perf_score(const perf_rule_t *rule, const perf_result_t *r, const struct lab *lab,
                  const struct roofline_s *roofline, strbuf_t *out, int *ok);

#endif
