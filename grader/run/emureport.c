/* emureport.c - the emulator's lines in a run's report channel (its
 * findings and statistics; other lines of the channel are skipped). */
#include "run/emureport.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add_stat(emu_report_t *r, const char *key, double value)
{
    for (int i = 0; i < r->nstats; i++) {
        if (strcmp(r->stats[i].key, key) == 0) {
            r->stats[i].value += value;
            return;
        }
    }
    r->stats = realloc(r->stats, (size_t)(r->nstats + 1) * sizeof *r->stats);
    snprintf(r->stats[r->nstats].key, sizeof r->stats[0].key, "%s", key);
    r->stats[r->nstats++].value = value;
}

static void add_finding(emu_report_t *r, const char *severity, const char *kind, const char *msg)
{
    r->findings = realloc(r->findings, (size_t)(r->nfindings + 1) * sizeof *r->findings);
    emu_finding_t *f = &r->findings[r->nfindings++];
    snprintf(f->severity, sizeof f->severity, "%s", severity);
    snprintf(f->kind, sizeof f->kind, "%s", kind);
    f->message = strdup(msg);
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
            add_stat(r, second, v);
    } else if (is_finding(line) && *second) {
        add_finding(r, line, second, third);
    } /* else another line of the report channel (wbtime, a result) */
}

int emu_report_read(const char *path, emu_report_t *out)
{
    memset(out, 0, sizeof *out);
    char *text = read_file(path, NULL, NULL, 0);
    if (!text)
        return 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save))
        parse_line(out, line);
    free(text);
    return 0;
}

double emu_report_stat(const emu_report_t *r, const char *key)
{
    for (int i = 0; i < r->nstats; i++)
        if (strcmp(r->stats[i].key, key) == 0)
            return r->stats[i].value;
    return 0;
}

void emu_report_free(emu_report_t *r)
{
    for (int i = 0; i < r->nfindings; i++)
        free(r->findings[i].message);
    free(r->findings);
    free(r->stats);
    memset(r, 0, sizeof *r);
}
