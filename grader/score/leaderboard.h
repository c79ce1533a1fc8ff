/* leaderboard.h - what a timed submission brings to the class leaderboard,
 * from the performance test's parsed timings (perf.h), into its
 * results.json:
 *   - extra_data.performance_shapes: one object per timed shape, e.g.
 *     {"shape": "4096x4096x4096", "gflops": 45210, "cublas_gflops": 51020,
 *      "reference_gflops": 47100, "ratio_to_cublas": 0.8861,
 *      "ratio_to_reference": 0.9599, "wrong": 0}  (wrong: elements of the
 *      student's timed outputs the re-check found wrong)
 *     (rates in the lab kind's unit: "gflops" keys for GFLOP/s, "gbs" for
 *     GB/s; null where that implementation was not timed);
 *   - Gradescope's top-level "leaderboard" list: the rate's geometric mean
 *     over the shapes first ({"name": "TFLOP/s (geomean)", "value": 45.21,
 *     "order": "desc"}: the ranking key), then "% of cuBLAS (geomean)" (or of
 *     the reference where the timing program does not time cuBLAS), then the
 *     rate at each shape ("TFLOP/s 4096x4096x4096");
 *   - extra_data.leaderboard_why instead of the list when the timings cannot
 *     rank the submission (a wrong timed output, a shape without a timing).
 * Submissions that were not timed get neither: report/board.h says why. */
#ifndef CUGRADE_LEADERBOARD_H
#define CUGRADE_LEADERBOARD_H

#include <stddef.h>

#include "report/results.h"
#include "score/perf.h"

struct json_object;

/* How a kind's rate unit appears on the leaderboard. */
typedef struct {
    const char *rate_unit;  /* the kind's: "GFLOP/s", "GB/s" */
    const char *key;        /* performance_shapes keys: "gflops", "gbs" */
    const char *board_unit; /* the leaderboard's: "TFLOP/s", "GB/s" */
    double scale;           /* board value = rate * scale */
    double step;            /* board values are rounded to a multiple of this */
} rate_unit_t;

/* The unit's entry; an unknown unit is shown as it is (scale 1). */
const rate_unit_t *leaderboard_unit(const char *rate_unit);

/* extra_data.performance_shapes (caller owns it). */
struct json_object *leaderboard_shapes_json(const perf_result_t *r, const rate_unit_t *u);

/* The "leaderboard" list (caller owns it), or NULL when the timings cannot
 * rank the submission; why then says what is missing. */
struct json_object *leaderboard_json(const perf_result_t *r, const rate_unit_t *u, char *why,
                                     size_t whylen);

/* Records both in g, or performance_shapes and leaderboard_why. */
void leaderboard_record(grade_t *g, const perf_result_t *r, const char *rate_unit);

#endif
