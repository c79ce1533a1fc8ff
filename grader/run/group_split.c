/* group_split.c - the output of a driver's list mode (driver --each LIST,
 * labs/common/harness.h) split back into one part per dataset at its marker
 * lines "cugrade-dataset-begin K", "-end K WALL_S", "-failed K WALL_S
 * STATUS" (a CUDA error that ended the dataset only), "-signal K WALL_S
 * SIGNO" (a crash of the student's code that ended the dataset only),
 * "-timeout K": a pure
 * function of the captured text, tested on its own (tests/unit/test_group.c).
 * The same scan, fed the text as it grows, is a watch (group_watch_t): the
 * datasets' states so far, for the cost of the new bytes only, read from a
 * report channel as the process writes it (group_watch_read). */
#include "run/group_split.h"
#include "util/util.h"

#include <ctype.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MARK "\ncugrade-dataset-" /* a marker line of the list mode (harness.h) */

enum { MARK_BEGIN, MARK_END, MARK_TIMEOUT };

typedef struct {
    int kind, k, status; /* status: of a "failed" end (MARK_END), else 0 */
    int signal;          /* of a "signal" end (MARK_END), else 0 */
    double wall;
    size_t at, next; /* where its "\n" starts, and the byte after its line */
} marker_t;

/* "K" (digits only) at s; *rest after it. */
static int parse_index(const char *s, int *k, const char **rest)
{
    if (!isdigit((unsigned char)*s))
        return 0;
    char *end;
    long v = strtol(s, &end, 10);
    *k = (int)v;
    *rest = end;
    return v <= 1000000;
}

/* " WALL_S" (seconds, finite, digits first); *rest after it. */
static int parse_wall_at(const char *s, double *wall, const char **rest)
{
    char *end;
    if (s[0] != ' ' || !isdigit((unsigned char)s[1]))
        return 0;
    *wall = strtod(s + 1, &end);
    *rest = end;
    return isfinite(*wall);
}

/* " WALL_S" and nothing after it. */
static int parse_wall(const char *s, double *wall)
{
    const char *rest;
    return parse_wall_at(s, wall, &rest) && !*rest;
}

/* " WALL_S CODE" (CODE 1..max: an exit status, a signal) and nothing after it. */
static int parse_wall_code(const char *s, double *wall, int *code, int max)
{
    const char *rest;
    if (!parse_wall_at(s, wall, &rest) || rest[0] != ' ' || !parse_index(rest + 1, code, &rest))
        return 0;
    return !*rest && *code >= 1 && *code <= max;
}

/* The marker at out[at] (MARK); 0 if the line is none, -1 if it has not
 * ended yet and could still be one (no newline, short, no NUL byte). */
static int parse_marker(const char *out, size_t len, size_t at, marker_t *m)
{
    size_t from = at + strlen(MARK);
    const char *nl = memchr(out + from, '\n', len - from);
    char line[80];
    if (!nl && len - from < sizeof line && !memchr(out + from, '\0', len - from))
        return -1;
    size_t n = nl ? (size_t)(nl - out) - from : sizeof line;
    if (n >= sizeof line || memchr(out + from, '\0', n))
        return 0;
    memcpy(line, out + from, n);
    line[n] = '\0';
    const char *rest;
    m->wall = 0;
    m->status = 0;
    m->signal = 0;
    if (strncmp(line, "begin ", 6) == 0 && parse_index(line + 6, &m->k, &rest) && !*rest)
        m->kind = MARK_BEGIN;
    else if (strncmp(line, "timeout ", 8) == 0 && parse_index(line + 8, &m->k, &rest) && !*rest)
        m->kind = MARK_TIMEOUT;
    else if (strncmp(line, "end ", 4) == 0 && parse_index(line + 4, &m->k, &rest) &&
             parse_wall(rest, &m->wall))
        m->kind = MARK_END;
    else if (strncmp(line, "failed ", 7) == 0 && parse_index(line + 7, &m->k, &rest) &&
             parse_wall_code(rest, &m->wall, &m->status, 255))
        m->kind = MARK_END;
    else if (strncmp(line, "signal ", 7) == 0 && parse_index(line + 7, &m->k, &rest) &&
             parse_wall_code(rest, &m->wall, &m->signal, 64))
        m->kind = MARK_END;
    else
        return 0;
    m->at = at;
    m->next = (size_t)(nl - out) + 1;
    return 1;
}

typedef struct {
    group_watch_t *w; /* the datasets' states */
    const char *out;
    size_t len;
    strbuf_t *text;  /* per dataset; NULL for a watch */
    size_t seg;      /* start of the text not yet given to a dataset */
} splitter_t;

/* Only the marker expected next counts; any other is the program's text. */
static int marker_fits(const group_watch_t *w, const marker_t *m)
{
    if (m->kind == MARK_BEGIN)
        return !w->inside && m->k == w->expect && w->expect < w->n;
    if (m->kind == MARK_END)
        return w->inside && m->k == w->expect;
    return w->inside ? m->k == w->expect : w->expect > 0 && m->k == w->expect - 1;
}

/* Gives the text before the marker to its dataset and moves past it. */
static void take_marker(splitter_t *s, const marker_t *m)
{
    group_watch_t *w = s->w;
    if (s->text)
        sb_appendn(&s->text[m->k], s->out + s->seg, m->at - s->seg);
    s->seg = m->next;
    group_part_t *p = &w->parts[m->k];
    if (m->kind == MARK_BEGIN) {
        w->inside = 1;
    } else if (m->kind == MARK_END) {
        p->state = GROUP_ENDED;
        p->wall_s = m->wall;
        p->exit_code = m->status;
        p->term_signal = m->signal;
        w->inside = 0;
        w->expect++;
    } else { /* the watchdog's; after an end marker of the same dataset, that one was forged */
        p->state = GROUP_TIMED_OUT;
        p->wall_s = 0;
        p->exit_code = 0;
        p->term_signal = 0;
        w->timed = m->k;
    }
}

/* Takes the markers of s->out; returns where the scan goes on when more text
 * comes: at a marker whose line has not ended, else past every byte that
 * cannot begin one (final: the text is whole, an unended line is none). */
static size_t scan(splitter_t *s, int final)
{
    const size_t mark = strlen(MARK);
    size_t pos = 0;
    while (s->w->timed < 0 && pos < s->len) {
        const char *hit = memmem(s->out + pos, s->len - pos, MARK, mark);
        if (!hit)
            break;
        marker_t m;
        size_t at = (size_t)(hit - s->out);
        int found = parse_marker(s->out, s->len, at, &m);
        if (found < 0 && !final)
            return at;
        pos = at + 1;
        if (found > 0 && marker_fits(s->w, &m)) {
            take_marker(s, &m);
            pos = m.next;
        }
    }
    size_t tail = s->len >= mark ? s->len - (mark - 1) : 0; /* may begin a MARK */
    if (s->w->timed >= 0 || pos > s->len)
        return s->len;
    return pos > tail ? pos : tail;
}

/* After the last marker: the rest of the text, and the datasets not ended. */
static void finish_split(splitter_t *s, int cut)
{
    const group_watch_t *w = s->w;
    int last = w->timed >= 0 ? w->timed : w->inside ? w->expect : w->expect - 1;
    if (last >= 0 && (!cut || w->timed >= 0))
        sb_appendn(&s->text[last], s->out + s->seg, s->len - s->seg);
    if (w->timed >= 0)
        return;
    for (int k = w->expect; k < w->n; k++)
        w->parts[k].state = cut ? GROUP_LOST
                            : k == w->expect && w->inside ? GROUP_STOPPED : GROUP_NOT_BEGUN;
}

int group_split(const char *out, size_t len, int cut, group_part_t *parts, int n)
{
    memset(parts, 0, (size_t)n * sizeof *parts);
    strbuf_t *text = calloc((size_t)n, sizeof *text);
    group_watch_t w = {.n = n, .parts = parts, .timed = -1};
    splitter_t s = {.w = &w, .out = out ? out : "", .len = out ? len : 0, .text = text};
    scan(&s, 1);
    finish_split(&s, cut);
    int ended = 0;
    for (int k = 0; k < n; k++) {
        parts[k].output_len = text[k].len;
        parts[k].output = sb_detach(&text[k]);
        ended += parts[k].state == GROUP_ENDED;
    }
    free(text);
    return ended;
}

void group_parts_free(group_part_t *parts, int n)
{
    for (int k = 0; parts && k < n; k++) {
        free(parts[k].output);
        parts[k].output = NULL;
    }
}

/* ---- the watch: the same scan over a text that grows ---- */

int group_watch_init(group_watch_t *w, int n)
{
    *w = (group_watch_t){.n = n, .parts = calloc((size_t)n + 1, sizeof *w->parts), .timed = -1};
    return w->parts ? 0 : -1;
}

void group_watch_restart(group_watch_t *w)
{
    memset(w->parts, 0, (size_t)w->n * sizeof *w->parts);
    w->expect = w->inside = 0;
    w->timed = -1;
    w->pending.len = 0;
    w->taken = 0;
}

void group_watch_feed(group_watch_t *w, const char *data, size_t len)
{
    w->taken += len;
    if (w->timed >= 0 || len == 0)
        return; /* past the watchdog's marker nothing changes */
    sb_appendn(&w->pending, data, len);
    splitter_t s = {.w = w, .out = w->pending.buf, .len = w->pending.len};
    size_t keep_from = scan(&s, 0);
    memmove(w->pending.buf, w->pending.buf + keep_from, w->pending.len - keep_from);
    w->pending.len -= keep_from;
    w->pending.buf[w->pending.len] = '\0';
}

group_state_t group_watch_state(const group_watch_t *w, int k)
{
    if (w->parts[k].state != GROUP_NOT_BEGUN || w->timed >= 0)
        return w->parts[k].state;
    return k == w->expect && w->inside ? GROUP_STOPPED : GROUP_NOT_BEGUN;
}

/* Feeds the file's bytes from w->taken to its end, a chunk at a time (on
 * the heap: the watch runs on a thread of its own). */
static void feed_from(group_watch_t *w, int fd)
{
    enum { CHUNK = 65536 };
    char *chunk = malloc(CHUNK);
    for (ssize_t got; chunk && (got = pread(fd, chunk, CHUNK, (off_t)w->taken)) > 0;)
        group_watch_feed(w, chunk, (size_t)got);
    free(chunk);
}

void group_watch_read(group_watch_t *w, const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            close(fd);
        group_watch_restart(w);
        return;
    }
    if ((unsigned long long)st.st_dev != w->dev || (unsigned long long)st.st_ino != w->ino ||
        (unsigned long long)st.st_size < w->taken) {
        group_watch_restart(w);
        w->dev = (unsigned long long)st.st_dev;
        w->ino = (unsigned long long)st.st_ino;
    }
    feed_from(w, fd);
    close(fd);
}

void group_watch_free(group_watch_t *w)
{
    free(w->parts);
    sb_free(&w->pending);
    memset(w, 0, sizeof *w);
}
