/* coverage.h - what the launch the grader saw (the executor's and the
 * checked emulator's statistics: one launch's grid and block) says of a
 * dataset's output, for verdict.c: a grid short of C, or x and y swapped
 * between the launch and the kernel. */
#ifndef CUGRADE_COVERAGE_H
#define CUGRADE_COVERAGE_H

#include <stddef.h>

#include "compare/compare.h"
#include "dataset/dataset.h"
#include "run/emureport.h"
#include "util/util.h"

/* The wrong elements all never written, and one launch seen: whether its
 * grid reaches the output (named output: "C"). size names a one-dimensional
 * output's length as the launch function has it ("n"; NULL: a matrix's,
 * numCRows*numCColumns). Rewrites cr's hint and sets key
 * ("grid-too-small", "grid-xy-swapped"); 0 when the launch says nothing
 * more. */
int explain_coverage(const emu_report_t *rep, const dataset_t *d, const char *output, const char *size,
                     compare_result_t *cr, char *key, size_t keylen);

/* Whether the executor found inputs no kernel read ("input-not-read"):
 * then a comparison that passed by tolerance fails, and for one launch of a
 * one-dimensional grid the hint says how far the grid reaches the input's n
 * elements, naming a size computed in float where that is what the grid
 * is (ceil(1.f * n / B) cannot hold n past 2^24). Appends the verdict and
 * the hint to msg and returns 1; 0 when no input went unread. */
int explain_unread(const emu_report_t *rep, const dataset_t *d, const char *summary, strbuf_t *msg);

#endif
