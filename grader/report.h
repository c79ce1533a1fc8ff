/* report.h - the terminal report of a graded submission: one line per test,
 * the details of each failure (indented, shortened; results.json has them
 * whole), and the score. Colour on a tty unless NO_COLOR is set. */
#ifndef CUGRADE_REPORT_H
#define CUGRADE_REPORT_H

#include <stdio.h>

#include "grade.h"

typedef enum { COLOR_AUTO = 0, COLOR_ALWAYS, COLOR_NEVER } color_mode_t;

void report_print(FILE *to, const grade_run_t *run, const char *lab, color_mode_t color);

#endif
