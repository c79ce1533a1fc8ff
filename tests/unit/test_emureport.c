/* test_emureport.c - reading a run's report channel (run/emureport.h), which
 * a hostile program may write: a normal report parses as the emulator wrote
 * it (statistics summed, findings in order, malformed lines skipped), a
 * million distinct statistics are refused in well under the grader's time,
 * the caps hold exactly (at the cap accepted, one past refused), and a
 * refused report reaches the student as the submission's doing: every
 * check fails, the dataset fails, and a re-score says the same. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "compare/verdict.h"
#include "run/emureport.h"
#include "score/checks.h"
#include "score/measured.h"

#define STATS_REFUSED "the program wrote more than 4096 distinct statistics to the grader's report " \
                      "channel (a program may not write there)"

static char path[64];

/* A report file of n lines made by line(i, buf) (removed by the test). */
static void write_lines(long n, void (*line)(long i, char *buf, size_t len))
{
    snprintf(path, sizeof path, "/tmp/cugrade-emureport-XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    char buf[256];
    for (long i = 0; i < n; i++) {
        line(i, buf, sizeof buf);
        fputs(buf, f);
    }
    cr_assert_eq(fclose(f), 0);
}

static emu_report_t read_text(const char *text)
{
    snprintf(path, sizeof path, "/tmp/cugrade-emureport-XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    emu_report_t r;
    cr_assert_eq(emu_report_read(path, &r), 0);
    unlink(path);
    return r;
}

static void distinct_stat(long i, char *buf, size_t len)
{
    snprintf(buf, len, "stat\tkey_%ld\t1\n", i);
}

static void finding(long i, char *buf, size_t len)
{
    snprintf(buf, len, "error\trace\tRace on shared tileA (element %ld)\n", i);
}

/* The process's CPU seconds, user and system. */
static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

static emu_report_t read_lines(long n, void (*line)(long i, char *buf, size_t len))
{
    write_lines(n, line);
    emu_report_t r;
    cr_assert_eq(emu_report_read(path, &r), 0);
    unlink(path);
    return r;
}

/* ---- a normal report ---------------------------------------------------------- */

Test(emu_report, statistics_sum_findings_keep_their_order_and_malformed_lines_are_skipped)
{
    emu_report_t r = read_text("\ncugrade-dataset-begin 0\n"
                               "stat\tthreads\t4096\n"
                               "error\trace\tRace on shared tileA (12 times in this launch)\n"
                               "wbtime\tCompute\t0.25\tthe kernel\n"
                               "stat\tglobal_load_bytes\t100.5\n"
                               "info\tcoalescing\tloads at m.cu:40: 4 sectors per access\n"
                               "stat\tthreads\t4096\n"
                               "stat\tnovalue\tabc\n"         /* not a number */
                               "stat\tshort\n"                /* no value */
                               "warning\t\tno kind\n"         /* no kind */
                               "fatal\trace\tnot a severity\n" /* no such severity */
                               "stat\tglobal_load_bytes\t23\n"
                               "warning\tlaunch\tsomething\n"
                               "\ncugrade-dataset-end 0 0.100000\n");
    cr_assert(!r.refused);
    cr_assert_eq(r.nstats, 2);
    cr_assert_float_eq(emu_report_stat(&r, "threads"), 8192, 1e-9);
    cr_assert_float_eq(emu_report_stat(&r, "global_load_bytes"), 123.5, 1e-9);
    cr_assert_float_eq(emu_report_stat(&r, "novalue"), 0, 1e-9);
    cr_assert_float_eq(emu_report_stat(&r, "absent"), 0, 1e-9);
    cr_assert_eq(r.nfindings, 3);
    cr_assert_str_eq(r.findings[0].severity, "error");
    cr_assert_str_eq(r.findings[0].kind, "race");
    cr_assert_str_eq(r.findings[0].message, "Race on shared tileA (12 times in this launch)");
    cr_assert_str_eq(r.findings[1].kind, "coalescing");
    cr_assert_str_eq(r.findings[2].severity, "warning");
    cr_assert_str_eq(r.findings[2].kind, "launch");
    emu_report_free(&r);
}

Test(emu_report, a_long_key_is_one_statistic_under_its_first_47_characters)
{
    const char *key = "a_statistic_whose_name_is_longer_than_any_the_emulator_writes";
    char text[512];
    snprintf(text, sizeof text, "stat\t%s\t1\nstat\t%s\t2\n", key, key);
    emu_report_t r = read_text(text);
    cr_assert_eq(r.nstats, 1);
    cr_assert_eq(strlen(r.stats[0].key), 47);
    cr_assert_float_eq(emu_report_stat(&r, key), 3, 1e-9);
    emu_report_free(&r);
}

Test(emu_report, stats_set_by_hand_are_found_and_added_to)
{
    emu_report_t r;
    memset(&r, 0, sizeof r);
    r.stats = calloc(2, sizeof *r.stats);
    snprintf(r.stats[0].key, sizeof r.stats[0].key, "threads");
    r.stats[0].value = 64;
    snprintf(r.stats[1].key, sizeof r.stats[1].key, "blocks");
    r.stats[1].value = 2;
    r.nstats = 2;
    cr_assert_float_eq(emu_report_stat(&r, "blocks"), 2, 1e-9);
    cr_assert_eq(emu_report_add_stat(&r, "blocks", 1), 0);
    cr_assert_eq(emu_report_add_stat(&r, "barriers", 5), 0);
    cr_assert_eq(r.nstats, 3);
    cr_assert_float_eq(emu_report_stat(&r, "blocks"), 3, 1e-9);
    cr_assert_float_eq(emu_report_stat(&r, "threads"), 64, 1e-9);
    cr_assert_float_eq(emu_report_stat(&r, "barriers"), 5, 1e-9);
    emu_report_free(&r);
}

Test(emu_report, a_copy_is_the_same_report_on_its_own)
{
    emu_report_t r = read_text("stat\tthreads\t4096\nerror\trace\tRace on tileA\n"), c;
    emu_report_copy(&c, &r);
    emu_report_free(&r);
    cr_assert_eq(c.nfindings, 1);
    cr_assert_str_eq(c.findings[0].message, "Race on tileA");
    cr_assert_float_eq(emu_report_stat(&c, "threads"), 4096, 1e-9);
    emu_report_free(&c);
}

/* ---- the caps ------------------------------------------------------------------ */

/* A million distinct statistics (the 64 MiB channel holds many more): the
 * report is refused, and reading it costs the grader well under 10 s of
 * CPU (the quadratic search took about 16 s for 100,000 here). */
Test(emu_report, a_million_distinct_statistics_are_refused_quickly, .timeout = 120)
{
    write_lines(1000000, distinct_stat);
    emu_report_t r;
    double t0 = cpu_seconds();
    emu_report_read(path, &r);
    double spent = cpu_seconds() - t0;
    unlink(path);
    cr_assert(r.refused);
    cr_assert_str_eq(r.refused_why, STATS_REFUSED);
    cr_assert_eq(r.nstats, 0, "a refused report keeps nothing");
    cr_assert_eq(r.nfindings, 0);
    cr_assert_float_eq(emu_report_stat(&r, "key_1"), 0, 1e-9);
    cr_assert_lt(spent, 10.0, "the grader spent %.2f s of CPU", spent);
    emu_report_free(&r);
}

static void repeated_stat(long i, char *buf, size_t len)
{
    snprintf(buf, len, "stat\tkey_%ld\t1\n", i % EMU_REPORT_MAX_STATS);
}

/* A million lines within the caps are all read (no cap stops early): 4096
 * keys, each summed 244 or 245 times, in time linear in the lines (the
 * linear search per line took about 4096/2 comparisons each). */
Test(emu_report, a_million_lines_within_the_caps_are_read_in_linear_time, .timeout = 120)
{
    write_lines(1000000, repeated_stat);
    emu_report_t r;
    double t0 = cpu_seconds();
    emu_report_read(path, &r);
    double spent = cpu_seconds() - t0;
    unlink(path);
    cr_assert(!r.refused, "%s", r.refused_why);
    cr_assert_eq(r.nstats, EMU_REPORT_MAX_STATS);
    cr_assert_float_eq(emu_report_stat(&r, "key_0"), 245, 1e-9);     /* 0, 4096, ..., 999424 */
    cr_assert_float_eq(emu_report_stat(&r, "key_4095"), 244, 1e-9);
    cr_assert_lt(spent, 10.0, "the grader spent %.2f s of CPU", spent);
    emu_report_free(&r);
}

Test(emu_report, exactly_4096_distinct_statistics_are_accepted_with_their_repeats)
{
    write_lines(EMU_REPORT_MAX_STATS, distinct_stat);
    FILE *f = fopen(path, "a");
    cr_assert_not_null(f);
    for (int i = 0; i < 3 * EMU_REPORT_MAX_STATS; i++) /* known keys again: summed, no new one */
        fprintf(f, "stat\tkey_%d\t2\n", i % EMU_REPORT_MAX_STATS);
    cr_assert_eq(fclose(f), 0);
    emu_report_t r;
    emu_report_read(path, &r);
    unlink(path);
    cr_assert(!r.refused, "%s", r.refused_why);
    cr_assert_eq(r.nstats, EMU_REPORT_MAX_STATS);
    cr_assert_float_eq(emu_report_stat(&r, "key_0"), 7, 1e-9);
    cr_assert_float_eq(emu_report_stat(&r, "key_4095"), 7, 1e-9);
    emu_report_free(&r);
}

Test(emu_report, one_distinct_statistic_past_4096_is_refused)
{
    emu_report_t r = read_lines(EMU_REPORT_MAX_STATS + 1, distinct_stat);
    cr_assert(r.refused);
    cr_assert_str_eq(r.refused_why, STATS_REFUSED);
    cr_assert_eq(emu_report_add_stat(&r, "threads", 1), -1, "refused stays refused");
    cr_assert_eq(r.nstats, 0);
    emu_report_free(&r);
}

Test(emu_report, exactly_100000_findings_are_accepted_one_more_refused, .timeout = 60)
{
    emu_report_t r = read_lines(EMU_REPORT_MAX_FINDINGS, finding);
    cr_assert(!r.refused, "%s", r.refused_why);
    cr_assert_eq(r.nfindings, EMU_REPORT_MAX_FINDINGS);
    cr_assert_str_eq(r.findings[99999].message, "Race on shared tileA (element 99999)");
    emu_report_free(&r);

    r = read_lines(EMU_REPORT_MAX_FINDINGS + 1, finding);
    cr_assert(r.refused);
    cr_assert_str_eq(r.refused_why, "the program wrote more than 100000 findings to the grader's "
                                    "report channel (a program may not write there; the emulator "
                                    "writes at most 11 of a kind per kernel launch)");
    cr_assert_eq(r.nfindings, 0);
    emu_report_free(&r);
}

/* ---- what the student is told -------------------------------------------------- */

static lab_rubric_t all_checks(void)
{
    lab_rubric_t rub;
    memset(&rub, 0, sizeof rub);
    for (int id = 0; id < CHECK_COUNT; id++) {
        rub.checks[id].present = 1;
        rub.checks[id].points = 4;
    }
    rub.checks[CHECK_TRAFFIC_REDUCED].max_bytes_per_flop = 100;
    return rub;
}

#define TILED_STATS                                                                                \
    "stat\tthreads\t4096\nstat\tglobal_load_bytes\t32768\nstat\tglobal_store_bytes\t16384\n"       \
    "stat\tshared_staged_loads\t262144\n"

/* One clean run and one refused: every check fails on the refused one,
 * with its dataset and why, and scores nothing. */
Test(emu_report, a_refused_report_fails_every_check_as_the_submissions_doing)
{
    emu_report_t clean = read_text(TILED_STATS);
    emu_report_t refused = read_lines(5000, distinct_stat);
    cr_assert(refused.refused);
    check_evidence_t e;
    memset(&e, 0, sizeof e);
    evidence_add(&e, "dataset 0 (16x16x16)", &clean, 8192);
    evidence_add(&e, "dataset 3 (33x17x9)", &refused, 10098);
    lab_rubric_t rub = all_checks();
    grade_t g;
    memset(&g, 0, sizeof g);
    checks_score(&rub, &e, NULL, NULL, &g);
    cr_assert_eq(g.ntests, CHECK_COUNT);
    for (int i = 0; i < g.ntests; i++) {
        cr_assert(!g.tests[i].passed, "%s", g.tests[i].name);
        cr_assert_float_eq(g.tests[i].score, 0, 1e-12);
        cr_assert_str_eq(g.tests[i].output,
                         "FAILED: on dataset 3 (33x17x9), " STATS_REFUSED
                         ": its checks are not trusted\n");
    }
    grade_free(&g);
    evidence_free(&e);
    emu_report_free(&clean);
    emu_report_free(&refused);
}

/* Only refused reports (none instrumented): still failed, not "not run". */
Test(emu_report, refused_reports_alone_fail_the_checks_rather_than_not_running_them)
{
    emu_report_t refused = read_lines(5000, distinct_stat);
    check_evidence_t e;
    memset(&e, 0, sizeof e);
    evidence_add(&e, "dataset 0 (16x16x16)", &refused, 8192);
    evidence_add(&e, "dataset 1 (17x17x17)", &refused, 9826);
    lab_rubric_t rub = all_checks();
    grade_t g;
    memset(&g, 0, sizeof g);
    checks_score(&rub, &e, NULL, NULL, &g);
    cr_assert(strstr(g.tests[0].output, "FAILED: on dataset 0 (16x16x16), " STATS_REFUSED),
              "%s", g.tests[0].output);
    cr_assert(strstr(g.tests[0].output, "(2 dataset runs' reports were refused)"), "%s",
              g.tests[0].output);
    grade_free(&g);
    evidence_free(&e);
    emu_report_free(&refused);
}

/* The dataset whose run's report was refused fails with why, whatever its
 * output (the verdict does not even read it). */
Test(emu_report, the_dataset_of_a_refused_report_fails_with_why)
{
    write_lines(5000, distinct_stat);
    ds_job_t job;
    memset(&job, 0, sizeof job);
    ds_run_t run;
    memset(&run, 0, sizeof run);
    run.job = &job;
    run.started = 1;
    snprintf(run.diag_path, sizeof run.diag_path, "%s", path);
    run.result = (run_result_t){.started = 1, .exited = 1, .exit_code = 0,
                                .output = strdup("my own line\n"), .output_len = 12};
    strbuf_t msg = {0};
    char failure[64];
    int passed = verdict_dataset(&run, NULL, BACKEND_EMU, &msg, failure, sizeof failure);
    unlink(path);
    cr_assert_eq(passed, 0);
    cr_assert_str_eq(failure, "report-refused");
    cr_assert_str_eq(sb_str(&msg), "FAILED: " STATS_REFUSED ": this run's results are not "
                                   "trusted\nprogram output:\nmy own line\n");
    sb_free(&msg);
    free(run.result.output);
}

static void race_finding(long i, char *buf, size_t len)
{
    if (i == 0)
        snprintf(buf, len, "warning\tlaunch\tone of another kind\n");
    else
        snprintf(buf, len, "error\trace\tRace on shared tileA (element %ld)\n", i);
}

/* A failed run's 100,000 findings (the most a report keeps): three of a
 * kind shown and the rest counted, in time linear in them (counting a
 * kind's findings for each finding took about 5e9 comparisons). */
Test(emu_report, a_failed_runs_findings_are_shown_three_of_a_kind_in_linear_time, .timeout = 120)
{
    write_lines(EMU_REPORT_MAX_FINDINGS, race_finding);
    ds_job_t job;
    memset(&job, 0, sizeof job);
    ds_run_t run;
    memset(&run, 0, sizeof run);
    run.job = &job;
    run.started = 1;
    snprintf(run.diag_path, sizeof run.diag_path, "%s", path);
    run.result = (run_result_t){.started = 1, .exited = 1, .exit_code = 1, .output = strdup("")};
    strbuf_t msg = {0};
    char failure[64];
    double t0 = cpu_seconds();
    int passed = verdict_dataset(&run, NULL, BACKEND_EMU, &msg, failure, sizeof failure);
    double spent = cpu_seconds() - t0;
    unlink(path);
    cr_assert_eq(passed, 0);
    cr_assert_str_eq(failure, "exit:1@race", "the likely cause said beside how the run ended");
    const char *m = sb_str(&msg);
    cr_assert(strstr(m, "emulator warning (launch): one of another kind\n"), "%s", m);
    cr_assert(strstr(m, "emulator error (race): Race on shared tileA (element 3)\n"
                        "(99996 more race findings not shown)\n"), "%s", m);
    cr_assert_null(strstr(m, "(element 4)"), "%s", m);
    cr_assert_lt(spent, 10.0, "the grader spent %.2f s of CPU", spent);
    sb_free(&msg);
    free(run.result.output);
}

static void host_output_finding(long i, char *buf, size_t len)
{
    snprintf(buf, len, i == 0 ? "error\thost-output\tThe output was copied to the device by the host: no kernel "
                                "computed it.\n"
                              : "error\tinstruction-budget\tdotProductShared ran past its budget\n");
}

/* A run killed by the budget never reached its end: the executor's word on
 * its output's origin is left out (on a loaded machine it named
 * host-output), the rest stays; a run that ended keeps it. */
Test(emu_report, a_run_killed_by_the_budget_names_no_output_origin)
{
    lab_t lab;
    char err[512];
    cr_assert_eq(lab_load(".", "dotprod", &lab, err, sizeof err), 0, "%s", err);
    for (int killed = 1; killed >= 0; killed--) {
        write_lines(2, host_output_finding);
        ds_job_t job;
        memset(&job, 0, sizeof job);
        ds_run_t run;
        memset(&run, 0, sizeof run);
        run.job = &job;
        run.started = 1;
        snprintf(run.diag_path, sizeof run.diag_path, "%s", path);
        run.result = killed ? (run_result_t){.started = 1, .budget_out = 1, .output = strdup("")}
                            : (run_result_t){.started = 1, .exited = 1, .exit_code = 1, .output = strdup("")};
        strbuf_t msg = {0};
        char failure[64];
        int passed = verdict_dataset(&run, &lab, BACKEND_VGPU, &msg, failure, sizeof failure);
        unlink(path);
        cr_assert_eq(passed, 0);
        if (killed) {
            cr_assert_str_eq(failure, "budget@instruction-budget");
            cr_assert_null(strstr(sb_str(&msg), "host"), "%s", sb_str(&msg));
        } else {
            cr_assert_str_eq(failure, "exit:1@host-output");
        }
        sb_free(&msg);
        free(run.result.output);
    }
}

/* measurements.json keeps the refusal, so a re-score fails the checks the
 * same way. */
Test(emu_report, a_refusal_survives_measurements_json_and_rescores_the_same)
{
    emu_report_t refused = read_lines(5000, distinct_stat);
    measured_t m;
    memset(&m, 0, sizeof m);
    snprintf(m.cugrade_version, sizeof m.cugrade_version, "0.1.0");
    snprintf(m.lab, sizeof m.lab, "lab3");
    m.backend = BACKEND_EMU;
    m.checks_measured = 1;
    evidence_log_add(&m.evidence, "dataset 3 (33x17x9)", &refused, 10098);
    char *text = measured_to_json(&m);
    cr_assert(strstr(text, "\"refused\""), "%s", text);
    measured_t back;
    char err[512] = "";
    cr_assert_eq(measured_parse("m/measurements.json", text, &back, err, sizeof err), 0, "%s",
                 err);
    cr_assert_eq(back.evidence.n, 1);
    cr_assert(back.evidence.runs[0].report.refused);
    cr_assert_str_eq(back.evidence.runs[0].report.refused_why, STATS_REFUSED);
    char *again = measured_to_json(&back);
    cr_assert_str_eq(again, text);
    check_evidence_t e;
    memset(&e, 0, sizeof e);
    evidence_replay(&e, &back.evidence);
    cr_assert_eq(e.refused, 1);
    cr_assert_str_eq(e.refused_dataset, "dataset 3 (33x17x9)");
    evidence_free(&e);
    free(text);
    free(again);
    measured_free(&m);
    measured_free(&back);
    emu_report_free(&refused);
}
