/* gpu_holds.c - a batch's GPU queues' logs read back (gpu_holds.h). */
#include "batch/gpu_holds.h"
#include "util/util.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double req, got, rel;
    int alone;
    char label[64];
} hold_t;

typedef struct {
    double a, b;
} span_t;

static int parse_hold(const char *line, hold_t *h)
{
    char use;
    int pid;
    if (sscanf(line, "%lf %lf %lf %c %d %63s", &h->req, &h->got, &h->rel, &use, &pid, h->label) != 6 ||
        (use != 'S' && use != 'X') || !(h->req <= h->got && h->got <= h->rel))
        return -1;
    h->alone = use == 'X';
    return 0;
}

static hold_t *read_log(const char *path, int *n)
{
    *n = 0;
    char *text = read_file(path, NULL, NULL, 0);
    if (!text)
        return NULL;
    int cap = 256;
    hold_t *holds = malloc((size_t)cap * sizeof *holds);
    for (char *save, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (*n == cap)
            holds = realloc(holds, (size_t)(cap *= 2) * sizeof *holds);
        if (parse_hold(line, &holds[*n]) == 0)
            (*n)++;
    }
    free(text);
    return holds;
}

static int by_start(const void *x, const void *y)
{
    double a = ((const span_t *)x)->a, b = ((const span_t *)y)->a;
    return (a > b) - (a < b);
}

/* Merges spans[0..n) in place into disjoint ones, sorted; returns how many. */
static int merge(span_t *s, int n)
{
    qsort(s, (size_t)n, sizeof *s, by_start);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && s[i].a <= s[m - 1].b) {
            if (s[i].b > s[m - 1].b)
                s[m - 1].b = s[i].b;
        } else {
            s[m++] = s[i];
        }
    }
    return m;
}

static double length(const span_t *s, int n)
{
    double t = 0;
    for (int i = 0; i < n; i++)
        t += s[i].b - s[i].a;
    return t;
}

/* How much of [a, b] the disjoint spans cover. */
static double covered(const span_t *s, int n, double a, double b)
{
    double t = 0;
    for (int i = 0; i < n; i++) {
        double lo = s[i].a > a ? s[i].a : a, hi = s[i].b < b ? s[i].b : b;
        if (hi > lo)
            t += hi - lo;
    }
    return t;
}

static void name_longest(gpu_queue_use_t *u, const hold_t *h)
{
    double secs = h->rel - h->got;
    int at = u->nnamed;
    while (at > 0 && u->longest[at - 1].seconds < secs)
        at--;
    if (at == GPU_HOLDS_MAX_NAMED)
        return;
    int last = u->nnamed < GPU_HOLDS_MAX_NAMED ? u->nnamed : GPU_HOLDS_MAX_NAMED - 1;
    memmove(&u->longest[at + 1], &u->longest[at], (size_t)(last - at) * sizeof *u->longest);
    snprintf(u->longest[at].label, sizeof u->longest[at].label, "%s", h->label);
    u->longest[at].seconds = secs;
    if (u->nnamed < GPU_HOLDS_MAX_NAMED)
        u->nnamed++;
}

static void summarize(const hold_t *h, int n, gpu_queue_use_t *u)
{
    span_t *all = malloc((size_t)n * sizeof *all), *longs = malloc((size_t)n * sizeof *longs);
    int nlong = 0;
    double first = h[0].req, last = h[0].rel;
    for (int i = 0; i < n; i++) {
        first = h[i].req < first ? h[i].req : first;
        last = h[i].rel > last ? h[i].rel : last;
        all[i] = (span_t){h[i].got, h[i].rel};
        if (h[i].alone) {
            u->alone++;
            u->alone_s += h[i].rel - h[i].got;
            u->waited_s += h[i].got - h[i].req;
        } else {
            u->shared++;
            if (h[i].rel - h[i].got > GPU_HOLD_LONG_S) {
                longs[nlong++] = all[i];
                name_longest(u, &h[i]);
            }
        }
    }
    u->nlong = nlong;
    u->span_s = last - first;
    u->busy_s = length(all, merge(all, n));
    int m = merge(longs, nlong);
    for (int i = 0; i < n; i++)
        if (h[i].alone)
            u->behind_long_s += covered(longs, m, h[i].req, h[i].got);
    free(all);
    free(longs);
}

void gpu_holds_read(const char *queue_dir, gpu_holds_t *out)
{
    memset(out, 0, sizeof *out);
    for (int gpu = 0; gpu < GPU_HOLDS_MAX_GPUS; gpu++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%.4000s/gpu%d.holds", queue_dir, gpu);
        int n;
        hold_t *holds = read_log(path, &n);
        if (n > 0) {
            gpu_queue_use_t *u = &out->gpus[out->n++];
            u->gpu = gpu;
            summarize(holds, n, u);
        }
        free(holds);
    }
}

char *gpu_holds_text(const gpu_holds_t *h)
{
    if (h->n == 0)
        return NULL;
    strbuf_t sb = {0};
    for (int i = 0; i < h->n; i++) {
        const gpu_queue_use_t *u = &h->gpus[i];
        double span = u->span_s > 0 ? u->span_s : 1;
        sb_appendf(&sb, "GPU %d: %d holds (%d shared, %d alone) over %.1f s; held alone %.1f s "
                   "(%.0f%%), by anyone %.1f s (%.0f%%); timed runs waited %.1f s",
                   u->gpu, u->shared + u->alone, u->shared, u->alone, u->span_s, u->alone_s,
                   100 * u->alone_s / span, u->busy_s, 100 * u->busy_s / span, u->waited_s);
        if (u->nlong > 0) {
            sb_appendf(&sb, ", %.1f s of it while one of %d shared holds longer than %g s was on "
                       "(longest:", u->behind_long_s, u->nlong, GPU_HOLD_LONG_S);
            for (int k = 0; k < u->nnamed; k++)
                sb_appendf(&sb, "%s %s %.1f s", k ? "," : "", u->longest[k].label,
                           u->longest[k].seconds);
            sb_append(&sb, ")");
        }
        sb_append(&sb, "\n");
    }
    return sb_detach(&sb);
}

json_object *gpu_holds_json(const gpu_holds_t *h)
{
    if (h->n == 0)
        return NULL;
    json_object *list = json_object_new_array();
    for (int i = 0; i < h->n; i++) {
        const gpu_queue_use_t *u = &h->gpus[i];
        json_object *o = json_object_new_object(), *names = json_object_new_array();
        json_object_object_add(o, "gpu", json_object_new_int(u->gpu));
        json_object_object_add(o, "shared_holds", json_object_new_int(u->shared));
        json_object_object_add(o, "alone_holds", json_object_new_int(u->alone));
        json_object_object_add(o, "span_s", json_object_new_double(u->span_s));
        json_object_object_add(o, "alone_s", json_object_new_double(u->alone_s));
        json_object_object_add(o, "busy_s", json_object_new_double(u->busy_s));
        json_object_object_add(o, "timed_waited_s", json_object_new_double(u->waited_s));
        json_object_object_add(o, "behind_long_s", json_object_new_double(u->behind_long_s));
        json_object_object_add(o, "long_holds", json_object_new_int(u->nlong));
        for (int k = 0; k < u->nnamed; k++) {
            json_object *one = json_object_new_object();
            json_object_object_add(one, "id", json_object_new_string(u->longest[k].label));
            json_object_object_add(one, "seconds", json_object_new_double(u->longest[k].seconds));
            json_object_array_add(names, one);
        }
        json_object_object_add(o, "longest", names);
        json_object_array_add(list, o);
    }
    return list;
}
