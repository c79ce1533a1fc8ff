/* test_sanitizer.c - compute-sanitizer reports (captured from the lab 3
 * corpus on an H200: tests/fixtures/sanitizer) turned into cugrade findings:
 * one per distinct bug, with the source line, mapped to the rubric checks. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "score/checks.h"
#include "run/sanitizer.h"
#include "util/util.h"

static char *fixture(const char *name)
{
    char path[256], err[256];
    snprintf(path, sizeof path, "tests/fixtures/sanitizer/%s", name);
    char *text = read_file(path, NULL, err, sizeof err);
    cr_assert_not_null(text, "%s", err);
    return text;
}

Test(sanitizer, racecheck_gives_one_race_per_pair_of_lines)
{
    char *text = fixture("racecheck.txt");
    emu_report_t r;
    memset(&r, 0, sizeof r);
    cr_assert_eq(sanitizer_parse("racecheck", text, &r), 2);
    cr_assert_str_eq(r.findings[0].kind, "race");
    cr_assert_str_eq(r.findings[0].message,
                     "compute-sanitizer racecheck on the GPU: a shared-memory race between the access "
                     "at missing_second_barrier.cu:44 and the one at missing_second_barrier.cu:47 (no "
                     "__syncthreads() between them)");
    cr_assert(strstr(r.findings[1].message, "missing_second_barrier.cu:43"), "%s", r.findings[1].message);
    cr_assert_eq(check_for_finding(r.findings[0].kind), CHECK_RACE_FREE);
    emu_report_free(&r);
    free(text);
}

Test(sanitizer, memcheck_gives_one_out_of_bounds_finding_per_source_line)
{
    char *text = fixture("memcheck.txt");
    emu_report_t r;
    memset(&r, 0, sizeof r);
    cr_assert_eq(sanitizer_parse("memcheck", text, &r), 1, "three threads, one line: one finding");
    cr_assert_str_eq(r.findings[0].kind, "global-oob");
    cr_assert_str_eq(r.findings[0].message,
                     "compute-sanitizer memcheck on the GPU: Invalid __global__ read of size 4 bytes at "
                     "unguarded_loads.cu:43 by thread (0,8,0) in block (2,2,0): is 1 bytes after the "
                     "nearest allocation at 0x7fba4e800000 of size 5,920 bytes");
    cr_assert_eq(check_for_finding(r.findings[0].kind), CHECK_MEMORY_SAFE);
    emu_report_free(&r);
    free(text);
}

/* The process's CPU seconds, user and system. */
static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

/* One memcheck report as the tool prints it, at forged.cu:LINE by thread X. */
#define ACCESS_REPORT(LINE, X)                                                                     \
    "========= Invalid __global__ read of size 4 bytes\n"                                         \
    "=========     at k()+0x290 in forged.cu:" LINE "\n"                                          \
    "=========     by thread (" X ",0,0) in block (0,0,0)\n"                                      \
    "=========     Access to 0x7fba4e801720 is out of bounds\n"                                   \
    "========= \n"

/* The program shares the tool's output, so it can print reports of its own:
 * 90,000 distinct source lines, each reported twice, cost time linear in
 * them (telling a repeat searched every finding before: about 4e9 searches
 * here), and still give one finding per line. */
Test(sanitizer, many_reports_are_parsed_in_linear_time, .timeout = 120)
{
    enum { LINES = 90000 };
    strbuf_t out = {0};
    for (int copy = 0; copy < 2; copy++)
        for (int i = 0; i < LINES; i++)
            sb_appendf(&out, ACCESS_REPORT("%d", "%d"), i, copy);
    emu_report_t r;
    memset(&r, 0, sizeof r);
    double t0 = cpu_seconds();
    int added = sanitizer_parse("memcheck", sb_str(&out), &r);
    double spent = cpu_seconds() - t0;
    cr_assert_eq(added, LINES, "one finding per source line");
    cr_assert(!r.refused);
    cr_assert(strstr(r.findings[LINES - 1].message, "forged.cu:89999 by thread (0,0,0)"), "%s",
              r.findings[LINES - 1].message);
    cr_assert_lt(spent, 10.0, "the grader spent %.2f s of CPU", spent);
    emu_report_free(&r);
    sb_free(&out);
}

/* Lines named alike are still apart: forged.cu:4 after forged.cu:43. */
Test(sanitizer, a_source_line_that_begins_another_is_its_own_finding)
{
    const char *text = ACCESS_REPORT("43", "0") ACCESS_REPORT("4", "0");
    emu_report_t r;
    memset(&r, 0, sizeof r);
    cr_assert_eq(sanitizer_parse("memcheck", text, &r), 2);
    emu_report_free(&r);
}

Test(sanitizer, a_clean_report_has_no_findings)
{
    char *text = fixture("clean.txt");
    emu_report_t r;
    memset(&r, 0, sizeof r);
    cr_assert_eq(sanitizer_parse("racecheck", text, &r), 0);
    cr_assert_eq(r.nfindings, 0);
    free(text);
}

Test(sanitizer, names_the_tools_of_a_set_for_the_report)
{
    char buf[96];
    sanitizer_tools_named(SANITIZER_MEMCHECK, buf, sizeof buf);
    cr_assert_str_eq(buf, "memcheck");
    sanitizer_tools_named(SANITIZER_MEMCHECK | SANITIZER_SYNCCHECK, buf, sizeof buf);
    cr_assert_str_eq(buf, "memcheck and synccheck");
    sanitizer_tools_named(SANITIZER_ALL, buf, sizeof buf);
    cr_assert_str_eq(buf, "memcheck, racecheck, synccheck and initcheck");
    sanitizer_tools_named(0, buf, sizeof buf);
    cr_assert_str_eq(buf, "");
}

/* compute-sanitizer's runs see the driver's arrays as they are, without the
 * guards (labs/common/harness_device.h) that would make a read past an array
 * a read of its guard, which memcheck cannot see: the grader sets
 * CUGRADE_GUARDS=off for them. A stand-in compute-sanitizer on PATH (in the
 * sandbox, as the real one runs) reports the memcheck fixture's read past A
 * only when it was given that. */
Test(sanitizer, runs_the_driver_without_its_guards)
{
    char dir[] = "/tmp/cugrade-sanitizer-XXXXXX", tool[PATH_MAX];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(tool, sizeof tool, "%s/compute-sanitizer", dir);
    char *report = fixture("memcheck.txt");
    FILE *f = fopen(tool, "w");
    cr_assert_not_null(f);
    fprintf(f, "#!/bin/sh\n[ \"$CUGRADE_GUARDS\" = off ] || exit 0\ncat <<'REPORT'\n%sREPORT\n",
            report);
    cr_assert_eq(fclose(f), 0);
    cr_assert_eq(chmod(tool, 0755), 0);
    char path[8192];
    snprintf(path, sizeof path, "%s:%s", dir, getenv("PATH"));
    setenv("PATH", path, 1);
    setenv("CUGRADE_SANDBOX_RO", dir, 1);
    setenv("CUGRADE_GUARDS", "on", 1); /* the TA's: not what the tool's runs get */

    ds_run_t run;
    memset(&run, 0, sizeof run);
    snprintf(run.dir, sizeof run.dir, "%s", dir);
    run.argv[0] = "/bin/true";
    emu_report_t r;
    memset(&r, 0, sizeof r);
    cr_assert_eq(sanitizer_check_run(&run, 30, SANITIZER_MEMCHECK, &r), 0);
    cr_assert_eq(r.nfindings, 1, "the tool's run had CUGRADE_GUARDS=off");
    cr_assert_str_eq(r.findings[0].kind, "global-oob");
    emu_report_free(&r);
    free(report);
    cr_assert_eq(rm_rf(dir), 0);
}
