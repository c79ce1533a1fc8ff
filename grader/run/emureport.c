/* emureport.c - the emulator's lines in a run's report channel (its
 * findings and statistics; other lines of the channel are skipped): read in
 * time linear in the lines (a hash index of the statistics, arrays doubled
 * as they grow), refused past the caps of emureport.h. */
#include "run/emureport.h"
#include "util/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* p, or the end of the grader when it is NULL (out of memory). */
static void *or_die(void *p)
{
    if (!p) {
        fputs("cugrade: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* Room for at least need elements: the capacity doubled (or need). */
static void *grown(void *p, int *cap, int need, size_t size)
{
    int n = *cap > 0 ? 2 * *cap : 16;
    if (n < need)
        n = need;
    *cap = n;
    return or_die(realloc(p, (size_t)n * size));
}

/* The position of key in r->stats, or -1: through the index, or by a linear
 * search where the stats were set by hand (no index). */
static int stat_position(const emu_report_t *r, const char *key)
{
    if (strmap_count(&r->stat_index) == (size_t)r->nstats) {
        const long *at = strmap_get(&r->stat_index, key);
        return at ? (int)*at : -1;
    }
    for (int i = 0; i < r->nstats; i++)
        if (strcmp(r->stats[i].key, key) == 0)
            return i;
    return -1;
}

/* The index of stats set by hand, so that adding to them stays O(1). */
static void index_stats(emu_report_t *r)
{
    for (int i = (int)strmap_count(&r->stat_index); i < r->nstats; i++)
        *(long *)or_die(strmap_put(&r->stat_index, r->stats[i].key, NULL)) = i;
}

int emu_report_add_stat(emu_report_t *r, const char *key, double value)
{
    if (r->refused)
        return -1;
    emu_stat_t s;
    snprintf(s.key, sizeof s.key, "%s", key);
    s.value = value;
    index_stats(r);
    int added;
    long *at = or_die(strmap_put(&r->stat_index, s.key, &added));
    if (!added) {
        r->stats[*at].value += value;
        return 0;
    }
    if (r->nstats == EMU_REPORT_MAX_STATS) {
        char why[sizeof r->refused_why];
        snprintf(why, sizeof why, "the program wrote more than %d distinct statistics to the "
                 "grader's report channel (a program may not write there)", EMU_REPORT_MAX_STATS);
        emu_report_refuse(r, why);
        return -1;
    }
    if (r->nstats >= r->stats_cap)
        r->stats = grown(r->stats, &r->stats_cap, r->nstats + 1, sizeof *r->stats);
    *at = r->nstats;
    r->stats[r->nstats++] = s;
    return 0;
}

int emu_report_add_finding(emu_report_t *r, const char *severity, const char *kind,
                           const char *message)
{
    if (r->refused)
        return -1;
    if (r->nfindings == EMU_REPORT_MAX_FINDINGS) {
        char why[sizeof r->refused_why];
        snprintf(why, sizeof why, "the program wrote more than %d findings to the grader's "
                 "report channel (a program may not write there; the emulator writes at most 11 "
                 "of a kind per kernel launch)", EMU_REPORT_MAX_FINDINGS);
        emu_report_refuse(r, why);
        return -1;
    }
    if (r->nfindings >= r->findings_cap)
        r->findings = grown(r->findings, &r->findings_cap, r->nfindings + 1,
                            sizeof *r->findings);
    emu_finding_t *f = &r->findings[r->nfindings++];
    snprintf(f->severity, sizeof f->severity, "%s", severity);
    snprintf(f->kind, sizeof f->kind, "%s", kind);
    f->message = or_die(strdup(message));
    return 0;
}

void emu_report_refuse(emu_report_t *r, const char *why)
{
    emu_report_free(r);
    r->refused = 1;
    snprintf(r->refused_why, sizeof r->refused_why, "%s", why);
}

void emu_report_copy(emu_report_t *dst, const emu_report_t *src)
{
    memset(dst, 0, sizeof *dst);
    if (src->refused) {
        emu_report_refuse(dst, src->refused_why);
        return;
    }
    for (int i = 0; i < src->nfindings; i++)
        emu_report_add_finding(dst, src->findings[i].severity, src->findings[i].kind,
                               src->findings[i].message);
    for (int i = 0; i < src->nstats; i++)
        emu_report_add_stat(dst, src->stats[i].key, src->stats[i].value);
}

static int is_finding(const char *label)
{
    return strcmp(label, "error") == 0 || strcmp(label, "warning") == 0 ||
           strcmp(label, "info") == 0;
}

/* One line "LABEL\tKIND\tTEXT" (the emulator writes one line each). */
static void parse_line(emu_report_t *r, char *line)
{
    char *second = strchr(line, '\t');
    char *third = second ? strchr(second + 1, '\t') : NULL;
    if (!third)
        return;
    *second++ = '\0';
    *third++ = '\0';
    if (strcmp(line, "stat") == 0) {
        char *end;
        double v = strtod(third, &end);
        if (end != third)
            emu_report_add_stat(r, second, v);
    } else if (is_finding(line) && *second) {
        emu_report_add_finding(r, line, second, third);
    } /* else another line of the report channel (wbtime, a result) */
}

int emu_report_read(const char *path, emu_report_t *out)
{
    memset(out, 0, sizeof *out);
    char *text = read_file(path, NULL, NULL, 0);
    if (!text)
        return 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line && !out->refused;
         line = strtok_r(NULL, "\n", &save))
        parse_line(out, line);
    free(text);
    return 0;
}

double emu_report_stat(const emu_report_t *r, const char *key)
{
    char kept[sizeof r->stats[0].key]; /* as emu_report_add_stat keeps it */
    snprintf(kept, sizeof kept, "%s", key);
    int at = stat_position(r, kept);
    return at >= 0 ? r->stats[at].value : 0;
}

int emu_report_has_stat(const emu_report_t *r, const char *key)
{
    char kept[sizeof r->stats[0].key];
    snprintf(kept, sizeof kept, "%s", key);
    return stat_position(r, kept) >= 0;
}

int emu_report_no_shared_memory(const emu_report_t *r)
{
    if (!(emu_report_stat(r, "threads") > 0) || !(emu_report_stat(r, "global_load_bytes") > 0))
        return 0; /* no kernel, or one that loaded nothing (a tiled loop of 0 phases) */
    if (emu_report_has_stat(r, "shared_requests")) /* the executor's */
        return emu_report_stat(r, "shared_requests") == 0;
    return emu_report_has_stat(r, "shared_load_bytes") && emu_report_has_stat(r, "shared_store_bytes") &&
           emu_report_stat(r, "shared_load_bytes") == 0 && emu_report_stat(r, "shared_store_bytes") == 0;
}

void emu_report_free(emu_report_t *r)
{
    for (int i = 0; i < r->nfindings; i++)
        free(r->findings[i].message);
    free(r->findings);
    free(r->stats);
    strmap_free(&r->stat_index);
    memset(r, 0, sizeof *r);
}

int emu_report_block_side(double threads, double blocks)
{
    if (!(threads > 0) || !(blocks > 0))
        return 0;
    double per_block = threads / blocks;
    int t = (int)lround(sqrt(per_block));
    return t >= 2 && t <= 32 && (double)t * t == per_block ? t : 0;
}
