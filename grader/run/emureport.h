/* emureport.h - what the CPU emulator wrote about one run (the file named by
 * CUGRADE_EMU_DIAG): findings "<severity>\t<kind>\t<message>" (severity
 * error, warning or info) and statistics "stat\t<key>\t<value>", one line
 * each, possibly several launches' worth. */
#ifndef CUGRADE_EMUREPORT_H
#define CUGRADE_EMUREPORT_H

typedef struct {
    char severity[16]; /* "error", "warning", "info" */
    char kind[40];     /* "race", "global-oob", "coalescing", ... */
    char *message;
} emu_finding_t;

typedef struct {
    char key[48];
    double value;      /* summed over every line with this key */
} emu_stat_t;

typedef struct {
    emu_finding_t *findings;
    int nfindings;
    emu_stat_t *stats;
    int nstats;
} emu_report_t;

/* Reads path; a missing file is an empty report (a run that found nothing
 * and launched no kernel). Malformed lines are skipped. Returns 0. */
int emu_report_read(const char *path, emu_report_t *out);
/* The sum of a statistic, 0 when absent. */
double emu_report_stat(const emu_report_t *r, const char *key);
void emu_report_free(emu_report_t *r);

#endif
