/* report_channel.c - what reading a run's report channel (run/emureport.h)
 * costs the grader when a program fills it (issue 37 item 4): LINES lines
 * written to a file, then read the way the grader reads them, timed in the
 * grader's own CPU seconds (getrusage: user and system).
 *
 *     report_channel LINES
 *
 * Three channels, one line each on stdout:
 *   distinct  LINES distinct "stat" keys: refused (past 4096)
 *   repeated  LINES "stat" lines over 4096 keys: every line read and summed
 *   findings  100,000 findings (the cap) of a failed run, through
 *             verdict_dataset (read, three of a kind shown, the rest counted)
 * as "NAME: N lines, S s of grader CPU (what it checked)". Exit 0 when every
 * result is what it must be (refused, sums, the verdict's text); 1 when one
 * is not (its line says which, on stderr); 2 on bad usage. */
#include "compare/verdict.h"
#include "run/emureport.h"
#include "util/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static char path[64];

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

static int bad(const char *what)
{
    fprintf(stderr, "report_channel: FAILED: %s\n", what);
    unlink(path);
    return 1;
}

/* The channel: n lines "stat\tkey_(i % keys)\t1" (keys 0: all distinct),
 * or n findings of one kind. 0, or -1 when it cannot be written. */
static int write_channel(long n, long keys, int findings)
{
    snprintf(path, sizeof path, "/tmp/cugrade-bench-report-XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return -1;
    for (long i = 0; i < n; i++) {
        if (findings)
            fprintf(f, "error\trace\tRace on shared tileA (element %ld)\n", i);
        else
            fprintf(f, "stat\tkey_%ld\t1\n", keys ? i % keys : i);
    }
    return fclose(f) == 0 ? 0 : -1;
}

static int distinct(long n)
{
    if (write_channel(n, 0, 0) != 0)
        return bad("cannot write the channel");
    emu_report_t r;
    double t0 = cpu_seconds();
    emu_report_read(path, &r);
    double spent = cpu_seconds() - t0;
    unlink(path);
    int ok = n > EMU_REPORT_MAX_STATS ? r.refused : !r.refused && r.nstats == n;
    emu_report_free(&r);
    if (!ok)
        return bad("distinct: the report is not what it must be (refused past 4096 keys)");
    printf("distinct: %ld lines, %.3f s of grader CPU (%s)\n", n, spent,
           n > EMU_REPORT_MAX_STATS ? "refused" : "accepted");
    return 0;
}

static int repeated(long n)
{
    long keys = n < EMU_REPORT_MAX_STATS ? n : EMU_REPORT_MAX_STATS;
    if (write_channel(n, keys, 0) != 0)
        return bad("cannot write the channel");
    emu_report_t r;
    double t0 = cpu_seconds();
    emu_report_read(path, &r);
    double spent = cpu_seconds() - t0;
    unlink(path);
    double key0 = emu_report_stat(&r, "key_0"), want = (double)((n + keys - 1) / keys);
    int ok = !r.refused && r.nstats == keys && fabs(key0 - want) <= 0.5;
    emu_report_free(&r);
    if (!ok)
        return bad("repeated: not every line was read and summed");
    printf("repeated: %ld lines over %ld keys, %.3f s of grader CPU (every line summed)\n", n,
           keys, spent);
    return 0;
}

static int findings(void)
{
    long n = EMU_REPORT_MAX_FINDINGS;
    if (write_channel(n, 0, 1) != 0)
        return bad("cannot write the channel");
    ds_job_t job;
    memset(&job, 0, sizeof job);
    ds_run_t run;
    memset(&run, 0, sizeof run);
    run.job = &job;
    run.started = 1;
    snprintf(run.diag_path, sizeof run.diag_path, "%s", path);
    run.result = (run_result_t){.started = 1, .exited = 1, .exit_code = 1, .output = strdup("")};
    strbuf_t msg = {0};
    char failure[64], counted[64];
    double t0 = cpu_seconds();
    verdict_dataset(&run, NULL, BACKEND_EMU, &msg, failure, sizeof failure);
    double spent = cpu_seconds() - t0;
    unlink(path);
    snprintf(counted, sizeof counted, "(%ld more race findings not shown)", n - 3);
    int ok = strstr(sb_str(&msg), counted) != NULL;
    sb_free(&msg);
    free(run.result.output);
    if (!ok)
        return bad("findings: the verdict does not show three and count the rest");
    printf("findings: %ld lines, %.3f s of grader CPU (a failed run's verdict, 3 shown)\n", n,
           spent);
    return 0;
}

int main(int argc, char **argv)
{
    char *end;
    long n = argc == 2 ? strtol(argv[1], &end, 10) : 0;
    if (argc != 2 || *end || n < 1 || n > 100000000) {
        fprintf(stderr, "usage: report_channel LINES (1 to 100000000)\n");
        return 2;
    }
    if (distinct(n) != 0 || repeated(n) != 0 || findings() != 0)
        return 1;
    return 0;
}
