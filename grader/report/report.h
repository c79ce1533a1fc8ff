/* report.h - the terminal report of a graded submission: the tests, the
 * details of each failure (shortened; results.json has them whole), and the
 * score. Colour on a tty unless NO_COLOR is set. */
#ifndef CUGRADE_REPORT_H
#define CUGRADE_REPORT_H

#include <stdio.h>

#include "pipeline/grade.h"

typedef enum { COLOR_AUTO = 0, COLOR_ALWAYS, COLOR_NEVER } color_mode_t;

/* verbose: one entry per test (every dataset listed); else the short
 * report, datasets grouped by how they fail (report.c). */
void report_print(FILE *to, const grade_run_t *run, const char *lab, color_mode_t color,
                  int verbose);

#endif
