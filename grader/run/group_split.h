/* group_split.h - splitting the captured output of a driver's list mode
 * (one process, several datasets, between marker lines) back into one part
 * per dataset (group_split.c; used by runs.c's grouped runs), and watching
 * the states of a running process's datasets (group_watch_t). */
#ifndef CUGRADE_GROUP_SPLIT_H
#define CUGRADE_GROUP_SPLIT_H

#include <stddef.h>

#include "util/util.h"

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

/* A list-mode process's report channel watched while it grows (runs_ahead.c
 * reads it every 50 ms): each read takes only the bytes written since the
 * last, so watching costs time linear in what the process wrote, however
 * long it runs and however much it writes. The states are group_split's
 * (not cut) of all the text so far. */
typedef struct {
    int n;
    group_part_t *parts;  /* states, times and statuses only (no output) */
    int expect, inside;   /* the dataset whose begin or end comes next; it has begun */
    int timed;            /* the dataset the watchdog stopped, or -1 */
    strbuf_t pending;     /* the text not scanned yet: at most a marker line's worth */
    unsigned long long taken; /* bytes fed so far (of the file read) */
    unsigned long long dev, ino; /* the file they came from (group_watch_read) */
} group_watch_t;

/* A watch over n datasets; 0, or -1 out of memory. */
int group_watch_init(group_watch_t *w, int n);
/* Back to nothing seen (the text begins again). */
void group_watch_restart(group_watch_t *w);
/* The text goes on with data[0..len). */
void group_watch_feed(group_watch_t *w, const char *data, size_t len);
/* Feeds what was appended to the file at path since the last read; a file
 * replaced (another inode), shorter than what was taken, or missing starts
 * the watch again (missing: nothing seen). */
void group_watch_read(group_watch_t *w, const char *path);
/* Dataset k's state so far: GROUP_NOT_BEGUN, GROUP_STOPPED (began, not
 * ended yet), GROUP_ENDED or GROUP_TIMED_OUT. */
group_state_t group_watch_state(const group_watch_t *w, int k);
void group_watch_free(group_watch_t *w);

#endif
