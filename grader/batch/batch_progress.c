/* batch_progress.c - the progress of a batch: finished-submission lines, and
 * on a tty a bar under them ("\r" + erase line, redrawn after every line and
 * every tick). The ETA assumes the submissions left take, on average, what
 * the finished ones took (wall clock, so parallel jobs are accounted for). */
#include "batch/batch_progress.h"
#include "util/util.h"

#include <string.h>
#include <unistd.h>

#define BAR_WIDTH 30

void progress_format_duration(double s, char *buf, size_t len)
{
    long t = (long)(s + 0.5);
    if (s < 60)
        snprintf(buf, len, "%.1f s", s);
    else if (t < 3600)
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, len, "%ldh%02ldm", t / 3600, t % 3600 / 60);
}

void progress_eta(const progress_t *p, double now, char *buf, size_t len)
{
    char d[32];
    int left = p->timed - p->timed_done;
    if (left <= 0) {
        snprintf(buf, len, "eta 0 s");
        return;
    }
    if (p->timed_done == 0) {
        snprintf(buf, len, "eta ?");
        return;
    }
    double per = (now - p->t0) / p->timed_done;
    progress_format_duration(per * left, d, sizeof d);
    snprintf(buf, len, "eta %s", d);
}

static void draw_bar(progress_t *p)
{
    char bar[BAR_WIDTH + 1], eta[48], elapsed[32];
    double now = now_seconds();
    int filled = p->total > 0 ? p->done * BAR_WIDTH / p->total : BAR_WIDTH;
    for (int i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    progress_eta(p, now, eta, sizeof eta);
    progress_format_duration(now - p->t0, elapsed, sizeof elapsed);
    fprintf(p->out, "\r\033[K[%s] %d/%d  %s elapsed, %s", bar, p->done, p->total, elapsed, eta);
    fflush(p->out);
    p->bar_shown = 1;
}

/* On a tty the bar is there from the start, so that every finished line,
 * the first included, is written over a bar erased first. */
void progress_start(progress_t *p, FILE *out, int total, int timed)
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->tty = isatty(fileno(out));
    p->total = total;
    p->timed = timed;
    p->t0 = now_seconds();
    if (p->tty && total > 0)
        draw_bar(p);
}

static void erase_bar(progress_t *p)
{
    if (p->bar_shown)
        fputs("\r\033[K", p->out);
    p->bar_shown = 0;
}

void progress_done(progress_t *p, int took_time, const char *line)
{
    p->done++;
    p->timed_done += took_time != 0;
    if (p->tty) {
        erase_bar(p);
        fprintf(p->out, "[%d/%d] %s\n", p->done, p->total, line);
        draw_bar(p);
        return;
    }
    char eta[48];
    progress_eta(p, now_seconds(), eta, sizeof eta);
    fprintf(p->out, "[%d/%d] %s  (%s)\n", p->done, p->total, line, eta);
    fflush(p->out);
}

void progress_tick(progress_t *p)
{
    if (p->tty && p->done < p->total)
        draw_bar(p);
}

void progress_end(progress_t *p)
{
    if (p->tty) {
        erase_bar(p);
        fflush(p->out);
    }
}
