/* emureport.h - what the CPU emulator wrote about one run (the file named by
 * CUGRADE_EMU_DIAG): findings "<severity>\t<kind>\t<message>" (severity
 * error, warning or info) and statistics "stat\t<key>\t<value>", one line
 * each, possibly several launches' worth.
 *
 * The channel is a file a hostile program may write too (docs/security.md,
 * "The report channel"), so reading it costs time linear in its lines, and
 * a report past what the emulator ever writes is refused: more than
 * EMU_REPORT_MAX_STATS distinct statistics (the emulator writes a dozen:
 * emu/src/check_core.cpp, traffic.cpp) or EMU_REPORT_MAX_FINDINGS findings
 * (the emulator writes at most kDiagPerKind + 1 of a kind per launch:
 * emu/src/diag.cpp). A refused report keeps no finding or statistic, only
 * why; its callers charge that to the submission (score/checks.h,
 * compare/verdict.c). */
#ifndef CUGRADE_EMUREPORT_H
#define CUGRADE_EMUREPORT_H

#include "util/strmap.h"

#define EMU_REPORT_MAX_STATS 4096      /* distinct statistics in one report */
#define EMU_REPORT_MAX_FINDINGS 100000 /* findings in one report */

typedef struct {
    char severity[16]; /* "error", "warning", "info" */
    char kind[40];     /* "race", "global-oob", "coalescing", ... */
    char *message;
} emu_finding_t;

typedef struct {
    char key[48];
    double value;      /* summed over every line with this key */
} emu_stat_t;

/* Zero-initialised is an empty report. Add to it with emu_report_add_stat
 * and emu_report_add_finding (they keep the index and the caps); stats set
 * by hand (tests) are still found, by a linear search. */
typedef struct {
    emu_finding_t *findings;
    int nfindings, findings_cap;
    emu_stat_t *stats;
    int nstats, stats_cap;
    strmap_t stat_index;  /* key -> its position in stats */
    int refused;          /* past a cap: nothing of it is trusted */
    char refused_why[192];/* why, for the student ("the program wrote more than ...") */
} emu_report_t;

/* Reads path; a missing file is an empty report (a run that found nothing
 * and launched no kernel). Malformed lines are skipped. Past a cap it stops
 * reading and the report is refused. Returns 0. */
int emu_report_read(const char *path, emu_report_t *out);
/* Adds value to the statistic key (its first 47 characters), O(1). 0, or -1
 * when the report is (now) refused: a key past EMU_REPORT_MAX_STATS. */
int emu_report_add_stat(emu_report_t *r, const char *key, double value);
/* Appends a finding (amortised O(1)). 0, or -1 when the report is (now)
 * refused: a finding past EMU_REPORT_MAX_FINDINGS. */
int emu_report_add_finding(emu_report_t *r, const char *severity, const char *kind,
                           const char *message);
/* Refuses the report: its findings and statistics go, why stays. */
void emu_report_refuse(emu_report_t *r, const char *why);
/* dst = an independent copy of src (dst is overwritten, not freed). */
void emu_report_copy(emu_report_t *dst, const emu_report_t *src);
/* The sum of a statistic, 0 when absent; O(1). */
double emu_report_stat(const emu_report_t *r, const char *key);
/* Whether the report has the statistic at all (a 0 that was counted). */
int emu_report_has_stat(const emu_report_t *r, const char *key);
/* 1 when a kernel ran and the statistics show it touched no shared memory
 * (the executor's shared_requests, the emulator's shared load and store
 * bytes) though it loaded from global memory; 0 when it did, loaded nothing
 * (a tiled loop of no phase) or nothing says (no checks ran). */
int emu_report_no_shared_memory(const emu_report_t *r);
void emu_report_free(emu_report_t *r);
/* The side T of square blocks of T x T threads (2 to 32: a tiled kernel's
 * TILE_WIDTH) from the statistics "threads" and "blocks" of one report or
 * summed over several; 0 when no kernel ran with them, the blocks are not
 * square, or the launches' blocks differ. */
int emu_report_block_side(double threads, double blocks);

#endif
