/* batch_progress.h - what `cugrade batch` prints while it grades: one line
 * per finished submission, and on a terminal a progress bar with counts,
 * elapsed time and ETA kept under those lines (redrawn in place). In a log
 * (not a tty) the lines are plain and carry the ETA themselves. */
#ifndef CUGRADE_BATCH_PROGRESS_H
#define CUGRADE_BATCH_PROGRESS_H

#include <stdio.h>

typedef struct {
    FILE *out;
    int tty;       /* draw the bar */
    int total;     /* submissions in this batch run */
    int timed;     /* of which graded by a child (the ones that take time) */
    int done, timed_done;
    double t0;
    int bar_shown;
} progress_t;

void progress_start(progress_t *p, FILE *out, int total, int timed);
/* One submission finished (took_time: it was graded by a child). line is its
 * report without the counter; the counter (and ETA) is added. */
void progress_done(progress_t *p, int took_time, const char *line);
/* Redraws the bar (tty only): the elapsed time moves even when nothing ends. */
void progress_tick(progress_t *p);
/* Removes the bar before the summary is printed. */
void progress_end(progress_t *p);

/* "eta 2m05s" from what is done so far ("eta ?" before the first one). */
void progress_eta(const progress_t *p, double now, char *buf, size_t len);
/* "1h02m", "2m05s", "7.3 s" */
void progress_format_duration(double s, char *buf, size_t len);

#endif
