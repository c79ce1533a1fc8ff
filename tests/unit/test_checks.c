/* test_checks.c - the emulator's report file and the graded checks built on
 * it: findings mapped to checks, statistics summed, traffic per FLOP, the
 * "not run" cases, and the tests each check adds to results.json. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "score/checks.h"
#include "run/emureport.h"

static char path[64];

static void write_report(const char *text)
{
    snprintf(path, sizeof path, "/tmp/cugrade-report-XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

static emu_report_t read_report(const char *text)
{
    write_report(text);
    emu_report_t r;
    emu_report_read(path, &r);
    unlink(path);
    return r;
}

static lab_rubric_t all_checks(double max_bytes_per_flop)
{
    lab_rubric_t rub;
    memset(&rub, 0, sizeof rub);
    for (int id = 0; id < CHECK_COUNT; id++) {
        rub.checks[id].present = 1;
        rub.checks[id].points = 4;
    }
    rub.checks[CHECK_TRAFFIC_REDUCED].max_bytes_per_flop = max_bytes_per_flop;
    return rub;
}

static const test_result_t *test_named(const grade_t *g, const char *name)
{
    for (int i = 0; i < g->ntests; i++)
        if (strcmp(g->tests[i].name, name) == 0)
            return &g->tests[i];
    cr_assert_fail("no test %s", name);
    return NULL;
}

#define TILED_STATS                                                                                \
    "stat\tthreads\t4096\nstat\tglobal_load_bytes\t32768\nstat\tglobal_store_bytes\t16384\n"       \
    "stat\tshared_staged_loads\t262144\n"

Test(emu_report, findings_and_summed_stats)
{
    emu_report_t r = read_report("error\trace\trace on shared tileA ...\n"
                                 "stat\tglobal_load_bytes\t100\n"
                                 "garbage line without tabs\n"
                                 "stat\tglobal_load_bytes\t23.5\n"
                                 "info\tcoalescing\tloads at m.cu:3 are coalesced\n");
    cr_assert_eq(r.nfindings, 2);
    cr_assert_str_eq(r.findings[0].severity, "error");
    cr_assert_str_eq(r.findings[0].kind, "race");
    cr_assert_str_eq(r.findings[0].message, "race on shared tileA ...");
    cr_assert_str_eq(r.findings[1].kind, "coalescing");
    cr_assert_float_eq(emu_report_stat(&r, "global_load_bytes"), 123.5, 1e-9);
    cr_assert_float_eq(emu_report_stat(&r, "absent"), 0.0, 1e-9);
    emu_report_free(&r);
}

Test(emu_report, missing_file_is_empty)
{
    emu_report_t r;
    cr_assert_eq(emu_report_read("/nonexistent/report.txt", &r), 0);
    cr_assert_eq(r.nfindings, 0);
    cr_assert_eq(r.nstats, 0);
}

Test(checks, findings_map_to_their_check)
{
    cr_assert_eq(check_for_finding("race"), CHECK_RACE_FREE);
    cr_assert_eq(check_for_finding("barrier-divergence"), CHECK_BARRIERS_UNIFORM);
    cr_assert_eq(check_for_finding("barrier-mismatch"), CHECK_BARRIERS_UNIFORM);
    cr_assert_eq(check_for_finding("global-oob"), CHECK_MEMORY_SAFE);
    cr_assert_eq(check_for_finding("uninit-shared"), CHECK_MEMORY_SAFE);
    cr_assert_eq(check_for_finding("host-pointer"), CHECK_MEMORY_SAFE);
    cr_assert_eq(check_for_finding("launch"), CHECK_COUNT);
    cr_assert_eq(check_for_finding("coalescing"), CHECK_COUNT);
}

Test(checks, a_clean_tiled_kernel_passes_every_check)
{
    check_evidence_t e;
    memset(&e, 0, sizeof e);
    emu_report_t r = read_report(TILED_STATS);
    evidence_add(&e, "dataset 0 (64x64x64)", &r, 2.0 * 64 * 64 * 64);
    lab_rubric_t rub = all_checks(1.0);
    grade_t g;
    memset(&g, 0, sizeof g);
    checks_score(&rub, &e, NULL, NULL, &g);
    cr_assert_eq(g.ntests, CHECK_COUNT);
    for (int i = 0; i < g.ntests; i++)
        cr_expect(g.tests[i].passed, "%s: %s", g.tests[i].name, g.tests[i].output);
    cr_assert_float_eq(grade_score(&g), 20.0, 1e-9);
    const test_result_t *t = test_named(&g, "traffic-reduced");
    cr_assert(strstr(t->output, "0.0938 bytes of global memory traffic per FLOP"), "%s", t->output);
    grade_free(&g);
    emu_report_free(&r);
    evidence_free(&e);
}

Test(checks, a_race_fails_race_free_only_and_names_the_dataset)
{
    check_evidence_t e;
    memset(&e, 0, sizeof e);
    emu_report_t clean = read_report(TILED_STATS);
    emu_report_t racy = read_report("error\trace\trace on shared tileB (element 3)\n" TILED_STATS);
    evidence_add(&e, "dataset 0 (64x64x64)", &clean, 1e6);
    evidence_add(&e, "dataset 12 (417x210x519)", &racy, 1e6);
    lab_rubric_t rub = all_checks(1.0);
    grade_t g;
    memset(&g, 0, sizeof g);
    checks_score(&rub, &e, NULL, NULL, &g);
    const test_result_t *race = test_named(&g, "race-free");
    cr_assert(!race->passed);
    cr_assert_float_eq(race->score, 0.0, 1e-9);
    cr_assert(strstr(race->output, "FAILED: 1 distinct finding, on 1 of 2 datasets"), "%s",
              race->output);
    cr_assert(strstr(race->output, "race on shared tileB (element 3) (on dataset 12 (417x210x519))"),
              "%s", race->output);
    cr_assert(test_named(&g, "memory-safe")->passed);
    cr_assert(test_named(&g, "barriers-uniform")->passed);
    grade_free(&g);
    emu_report_free(&clean);
    emu_report_free(&racy);
    evidence_free(&e);
}

Test(checks, an_untiled_kernel_fails_shared_memory_and_traffic)
{
    check_evidence_t e;
    memset(&e, 0, sizeof e);
    /* 64^3 naive: every thread loads 2*64 floats: 8*M*N*K bytes = 4 B/FLOP */
    emu_report_t r = read_report("stat\tthreads\t4096\nstat\tglobal_load_bytes\t2097152\n"
                                 "stat\tglobal_store_bytes\t16384\n"
                                 "info\tcoalescing\tglobal loads at naive.cu:9 are coalesced\n");
    evidence_add(&e, "dataset 0 (64x64x64)", &r, 2.0 * 64 * 64 * 64);
    lab_rubric_t rub = all_checks(1.0);
    grade_t g;
    memset(&g, 0, sizeof g);
    checks_score(&rub, &e, NULL, NULL, &g);
    const test_result_t *shared = test_named(&g, "uses-shared-memory");
    cr_assert(!shared->passed);
    cr_assert(strstr(shared->output, "never read back data it had stored in shared memory"));
    const test_result_t *traffic = test_named(&g, "traffic-reduced");
    cr_assert(!traffic->passed);
    cr_assert(strstr(traffic->output, "FAILED: 4.03 bytes of global memory traffic per FLOP"),
              "%s", traffic->output);
    cr_assert(strstr(traffic->output, "coalescing: global loads at naive.cu:9 are coalesced"),
              "%s", traffic->output);
    cr_assert(test_named(&g, "race-free")->passed);
    grade_free(&g);
    emu_report_free(&r);
    evidence_free(&e);
}

Test(checks, not_run_and_not_instrumented_say_so_and_score_zero)
{
    check_evidence_t e;
    memset(&e, 0, sizeof e);
    lab_rubric_t rub = all_checks(1.0);
    rub.checks[CHECK_MEMORY_SAFE].present = 0;
    grade_t g;
    memset(&g, 0, sizeof g);
    checks_score(&rub, &e, "the checks were switched off (--checks none)", NULL, &g);
    cr_assert_eq(g.ntests, CHECK_COUNT - 1, "only the checks the rubric lists");
    for (int i = 0; i < g.ntests; i++) {
        cr_assert(!g.tests[i].passed);
        cr_assert_str_eq(g.tests[i].output, "not run: the checks were switched off (--checks none)\n");
    }
    grade_free(&g);
    /* reports without the checking mode's statistics: nothing was checked */
    emu_report_t r = read_report("warning\tlaunch\tsomething\n");
    evidence_add(&e, "dataset 0", &r, 1e6);
    memset(&g, 0, sizeof g);
    checks_score(&rub, &e, NULL, NULL, &g);
    cr_assert(strstr(test_named(&g, "race-free")->output, "not run: no kernel was launched, so "
                                                          "there was nothing to check"));
    cr_assert_float_eq(grade_score(&g), 0.0, 1e-9);
    grade_free(&g);
    emu_report_free(&r);
    evidence_free(&e);
}

Test(checks, one_bug_on_many_datasets_is_one_finding)
{
    check_evidence_t e;
    memset(&e, 0, sizeof e);
    emu_report_t a = read_report("error\trace\tRace on shared tileA at m.cu:40 and m.cu:45. (12 times in this launch)\n" TILED_STATS);
    emu_report_t b = read_report("error\trace\tRace on shared tileA at m.cu:40 and m.cu:45. (999 times in this launch)\n"
                                 "error\trace\tRace on shared tileB at m.cu:41 and m.cu:45.\n" TILED_STATS);
    evidence_add(&e, "dataset 0 (64x64x64)", &a, 1e6);
    evidence_add(&e, "dataset 1 (48x48x48)", &b, 1e6);
    lab_rubric_t rub = all_checks(1.0);
    grade_t g;
    memset(&g, 0, sizeof g);
    checks_score(&rub, &e, NULL, NULL, &g);
    const char *out = test_named(&g, "race-free")->output;
    cr_assert(strstr(out, "FAILED: 2 distinct findings, on 2 of 2 datasets"), "%s", out);
    cr_assert(strstr(out, "Race on shared tileA at m.cu:40 and m.cu:45. (on dataset 0 (64x64x64) "
                          "and 1 more dataset)"), "%s", out);
    cr_assert(strstr(out, "Race on shared tileB at m.cu:41 and m.cu:45. (on dataset 1 (48x48x48))"),
              "%s", out);
    grade_free(&g);
    emu_report_free(&a);
    emu_report_free(&b);
    evidence_free(&e);
}

Test(checks, a_bug_found_by_many_blocks_of_one_dataset_counts_that_dataset_once)
{
    check_evidence_t e;
    memset(&e, 0, sizeof e);
    emu_report_t a = read_report("error\tuninit-shared\tUninitialised read in k at m.cu:48: thread (0,0,0) of block (0,6,0)\n"
                                 "error\tuninit-shared\tUninitialised read in k at m.cu:48: thread (0,0,0) of block (1,6,0)\n"
                                 "error\tuninit-shared\tUninitialised read in k at m.cu:48: thread (0,0,0) of block (2,6,0)\n"
                                 TILED_STATS);
    emu_report_t b = read_report("error\tuninit-shared\tUninitialised read in k at m.cu:48: thread (0,0,0) of block (0,1,0)\n"
                                 TILED_STATS);
    evidence_add(&e, "dataset 4 (100x128x64)", &a, 1e6);
    evidence_add(&e, "dataset 6 (33x33x33)", &b, 1e6);
    lab_rubric_t rub = all_checks(1.0);
    grade_t g;
    memset(&g, 0, sizeof g);
    checks_score(&rub, &e, NULL, NULL, &g);
    const char *out = test_named(&g, "memory-safe")->output;
    cr_assert(strstr(out, "FAILED: 1 distinct finding, on 2 of 2 datasets"), "%s", out);
    cr_assert(strstr(out, "(on dataset 4 (100x128x64) and 1 more dataset)"), "%s", out);
    grade_free(&g);
    emu_report_free(&a);
    emu_report_free(&b);
    evidence_free(&e);
}

Test(checks, clean_checks_earn_nothing_when_no_dataset_passed_but_findings_still_show)
{
    check_evidence_t e;
    memset(&e, 0, sizeof e);
    emu_report_t r = read_report("error\trace\tRace on shared tileA.\n" TILED_STATS);
    evidence_add(&e, "dataset 0 (64x64x64)", &r, 1e6);
    lab_rubric_t rub = all_checks(1.0);
    grade_t g;
    memset(&g, 0, sizeof g);
    checks_score(&rub, &e, NULL, "no dataset passed yet", &g);
    const test_result_t *race = test_named(&g, "race-free"), *mem = test_named(&g, "memory-safe");
    cr_assert(!race->passed);
    cr_assert(strstr(race->output, "Race on shared tileA."), "%s", race->output);
    cr_assert(!mem->passed);
    cr_assert(strncmp(mem->output, "not scored: no dataset passed yet. Found: no access outside", 59) == 0,
              "%s", mem->output);
    cr_assert_float_eq(grade_score(&g), 0.0, 1e-9);
    grade_free(&g);
    emu_report_free(&r);
    evidence_free(&e);
}

Test(checks, the_same_bug_in_other_threads_is_one_finding)
{
    check_evidence_t e;
    memset(&e, 0, sizeof e);
    emu_report_t a = read_report(
        "error\tglobal-oob\tOut-of-bounds read of A in kernel K launched at m.cu:60: thread (0,4,0) "
        "of block (0,6,0) reads 4 bytes at byte offset 51200 (element 12800) at m.cu:43, 4 bytes past the end of A\n"
        "error\tglobal-oob\tOut-of-bounds read of A in kernel K launched at m.cu:60: thread (3,9,0) "
        "of block (2,6,0) reads 4 bytes at byte offset 52000 (element 13000) at m.cu:43, 804 bytes past the end of A\n"
        "error\tglobal-oob\tOut-of-bounds read of B in kernel K launched at m.cu:60: thread (0,4,0) "
        "of block (0,6,0) reads 4 bytes at byte offset 900 (element 225) at m.cu:44, 4 bytes past the end of B\n" TILED_STATS);
    evidence_add(&e, "dataset 4", &a, 1e6);
    lab_rubric_t rub = all_checks(1.0);
    grade_t g;
    memset(&g, 0, sizeof g);
    checks_score(&rub, &e, NULL, NULL, &g);
    const char *out = test_named(&g, "memory-safe")->output;
    cr_assert(strstr(out, "FAILED: 2 distinct findings, on 1 of 1 datasets"), "%s", out);
    cr_assert(strstr(out, "thread (0,4,0) of block (0,6,0) reads 4 bytes at byte offset 51200"), "%s", out);
    cr_assert(strstr(out, "past the end of B"), "%s", out);
    grade_free(&g);
    emu_report_free(&a);
    evidence_free(&e);
}
