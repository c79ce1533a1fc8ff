/* test_bench.c - the bench scripts (bench/run.sh, bench/rescore.sh,
 * bench/gpu_stability.sh, bench/gpu_scaling.sh, bench/report_channel.sh;
 * bench/batch.sh in
 * test_bench_batch.c) must not
 * print a number they did not measure: a
 * missing binary is exit 2 and says which, a grade or batch that fails (or
 * grades nothing, or grades wrong) is exit 1 with no throughput or time
 * printed. Run against pretend binaries (shell scripts pointed at by
 * CUGRADE_BIN, EMUCC_BIN, CUGRADE_EMU_LIB, CUGRADE_CXX, CUGRADE_NVCC) and a
 * copy of bench/ with no build, so no real grade runs: a few seconds in all.
 * With every pretend binary right the scripts pass, so the failures below
 * fail for the reason the test says. */
#include "bench_fakes.h"

#include <math.h>
#include <sched.h>

/* cugrade for run.sh: `run` prints a grade of the reference in cugrade's own
 * format: every point when the checks ran, and the checks "not run" with
 * --checks none (so Score is 7.5 less their 4 points). checks_off_always: the
 * checks say "not run" even with --checks all. fail_status: exit with it. */
static const char *fake_grader(fakes_t *f, int checks_off_always, int fail_status)
{
    strbuf_t sb = {0};
    sb_appendf(&sb,
               "#!/bin/sh\n"
               "[ %d -ne 0 ] && { echo 'cugrade: cannot grade: pretend failure' >&2; exit %d; }\n"
               "checks=all\n"
               "while [ $# -gt 0 ]; do [ \"$1\" = --checks ] && checks=$2; shift; done\n"
               "echo 'cugrade lab3  reference/lab3/matmul.cu'\n"
               "echo '  PASS      0/0    compiles'\n"
               "echo '  PASS    3.5/3.5  dataset 0 (64x64x64)'\n"
               "if [ \"$checks\" = none ] || [ %d -ne 0 ]; then\n"
               "  echo '  FAIL      0/4    race-free'\n"
               "  echo '           not run: the checks were switched off (--checks none)'\n"
               "  echo '  Score: 3.5 / 7.5   (1 of 1 datasets passed, 0.1 s)'\n"
               "else\n"
               "  echo '  PASS      4/4    race-free'\n"
               "  echo '  Score: 7.5 / 7.5   (1 of 1 datasets passed, 0.1 s)'\n"
               "fi\n",
               fail_status, fail_status, checks_off_always);
    return install_fake(f, 0, "cugrade", &sb);
}

static const char *GOOD_OVERHEAD = "#!/bin/sh\n"
                                   "echo '   shape 512x512x512, best of 1'\n"
                                   "echo '   emulator (tiled kernel):    0.400 s'\n"
                                   "echo '   plain C triple loop:        0.300 s'\n"
                                   "echo '   ratio: 1.33x; products agree'\n";

static const char *fake_cxx(fakes_t *f)
{
    const char *path = in(f, 3, "c++");
    write_text(path, "#!/bin/sh\necho 'pretend-c++ 1.0'\n", 1);
    return path;
}

/* Runs bench/run.sh (one rep) with these binaries. */
static run_result_t run_sh_bench(const char *cugrade, const char *emucc, const char *lib, const char *cxx)
{
    char e[4][200];
    snprintf(e[0], sizeof e[0], "CUGRADE_BIN=%s", cugrade);
    snprintf(e[1], sizeof e[1], "EMUCC_BIN=%s", emucc);
    snprintf(e[2], sizeof e[2], "CUGRADE_EMU_LIB=%s", lib);
    snprintf(e[3], sizeof e[3], "CUGRADE_CXX=%s", cxx);
    char *env[] = {e[0], e[1], e[2], e[3], "BENCH_REPS=1", NULL};
    char *argv[] = {"bench/run.sh", NULL};
    return run_script(argv, env);
}

/* ---- a tree with no build: the default paths ------------------------------- */

/* The failure this test was written for: bench/batch.sh printed a throughput
 * with bin/cugrade missing. A copy of bench/ in a folder with no bin/. */
Test(bench, without_a_build_every_script_says_run_make_and_exits_2)
{
    fakes_t f = fakes();
    char *cp[] = {"/bin/cp", "-r", "bench", f.dir, NULL};
    run_result_t r = run_script(cp, NULL);
    cr_assert_eq(status(&r), 0, "cp: %s", r.output);
    run_result_free(&r);

    const char *scripts[] = {"run.sh", "batch.sh", "gpu_stability.sh", "rescore.sh",
                             "timing_load.sh", "vgpu_grade.sh"};
    for (size_t i = 0; i < sizeof scripts / sizeof *scripts; i++) {
        char script[160];
        snprintf(script, sizeof script, "%s/bench/%s", f.dir, scripts[i]);
        char *argv[] = {script, "2", NULL};
        char *env[] = {"CUGRADE_BIN=", "EMUCC_BIN=", "CUGRADE_EMU_LIB=", NULL};
        r = run_script(argv, env);
        cr_assert_eq(status(&r), 2, "%s: exit %d: %s", scripts[i], status(&r), r.output);
        assert_has(r, "bin/cugrade is missing: run make first");
        assert_lacks(r, "throughput");
        assert_lacks(r, "best:");
        assert_lacks(r, "spread");
        run_result_free(&r);
    }
    rm_rf(f.dir);
}

/* ---- bench/run.sh (make bench) ---------------------------------------------- */

Test(bench, run_sh_passes_with_every_pretend_binary_right)
{
    fakes_t f = fakes();
    run_result_t r = run_sh_bench(fake_grader(&f, 0, 0), fake_emucc(&f, GOOD_OVERHEAD), fake_lib(&f),
                                  fake_cxx(&f));
    cr_assert_eq(status(&r), 0, "exit %d: %s", status(&r), r.output);
    assert_has(r, "machine: ");
    assert_has(r, "pretend-c++ 1.0");
    assert_has(r, "(Score: 3.5 / 7.5, 1 of 1 datasets; the 1 checks (4 points) not run)");
    assert_has(r, "(Score: 7.5 / 7.5, 1 of 1 datasets)");
    assert_has(r, "ratio: 1.33x; products agree");
    assert_has(r, "(target <= 40x)");
    run_result_free(&r);
    rm_rf(f.dir);
}

Test(bench, run_sh_names_each_missing_binary)
{
    fakes_t f = fakes();
    const char *cugrade = fake_grader(&f, 0, 0), *emucc = fake_emucc(&f, GOOD_OVERHEAD);
    const char *lib = fake_lib(&f), *cxx = fake_cxx(&f);
    const char *nowhere = in(&f, 4, "nowhere");
    struct {
        const char *cugrade, *emucc, *lib, *cxx, *says;
    } cases[] = {
        {nowhere, emucc, lib, cxx, "nowhere is missing: run make first"},
        {cugrade, nowhere, lib, cxx, "nowhere is missing: run make first"},
        {cugrade, emucc, nowhere, cxx, "nowhere is missing: run make first"},
        {cugrade, emucc, lib, nowhere, "nowhere is missing: bin/emucc compiles with it"},
        {f.dir, emucc, lib, cxx, "is not an executable file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run_result_t r = run_sh_bench(cases[i].cugrade, cases[i].emucc, cases[i].lib, cases[i].cxx);
        cr_assert_eq(status(&r), 2, "case %zu: exit %d: %s", i, status(&r), r.output);
        assert_has(r, cases[i].says);
        assert_lacks(r, "best:");
        run_result_free(&r);
    }
    rm_rf(f.dir);
}

Test(bench, run_sh_fails_when_a_grade_does_not_run)
{
    fakes_t f = fakes();
    run_result_t r = run_sh_bench(fake_grader(&f, 0, 2), fake_emucc(&f, GOOD_OVERHEAD), fake_lib(&f),
                                  fake_cxx(&f));
    cr_assert_eq(status(&r), 1, "exit %d: %s", status(&r), r.output);
    assert_has(r, "FAILED: run 1: cugrade run --backend emu --checks none reference exited with status 2");
    assert_has(r, "    | cugrade: cannot grade: pretend failure"); /* the log's tail */
    assert_lacks(r, "   run 1: ");
    assert_lacks(r, "best:");
    assert_lacks(r, "ratio");
    run_result_free(&r);
    rm_rf(f.dir);
}

/* The checks "not run" are fine with --checks none, not with --checks all. */
Test(bench, run_sh_fails_when_the_reference_is_not_full_marks)
{
    fakes_t f = fakes();
    run_result_t r = run_sh_bench(fake_grader(&f, 1, 0), fake_emucc(&f, GOOD_OVERHEAD), fake_lib(&f),
                                  fake_cxx(&f));
    cr_assert_eq(status(&r), 1, "exit %d: %s", status(&r), r.output);
    assert_has(r, "(Score: 3.5 / 7.5, 1 of 1 datasets; the 1 checks (4 points) not run)");
    assert_has(r, "FAILED: run 1: the reference's grade (--checks all) is not full marks: "
                  "not every test passed: FAIL race-free");
    assert_lacks(r, "best: 0.00 s (target <= 20 s)");
    assert_lacks(r, "ratio");
    run_result_free(&r);
    rm_rf(f.dir);
}

Test(bench, run_sh_fails_when_the_overhead_program_prints_nothing_usable)
{
    struct {
        const char *program, *says;
    } cases[] = {
        {"#!/bin/sh\necho hello\n", "did not print both times"},
        {"#!/bin/sh\n", "did not print both times"},
        {"#!/bin/sh\necho '   emulator (tiled kernel):    0.400 s'\necho '   plain C triple loop:        0.300 s'\n"
         "echo '   ratio: 1.33x; products DIFFER'\nexit 1\n",
         "FAILED: plain build: the overhead program exited with status 1"},
        {"#!/bin/sh\necho '   emulator (tiled kernel):    0.400 s'\necho '   plain C triple loop:        0.000 s'\n"
         "echo '   ratio: infx; products agree'\n",
         "did not print both times"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        fakes_t f = fakes();
        run_result_t r = run_sh_bench(fake_grader(&f, 0, 0), fake_emucc(&f, cases[i].program), fake_lib(&f),
                                      fake_cxx(&f));
        cr_assert_eq(status(&r), 1, "case %zu: exit %d: %s", i, status(&r), r.output);
        assert_has(r, cases[i].says);
        assert_lacks(r, "(target <= 10x)");
        run_result_free(&r);
        rm_rf(f.dir);
    }
}

/* ---- bench/rescore.sh ------------------------------------------------------------ */

/* cugrade for rescore.sh: the first `batch` grades everyone at the shipped
 * rubric's 3.5 points a dataset; the --resume batch (run with PATH pointing
 * nowhere) then does MODE:
 *   right        re-scores everyone: 5 points, max 5, "N re-scored"
 *   fails        exit 2 with a message
 *   regraded     the right gradebook, but it says "N graded, 0 re-scored"
 *   same_points  says "N re-scored", but the gradebook keeps 3.5 points */
static const char *fake_rescore_grader(fakes_t *f, const char *mode)
{
    strbuf_t sb = {0};
    sb_appendf(&sb,
               "#!/bin/sh\n"
               "PATH=/usr/bin:/bin\n"
               "mode=%s\n"
               FAKE_BATCH_ARGS
               "mkdir -p \"$out\"\n"
               "echo 'id,total,max,compiles,dataset 0 (1x1x1)' > \"$out/gradebook.csv\"\n"
               "pts=3.5 max=3.5\n"
               "if [ $resume = 1 ]; then\n"
               "  [ $mode = fails ] && { echo 'cugrade batch: pretend failure'; exit 2; }\n"
               "  echo \"cugrade batch: $n submission(s), 0 to grade, $n to re-score, 0 unchanged (skipped)\"\n"
               "  pts=5 max=5\n"
               "  [ $mode = same_points ] && pts=3.5\n"
               "fi\n"
               "for d in \"$subs\"/*; do echo \"${d##*/},$pts,$max,0,$pts\" >> \"$out/gradebook.csv\"; done\n"
               "if [ $resume = 0 ] || [ $mode = regraded ]; then\n"
               "  echo \"batch: $n graded, 0 re-scored, 0 could not grade, 0 skipped (unchanged), 0 not written, 0.1 s\"\n"
               "else\n"
               "  echo \"batch: 0 graded, $n re-scored, 0 could not grade, 0 skipped (unchanged), 0 not written, 0.1 s\"\n"
               "fi\n",
               mode);
    return install_fake(f, 0, "cugrade", &sb);
}

/* Runs `bench/rescore.sh 3` with these binaries. */
static run_result_t run_rescore_bench(const char *cugrade, const char *emucc, const char *lib)
{
    return run_bench_with("bench/rescore.sh", "3", cugrade, emucc, lib);
}

Test(bench, rescore_sh_passes_with_a_pretend_batch_that_re_scores_right)
{
    fakes_t f = fakes();
    run_result_t r = run_rescore_bench(fake_rescore_grader(&f, "right"), fake_emucc(&f, ""), fake_lib(&f));
    cr_assert_eq(status(&r), 0, "exit %d: %s", status(&r), r.output);
    assert_has(r, "gradebook.csv: 3 rows, public datasets at 5 points where passed, every max +1.5");
    assert_has(r, "re-score of 3 submissions after a points change");
    run_result_free(&r);
    rm_rf(f.dir);
}

/* The re-score fails, grades instead, or leaves the points: exit 1, the
 * reason, and no time. */
Test(bench, rescore_sh_prints_no_time_when_the_re_score_is_not_right)
{
    struct {
        const char *mode, *says;
    } cases[] = {
        {"fails", "FAILED: cugrade batch --resume with the changed rubric exited with status 2"},
        {"regraded", "FAILED: the re-score's summary is \"batch: 3 graded, 0 re-scored, 0 could not "
                     "grade, 0 skipped (unchanged), 0 not written\", not \"batch: 0 graded, 3 re-scored"},
        {"same_points", "gradebook.csv NOT as expected: s000: dataset 0 (1x1x1) was 3.5, is 3.5"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        fakes_t f = fakes();
        run_result_t r = run_rescore_bench(fake_rescore_grader(&f, cases[i].mode), fake_emucc(&f, ""),
                                           fake_lib(&f));
        cr_assert_eq(status(&r), 1, "%s: exit %d: %s", cases[i].mode, status(&r), r.output);
        assert_has(r, cases[i].says);
        assert_lacks(r, "re-score of 3");
        assert_lacks(r, "target <= 30 s");
        run_result_free(&r);
        rm_rf(f.dir);
    }
}

Test(bench, rescore_sh_refuses_a_bad_class_size)
{
    char *argv[] = {"bench/rescore.sh", "x", NULL};
    run_result_t r = run_script(argv, NULL);
    cr_assert_eq(status(&r), 2, "exit %d: %s", status(&r), r.output);
    assert_has(r, "N must be a whole number >= 1, not 'x'");
    run_result_free(&r);
}

/* ---- bench/gpu_stability.sh ---------------------------------------------------- */

Test(bench, gpu_stability_sh_fails_when_a_grade_does_not_run)
{
    fakes_t f = fakes();
    /* a machine that says it has a GPU, whose grades fail */
    write_text(in(&f, 0, "cugrade"),
               "#!/bin/sh\n"
               "[ \"$1\" = info ] && { echo '  gpu  1 CUDA device; nvcc: pretend'; exit 0; }\n"
               "echo 'cugrade: cannot grade: pretend failure'; exit 2\n",
               1);
    write_text(in(&f, 1, "nvcc"), "#!/bin/sh\n", 1);
    char e[2][200];
    snprintf(e[0], sizeof e[0], "CUGRADE_BIN=%s", f.path[0]);
    snprintf(e[1], sizeof e[1], "CUGRADE_NVCC=%s", f.path[1]);
    char *env[] = {e[0], e[1], NULL};
    char *argv[] = {"bench/gpu_stability.sh", "2", NULL};
    run_result_t r = run_script(argv, env);
    cr_assert_eq(status(&r), 1, "exit %d: %s", status(&r), r.output);
    assert_has(r, "FAILED: run 1: cugrade run --backend native reference exited with status 2");
    assert_has(r, "    | cugrade: cannot grade: pretend failure");
    assert_lacks(r, "spread");
    assert_lacks(r, "GFLOP/s");
    run_result_free(&r);

    /* no nvcc */
    snprintf(e[1], sizeof e[1], "CUGRADE_NVCC=%s/no-nvcc", f.dir);
    r = run_script(argv, env);
    cr_assert_eq(status(&r), 2, "exit %d: %s", status(&r), r.output);
    assert_has(r, "no-nvcc is missing: the native backend compiles with it");
    run_result_free(&r);
    rm_rf(f.dir);
}

/* ---- bench/timing_load.sh -------------------------------------------------------- */

/* A pretend grader whose timing programs all say "gated 1": the
 * course-style kernel, whose launch function waits for the GPU, must be
 * found ungated, and --gate off must time every kernel ungated; the bench
 * names the runs and prints no table. A pretend nvcc builds a gpu_starts
 * that ends at once. */
Test(bench, timing_load_sh_fails_when_a_kernel_is_gated_as_it_must_not_be, .timeout = 60)
{
    fakes_t f = fakes();
    strbuf_t sb = {0};
    sb_append(&sb, "#!/bin/sh\n"
                   "d=$(mktemp -d /tmp/cugrade-test-timing-XXXXXX)\n"
                   "printf '#!/bin/sh\\necho shape 8x8x8\\n"
                   "echo impl student median_ms 2 mean_ms 2 rse 0 reps 10 gflops 1 wrong 0 "
                   "max_ms 3 q1_ms 1.9 gated 1\\n' >\"$d/timing\"\n"
                   "chmod +x \"$d/timing\"\n"
                   "echo \"  build and run files kept in $d\"\n");
    const char *cugrade = install_fake(&f, 0, "cugrade", &sb);
    write_text(in(&f, 1, "nvcc"),
               "#!/bin/sh\n"
               "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && out=$2; shift; done\n"
               "printf '#!/bin/sh\\nexit 1\\n' > \"$out\" && chmod +x \"$out\"\n",
               1);
    char e[2][200];
    snprintf(e[0], sizeof e[0], "CUGRADE_BIN=%s", cugrade);
    snprintf(e[1], sizeof e[1], "CUGRADE_NVCC=%s", f.path[1]);
    char *env[] = {e[0], e[1], NULL};
    char *argv[] = {"bench/timing_load.sh", "1", NULL};
    run_result_t r = run_script(argv, env);
    cr_assert_eq(status(&r), 1, "exit %d: %s", status(&r), r.output);
    /* its gpu_starts load ended at once: that case is refused first */
    assert_has(r, "FAILED: a process of the load ended: bench/gpu_starts failed?");
    assert_lacks(r, "median/idle");
    run_result_free(&r);

    /* a gpu_starts that runs: the gating is judged */
    write_text(in(&f, 1, "nvcc"),
               "#!/bin/sh\n"
               "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && out=$2; shift; done\n"
               "printf '#!/bin/sh\\nsleep 0.05\\n' > \"$out\" && chmod +x \"$out\"\n",
               1);
    r = run_script(argv, env);
    cr_assert_eq(status(&r), 1, "exit %d: %s", status(&r), r.output);
    assert_has(r, "course_style.on.idle.1: gated 1, expected 0");
    assert_has(r, "untiled.off.busy.1: gated 1, expected 0");
    assert_lacks(r, "untiled.on.idle.1: gated");
    assert_lacks(r, "median/idle");
    run_result_free(&r);
    rm_rf(f.dir);
}

/* bench/lib.sh's cpu line counts the cores the bench may run on: pinned to
 * one core (taskset, a Slurm cpuset) it says "of 1 cores" and sums that
 * core's ticks only, so a busy loop on it reads as nearly all busy. */
Test(bench, cpu_line_counts_only_the_cores_the_bench_may_use)
{
    cpu_set_t set, one;
    CPU_ZERO(&set);
    cr_assert_eq(sched_getaffinity(0, sizeof set, &set), 0);
    int c = 0;
    while (c < CPU_SETSIZE && !CPU_ISSET(c, &set))
        c++;
    CPU_ZERO(&one);
    CPU_SET(c, &one);
    cr_assert_eq(sched_setaffinity(0, sizeof one, &one), 0);
    char *argv[] = {"/bin/bash", "-c",
                    ". bench/lib.sh; t0=$(cpu_ticks); end=$((SECONDS + 2));"
                    " while [ $SECONDS -lt $end ]; do :; done; cpu_line \"$t0\"",
                    NULL};
    run_result_t r = run_script(argv, NULL);
    cr_assert_eq(status(&r), 0, "exit %d: %s", status(&r), r.output);
    assert_has(r, "of 1 cores busy over the batch");
    int busy = -1;
    cr_assert_eq(sscanf(r.output, "cpu: %d%%", &busy), 1, "%s", r.output);
    cr_assert_geq(busy, 80, "a busy loop on the one core read as %d%% busy: %s", busy, r.output);
    run_result_free(&r);
}

/* bench/gpu_scaling.sh measures nothing it cannot: without the GPUs or the
 * cores asked for it says so and exits 2, before any batch runs. */
Test(bench, gpu_scaling_sh_refuses_what_the_host_does_not_have)
{
    fakes_t f = fakes();
    /* a host with one GPU */
    write_text(in(&f, 0, "nvidia-smi"), "#!/bin/sh\necho 'GPU 0: pretend (UUID: GPU-0)'\n", 1);
    char path[400];
    snprintf(path, sizeof path, "PATH=%s:/usr/bin:/bin", f.dir);
    char *env[] = {path, NULL};
    char *two[] = {"bench/gpu_scaling.sh", "10", "2", "1", NULL};
    run_result_t r = run_script(two, env);
    cr_assert_eq(status(&r), 2, "exit %d: %s", status(&r), r.output);
    assert_has(r, "2 GPUs asked for, the host has 1");
    assert_lacks(r, "submissions/minute");
    run_result_free(&r);

    char *many_cores[] = {"bench/gpu_scaling.sh", "10", "1", NULL};
    char cores[] = "BENCH_CORES_PER_GPU=100000";
    char *env2[] = {path, cores, NULL};
    r = run_script(many_cores, env2);
    cr_assert_eq(status(&r), 2, "exit %d: %s", status(&r), r.output);
    assert_has(r, "1 GPUs need 100000 cores, this process may use");
    run_result_free(&r);

    char *bad[] = {"bench/gpu_scaling.sh", "10", NULL};
    r = run_script(bad, env);
    cr_assert_eq(status(&r), 2, "exit %d: %s", status(&r), r.output);
    assert_has(r, "usage: bench/gpu_scaling.sh N GPUS...");
    run_result_free(&r);
    rm_rf(f.dir);
}

/* bench/cpu_capacity.sh prints each K's work against one process alone, and
 * refuses more processes than it has cores to pin them to. */
Test(bench, cpu_capacity_sh_measures_the_cores_it_may_use_and_refuses_more)
{
    char loops[] = "BENCH_CPU_LOOPS=1000000";
    char path[] = "PATH=/usr/bin:/bin";
    char *env[] = {loops, path, NULL};
    char *one[] = {"bench/cpu_capacity.sh", "1", NULL};
    run_result_t r = run_script(one, env);
    cr_assert_eq(status(&r), 0, "exit %d: %s", status(&r), r.output);
    /* The ratio is the arithmetic on the two printed times (how close it
     * comes to 1 is the machine's, which a loaded CI host moves). */
    double one_s = 0, round_s = 0, times = 0, percent = 0;
    const char *alone = strstr(r.output, "one process alone: ");
    const char *line = strstr(r.output, "  1 at once: ");
    cr_assert(alone && line, "%s", r.output);
    cr_assert_eq(sscanf(alone, "one process alone: %lf s", &one_s), 1, "%s", r.output);
    cr_assert_eq(sscanf(line, "  1 at once: %lf s each round; together %lf times the work of one (%lf%%",
                        &round_s, &times, &percent),
                 3, "%s", r.output);
    cr_assert(one_s > 0 && round_s > 0, "%s", r.output);
    cr_assert(fabs(times - one_s / round_s) <= 0.05 + 0.03 * times, "%s", r.output);
    cr_assert(fabs(percent - 100 * one_s / round_s) <= 0.5 + 0.03 * percent, "%s", r.output);
    run_result_free(&r);

    char *many[] = {"bench/cpu_capacity.sh", "100000", NULL};
    r = run_script(many, env);
    cr_assert_eq(status(&r), 2, "exit %d: %s", status(&r), r.output);
    assert_has(r, "100000 processes need 100000 cores, this process may use");
    assert_lacks(r, "together");
    run_result_free(&r);
}

/* bench/gpu_context.sh with a pretend GPU and a pretend nvcc whose program
 * prints its four times: every case's line, the context's end among them,
 * and the processes a second with their round trips, the list runs' too
 * (their four ways with buffers; alone with "lists"); a program that fails fails the bench (exit 1, its
 * error shown) before any rate, and so does one that prints nothing. */
Test(bench, gpu_context_sh_prints_each_case_and_the_sustained_rate_or_fails)
{
    fakes_t f = fakes();
    write_text(in(&f, 0, "nvidia-smi"),
               "#!/bin/sh\ncase \"$*\" in *-L*) echo 'GPU 0: pretend (UUID: GPU-0)';;\n"
               "*) echo '0, pretend, Enabled, Default, 1 MHz';; esac\n", 1);
    const char *program[] = {"echo '10.0 2.0 5.0 1.5'", "echo 'gpu_context: pretend failure' >&2; exit 1",
                             "exit 0"};
    for (int fail = 0; fail < 3; fail++) {
        char nvcc[600];
        snprintf(nvcc, sizeof nvcc,
                 "#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = -o ] && out=$2; shift; done\n"
                 "printf '#!/bin/sh\\n%%s\\n' \"%s\" > \"$out\"; chmod +x \"$out\"\n",
                 program[fail]);
        write_text(in(&f, 1, "nvcc"), nvcc, 1);
        char path[400], cc[400];
        snprintf(path, sizeof path, "PATH=%s:/usr/bin:/bin", f.dir);
        snprintf(cc, sizeof cc, "CUGRADE_NVCC=%s", f.path[1]);
        char *env[] = {path, cc, NULL};
        char *argv[] = {"bench/gpu_context.sh", "1", NULL};
        run_result_t r = run_script(argv, env);
        if (!fail) {
            cr_assert_eq(status(&r), 0, "exit %d: %s", status(&r), r.output);
            assert_has(r, "16 on GPU 0                  n= 16  driver start ms: mean    5.0  "
                          "context ms: median    10.0");
            assert_has(r, "end ms: mean    1.5");
            assert_has(r, "on GPU 0                                   80 processes in");
            assert_has(r, "a second; round trips ms: median     2.0 mean     2.0 max     2.0");
            static const char *const modes[] = {"each", "reuse", "guards", "guards-reuse"};
            for (int m = 0; m < 4; m++) {
                char line[128];
                snprintf(line, sizeof line,
                         "lab 3 list runs (28 datasets a process, buffers and events: %s)",
                         modes[m]);
                assert_has(r, line);
            }
            run_result_free(&r);
            char *lists[] = {"bench/gpu_context.sh", "1", "lists", NULL};
            r = run_script(lists, env);
            cr_assert_eq(status(&r), 0, "exit %d: %s", status(&r), r.output);
            assert_lacks(r, "context ms");
            assert_lacks(r, "5 processes each");
            assert_has(r, "buffers and events: reuse), 16 workers a GPU, 5 each\non GPU 0 ");
            assert_has(r, "buffers and events: guards-reuse), 16 workers a GPU, 5 each\non GPU 0 ");
        } else if (fail == 2) {
            cr_assert_eq(status(&r), 1, "exit %d: %s", status(&r), r.output);
            assert_has(r, "printed no times");
            assert_lacks(r, "nan");
            assert_lacks(r, "a second");
        } else {
            cr_assert_eq(status(&r), 1, "exit %d: %s", status(&r), r.output);
            assert_has(r, "gpu_context: pretend failure");
            assert_has(r, "a process failed");
            assert_lacks(r, "a second");
        }
        run_result_free(&r);
    }
    rm_rf(f.dir);
}

/* bench/report_channel.sh prints the driver's three lines and the slowest,
 * checked: a missing driver is exit 2 and says how to build it; a driver
 * that fails, or prints a line without its seconds, fails the bench (exit 1)
 * with no "slowest" line. */
Test(bench, report_channel_sh_prints_checked_times_or_fails)
{
    fakes_t f = fakes();
    static const char *const lines = "distinct: 9 lines, 0.010 s of grader CPU (refused)\n"
                                     "repeated: 9 lines over 9 keys, 0.250 s of grader CPU (x)\n";
    const char *drivers[] = {
        "printf '%s'; echo 'findings: 100000 lines, 0.020 s of grader CPU (y)'",
        "echo 'report_channel: FAILED: distinct: not refused' >&2; exit 1",
        "printf '%s'; echo 'findings: 100000 lines, soon of grader CPU (y)'",
    };
    for (int i = 0; i < 3; i++) {
        strbuf_t sb = {0};
        sb_append(&sb, "#!/bin/sh\n");
        sb_appendf(&sb, drivers[i], lines);
        sb_append(&sb, "\n");
        char bin[200];
        snprintf(bin, sizeof bin, "REPORT_CHANNEL_BIN=%s", install_fake(&f, 0, "driver", &sb));
        char *env[] = {bin, NULL};
        char *argv[] = {"bench/report_channel.sh", "9", NULL};
        run_result_t r = run_script(argv, env);
        if (i == 0) {
            cr_assert_eq(status(&r), 0, "exit %d: %s", status(&r), r.output);
            assert_has(r, "repeated: 9 lines over 9 keys, 0.250 s of grader CPU (x)");
            assert_has(r, "slowest: 0.250 s of grader CPU (target: within 2 s)");
        } else {
            cr_assert_eq(status(&r), 1, "exit %d: %s", status(&r), r.output);
            assert_has(r, i == 1 ? "not refused" : "'findings' line has no time");
            assert_lacks(r, "slowest");
        }
        run_result_free(&r);
    }
    char *env[] = {"REPORT_CHANNEL_BIN=/nonexistent/report_channel", NULL};
    char *argv[] = {"bench/report_channel.sh", NULL};
    run_result_t r = run_script(argv, env);
    cr_assert_eq(status(&r), 2, "exit %d: %s", status(&r), r.output);
    assert_has(r, "run make build/bench/report_channel first");
    run_result_free(&r);
    rm_rf(f.dir);
}
