/* group_split.h - splitting the captured output of a driver's list mode
 * (one process, several datasets, between marker lines) back into one part
 * per dataset (group_split.c; used by runs.c's grouped runs). */
#ifndef CUGRADE_GROUP_SPLIT_H
#define CUGRADE_GROUP_SPLIT_H

#include <stddef.h>

typedef enum {
    GROUP_NOT_BEGUN,  /* no begin marker: the process ended before it */
    GROUP_ENDED,      /* begin and end markers: it ran to its end */
    GROUP_STOPPED,    /* began, never ended: the process ended in it */
    GROUP_TIMED_OUT,  /* the driver's watchdog stopped it at its limit */
    GROUP_LOST,       /* the output was cut before its end marker: unknown */
} group_state_t;

typedef struct {
    group_state_t state;
    double wall_s;      /* GROUP_ENDED: from the end marker */
    int exit_code;      /* GROUP_ENDED: 0, or the status of a CUDA error that ended only the
                         * dataset ("cugrade-dataset-failed K WALL_S STATUS", harness.h) */
    int term_signal;    /* GROUP_ENDED: the signal of a crash of the student's code that ended
                         * only the dataset ("cugrade-dataset-signal K WALL_S SIGNO",
                         * harness_crash.h); else 0 */
    char *output;       /* what it printed, markers removed (malloc'd, NUL-terminated) */
    size_t output_len;
} group_part_t;

/* Splits the captured output of a list-mode process that ran n datasets at
 * its markers (cut: the runner kept only the first len bytes). Text before a
 * dataset's begin marker is that dataset's; text after the last end marker
 * goes to the dataset that ended last. A line that is not the marker
 * expected next (wrong index, malformed, out of order) is program output.
 * Returns how many datasets ended. Free with group_parts_free. */
int group_split(const char *out, size_t len, int cut, group_part_t *parts, int n);
void group_parts_free(group_part_t *parts, int n);

#endif
