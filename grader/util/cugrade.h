/* cugrade.h - what every part of the grader may need to know about cugrade
 * itself: its version, the exit statuses of bin/cugrade, and where its tree
 * is. */
#ifndef CUGRADE_CUGRADE_H
#define CUGRADE_CUGRADE_H

#define CUGRADE_VERSION "0.1.0"

/* Exit statuses shared by every subcommand. */
#define EXIT_GRADED 0        /* graded, whatever the score */
#define EXIT_USAGE 64        /* bad command line */
#define EXIT_CANNOT_GRADE 2  /* bad rubric, missing datasets, broken lab, ... */

/* The cugrade tree: $CUGRADE_ROOT, else the folder above bin/cugrade. */
const char *cugrade_root(void);

#endif
