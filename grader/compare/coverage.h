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

/* The wrong elements all never written, and one launch seen: whether its
 * grid reaches C. Rewrites cr's hint and sets key ("grid-too-small",
 * "grid-xy-swapped"); 0 when the launch says nothing more. */
int explain_coverage(const emu_report_t *rep, const dataset_t *d, compare_result_t *cr, char *key,
                     size_t keylen);

#endif
