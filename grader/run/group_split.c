/* group_split.c - the output of a driver's list mode (driver --each LIST,
 * labs/common/harness.h) split back into one part per dataset at its marker
 * lines "cugrade-dataset-begin K", "-end K WALL_S", "-failed K WALL_S
 * STATUS" (a CUDA error that ended the dataset only), "-signal K WALL_S
 * SIGNO" (a crash of the student's code that ended the dataset only),
 * "-timeout K": a pure
 * function of the captured text, tested on its own (tests/unit/test_group.c). */
#include "run/group_split.h"
#include "util/util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The marker at out[at] (MARK); 0 if the line is none. */
static int parse_marker(const char *out, size_t len, size_t at, marker_t *m)
{
    size_t from = at + strlen(MARK);
    const char *nl = memchr(out + from, '\n', len - from);
    char line[80];
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
    const char *out;
    size_t len;
    group_part_t *parts;
    strbuf_t *text;  /* per dataset */
    int n, expect;   /* the dataset whose begin or end comes next */
    int inside;      /* dataset `expect` has begun */
    int timed;       /* the dataset the watchdog stopped, or -1 */
    size_t seg;      /* start of the text not yet given to a dataset */
} splitter_t;

/* Only the marker expected next counts; any other is the program's text. */
static int marker_fits(const splitter_t *s, const marker_t *m)
{
    if (m->kind == MARK_BEGIN)
        return !s->inside && m->k == s->expect && s->expect < s->n;
    if (m->kind == MARK_END)
        return s->inside && m->k == s->expect;
    return s->inside ? m->k == s->expect : s->expect > 0 && m->k == s->expect - 1;
}

/* Gives the text before the marker to its dataset and moves past it. */
static void take_marker(splitter_t *s, const marker_t *m)
{
    sb_appendn(&s->text[m->k], s->out + s->seg, m->at - s->seg);
    s->seg = m->next;
    if (m->kind == MARK_BEGIN) {
        s->inside = 1;
    } else if (m->kind == MARK_END) {
        s->parts[m->k].state = GROUP_ENDED;
        s->parts[m->k].wall_s = m->wall;
        s->parts[m->k].exit_code = m->status;
        s->parts[m->k].term_signal = m->signal;
        s->inside = 0;
        s->expect++;
    } else { /* the watchdog's; after an end marker of the same dataset, that one was forged */
        s->parts[m->k].state = GROUP_TIMED_OUT;
        s->parts[m->k].wall_s = 0;
        s->parts[m->k].exit_code = 0;
        s->parts[m->k].term_signal = 0;
        s->timed = m->k;
    }
}

/* After the last marker: the rest of the text, and the datasets not ended. */
static void finish_split(splitter_t *s, int cut)
{
    int last = s->timed >= 0 ? s->timed : s->inside ? s->expect : s->expect - 1;
    if (last >= 0 && (!cut || s->timed >= 0))
        sb_appendn(&s->text[last], s->out + s->seg, s->len - s->seg);
    if (s->timed >= 0)
        return;
    for (int k = s->expect; k < s->n; k++)
        s->parts[k].state = cut ? GROUP_LOST
                            : k == s->expect && s->inside ? GROUP_STOPPED : GROUP_NOT_BEGUN;
}

int group_split(const char *out, size_t len, int cut, group_part_t *parts, int n)
{
    memset(parts, 0, (size_t)n * sizeof *parts);
    strbuf_t *text = calloc((size_t)n, sizeof *text);
    splitter_t s = {.out = out ? out : "", .len = out ? len : 0, .parts = parts, .text = text,
                    .n = n, .timed = -1};
    for (size_t pos = 0; s.timed < 0 && pos < s.len;) {
        const char *hit = memmem(s.out + pos, s.len - pos, MARK, strlen(MARK));
        if (!hit)
            break;
        marker_t m;
        pos = (size_t)(hit - s.out) + 1;
        if (parse_marker(s.out, s.len, (size_t)(hit - s.out), &m) && marker_fits(&s, &m)) {
            take_marker(&s, &m);
            pos = m.next;
        }
    }
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
