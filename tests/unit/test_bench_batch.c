/* test_bench_batch.c - bench/batch.sh and its judge bench/batch_verdicts.py
 * must not print a number they did not measure (the rules of test_bench.c):
 * against a pretend `cugrade batch` that grades right, grades wrong, grades
 * nothing, cannot grade one, fails, or is stopped at its deadline. */
#include "bench_fakes.h"

/* cugrade for batch.sh: `info` works; `batch` then does MODE:
 *   fails    exit 2 with a message
 *   nothing  exit 0 and the right summary, but writes no results.json
 *   wrong    a results.json for every student that no verdict accepts
 *   cannot   right results, but the summary says 1 could not grade
 *   crashed  s001's cugrade run crashed: NOT GRADED (a run.log, no
 *            results.json), the summary says so, exit 2
 *   right    a results.json for every student that every verdict accepts
 *   slow     the right results.json for the first student, then sleeps (a
 *            batch stopped by BENCH_DEADLINE_S)
 * `batch --merge` (after a stopped batch) prints a pretend "gpu:" line.
 * and the right summary for --resume. */
static const char *fake_batch_grader(fakes_t *f, const char *mode)
{
    strbuf_t sb = {0};
    sb_appendf(&sb,
               "#!/bin/sh\n"
               "mode=%s\n"
               "[ \"$1\" = info ] && { echo 'using: pretend'; exit 0; }\n"
               "[ $mode = fails ] && { echo 'cugrade batch: pretend failure'; exit 2; }\n"
               "[ \"$2\" = --merge ] && { echo 'gpu: GPU 0: pretend holds'; exit 0; }\n"
               FAKE_BATCH_ARGS
               "if [ $resume = 1 ]; then\n"
               "  echo \"batch: 0 graded, 0 re-scored, 0 could not grade, $n skipped (unchanged), 0 not written, 0.0 s\"; exit 0\n"
               "fi\n"
               "tests='{\"name\": \"dataset 0\", \"status\": \"passed\"}, {\"name\": \"race-free\", \"status\": \"passed\"}'\n"
               "[ $mode = wrong ] && tests='{\"name\": \"dataset 0\", \"status\": \"failed\"}'\n"
               "for d in \"$subs\"/*; do\n"
               "  [ $mode = nothing ] && break\n"
               "  mkdir -p \"$out/${d##*/}\"\n"
               "  echo \"{\\\"score\\\": 90, \\\"tests\\\": [$tests]}\" > \"$out/${d##*/}/results.json\"\n"
               "  if [ $mode = cannot ] && [ ${d##*/} = s001 ]; then\n"
               "    echo '{\"score\": 0, \"tests\": [{\"name\": \"grading\", \"status\": \"failed\", "
               "\"output\": \"could not grade: cugrade run crashed\"}], \"extra_data\": {\"batch_error\": "
               "\"crashed: killed by signal 11 (Segmentation fault)\"}}' > \"$out/s001/results.json\"\n"
               "    echo 'pretend: the last words of the grading' > \"$out/s001/run.log\"\n"
               "  fi\n"
               "  if [ $mode = crashed ] && [ ${d##*/} = s001 ]; then\n"
               "    rm \"$out/s001/results.json\"\n"
               "    printf 'cugrade: cannot grade: the grader itself crashed (signal 11, a bug)\\n"
               "bin/cugrade(+0x2d77f)[0x55b75de7777f]\\n' > \"$out/s001/run.log\"\n"
               "  fi\n"
               "  [ $mode = slow ] && exec sleep 60\n"
               "done\n"
               "if [ $mode = crashed ]; then\n"
               "  echo \"batch: $((n - 1)) graded, 0 re-scored, 0 could not grade, 0 skipped (unchanged), 0 not written, 0.1 s\"\n"
               "  echo 'batch: 1 submission(s) NOT GRADED because of a grader fault'; exit 2\n"
               "fi\n"
               "if [ $mode = cannot ]; then\n"
               "  echo \"batch: $((n - 1)) graded, 0 re-scored, 1 could not grade, 0 skipped (unchanged), 0 not written, 0.1 s\"\n"
               "else\n"
               "  echo \"batch: $n graded, 0 re-scored, 0 could not grade, 0 skipped (unchanged), 0 not written, 0.1 s\"\n"
               "fi\n",
               mode);
    return install_fake(f, 0, "cugrade", &sb);
}

/* Runs `bench/batch.sh 2` (a reference and a tile-32 student) with these binaries. */
static run_result_t run_batch_bench(const char *cugrade, const char *emucc, const char *lib)
{
    return run_bench_with("bench/batch.sh", "2", cugrade, emucc, lib);
}

/* ---- bench/batch.sh ----------------------------------------------------------- */

Test(bench, batch_sh_passes_with_a_pretend_batch_that_grades_right)
{
    fakes_t f = fakes();
    run_result_t r = run_batch_bench(fake_batch_grader(&f, "right"), fake_emucc(&f, ""), fake_lib(&f));
    cr_assert_eq(status(&r), 0, "exit %d: %s", status(&r), r.output);
    assert_has(r, "verdicts: all as expected");
    assert_has(r, "throughput: 2 submissions in ");
    /* when the results came: of 2, the 10% and 90% marks are both the first */
    assert_has(r, "results written, in s after the batch's start: #1 ");
    assert_has(r, ", #1 ");
    assert_has(r, ", #2 ");
    /* how busy the CPU was (/proc/stat), or that a batch this short was under a tick */
    assert_has(r, "\ncpu: ");
    run_result_free(&r);
    rm_rf(f.dir);
}

Test(bench, batch_sh_names_each_missing_binary)
{
    fakes_t f = fakes();
    const char *cugrade = fake_batch_grader(&f, "right"), *emucc = fake_emucc(&f, "");
    const char *lib = fake_lib(&f), *nowhere = in(&f, 4, "nowhere");
    const char *cases[][3] = {{nowhere, emucc, lib}, {cugrade, nowhere, lib}, {cugrade, emucc, nowhere}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run_result_t r = run_batch_bench(cases[i][0], cases[i][1], cases[i][2]);
        cr_assert_eq(status(&r), 2, "case %zu: exit %d: %s", i, status(&r), r.output);
        assert_has(r, "nowhere is missing: run make first");
        assert_lacks(r, "throughput");
        run_result_free(&r);
    }

    /* python3 (the verdict check): a PATH with bash and what lib.sh needs, no python3 */
    char *mk[] = {"/bin/sh", "-c",
                  "mkdir \"$1/path\" && for t in bash dirname basename; do "
                  "ln -s \"$(command -v $t)\" \"$1/path/$t\" || exit 1; done",
                  "sh", f.dir, NULL};
    run_result_t r = run_script(mk, NULL);
    cr_assert_eq(status(&r), 0, "%s", r.output);
    run_result_free(&r);
    char e[4][200];
    snprintf(e[0], sizeof e[0], "CUGRADE_BIN=%s", cugrade);
    snprintf(e[1], sizeof e[1], "EMUCC_BIN=%s", emucc);
    snprintf(e[2], sizeof e[2], "CUGRADE_EMU_LIB=%s", lib);
    snprintf(e[3], sizeof e[3], "PATH=%s/path", f.dir);
    char *env[] = {e[0], e[1], e[2], e[3], NULL};
    char *argv[] = {"bench/batch.sh", "2", NULL};
    r = run_script(argv, env);
    cr_assert_eq(status(&r), 2, "exit %d: %s", status(&r), r.output);
    assert_has(r, "python3 is missing");
    run_result_free(&r);
    rm_rf(f.dir);
}

Test(bench, batch_sh_refuses_a_bad_class_size)
{
    char *argv[] = {"bench/batch.sh", "0", NULL};
    run_result_t r = run_script(argv, NULL);
    cr_assert_eq(status(&r), 2, "exit %d: %s", status(&r), r.output);
    assert_has(r, "N must be a whole number >= 1, not '0'");
    run_result_free(&r);
}

/* The batch fails, grades nothing, grades wrong, or could not grade one:
 * exit 1, the reason, and no throughput. */
Test(bench, batch_sh_prints_no_throughput_when_the_batch_is_not_right)
{
    struct {
        const char *mode, *says;
    } cases[] = {
        {"fails", "FAILED: cugrade batch exited with status 2"},
        {"nothing", "FAILED: 0 of 2 submissions have a results.json (none for s000 s001)"},
        {"wrong", "verdicts NOT as expected: s000 (reference), s001 (tile32)"},
        {"cannot", "FAILED: the batch's summary is \"batch: 1 graded, 0 re-scored, 1 could not grade, 0 skipped "
                   "(unchanged), 0 not written\", not \"batch: 2 graded, 0 re-scored, 0 could not grade"},
        {"crashed", "FAILED: cugrade batch exited with status 2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        fakes_t f = fakes();
        run_result_t r = run_batch_bench(fake_batch_grader(&f, cases[i].mode), fake_emucc(&f, ""), fake_lib(&f));
        cr_assert_eq(status(&r), 1, "%s: exit %d: %s", cases[i].mode, status(&r), r.output);
        assert_has(r, cases[i].says);
        if (strcmp(cases[i].mode, "cannot") == 0) { /* which, why, and its log's end */
            assert_has(r, "could not grade s001 (tile32): crashed: killed by signal 11 "
                          "(Segmentation fault)\n    | pretend: the last words of the grading");
            assert_lacks(r, "could not grade s000");
        }
        if (strcmp(cases[i].mode, "crashed") == 0) { /* which, why, and its log */
            assert_has(r, "NOT GRADED s001 (tile32): cugrade: cannot grade: the grader itself "
                          "crashed (signal 11, a bug)\n    | cugrade: cannot grade:");
            assert_has(r, "    | bin/cugrade(+0x2d77f)");
            assert_lacks(r, "NOT GRADED s000");
        }
        assert_lacks(r, "throughput");
        assert_lacks(r, "submissions/minute");
        assert_lacks(r, "--resume):");
        run_result_free(&r);
        rm_rf(f.dir);
    }
}

/* A batch stopped at its deadline: the partial rate, and the verdicts of
 * the finished students (did a correct one lose points?), then exit 1. */
Test(bench, batch_sh_judges_the_finished_students_of_a_batch_stopped_at_its_deadline,
     .timeout = 60)
{
    fakes_t f = fakes();
    char e[4][200];
    snprintf(e[0], sizeof e[0], "CUGRADE_BIN=%s", fake_batch_grader(&f, "slow"));
    snprintf(e[1], sizeof e[1], "EMUCC_BIN=%s", fake_emucc(&f, ""));
    snprintf(e[2], sizeof e[2], "CUGRADE_EMU_LIB=%s", fake_lib(&f));
    char *env[] = {e[0], e[1], e[2], "BENCH_KEEP=", "BENCH_DEADLINE_S=3", NULL};
    char *argv[] = {"bench/batch.sh", "2", NULL};
    run_result_t r = run_script(argv, env);
    cr_assert_eq(status(&r), 1, "exit %d: %s", status(&r), r.output);
    assert_has(r, "stopped at the deadline: 1 of 2 submissions graded in ");
    assert_has(r, "judged: the 1 finished of 2");
    assert_has(r, "cores busy over the batch");
    assert_has(r, "reference           1          1       90.0");
    assert_has(r, "verdicts: all as expected");
    assert_has(r, "gpu: GPU 0: pretend holds"); /* from cugrade batch --merge */
    assert_has(r, "FAILED: the batch did not end within BENCH_DEADLINE_S=3 s");
    assert_lacks(r, "throughput");
    run_result_free(&r);
    rm_rf(f.dir);
}

/* bench/batch_verdicts.py on a class that class_script (sh, run in the
 * fakes' folder) writes: out/<id>/results.json and kinds.txt lines. */
static run_result_t judge_class(const fakes_t *f, const char *class_script)
{
    char cwd[PATH_MAX];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    strbuf_t sb = {0};
    sb_appendf(&sb, "set -e; cd %s; : > alone.txt; : > kinds.txt\n", f->dir);
    sb_append(&sb, class_script);
    sb_appendf(&sb, "python3 %s/bench/batch_verdicts.py out kinds.txt alone.txt\n", cwd);
    char *argv[] = {"/bin/sh", "-c", (char *)sb_str(&sb), NULL};
    run_result_t r = run_script(argv, NULL);
    sb_free(&sb);
    return r;
}

/* bench/batch_verdicts.py on a class timed on two GPUs: the speed ratio by
 * the GPU that timed it, and the card-to-card difference of the medians. */
Test(bench, batch_verdicts_shows_the_speed_ratio_by_the_gpu_that_timed_it)
{
    fakes_t f = fakes();
    run_result_t r = judge_class(&f,
        "for i in 0 1 2 3; do\n"
        "  mkdir -p out/s$i; echo \"s$i reference\" >> kinds.txt\n"
        "  g=$((i % 2)); ratio=$(echo \"1.0$i\")\n"
        "  printf '{\"score\": 90, \"extra_data\": {\"perf_ratio\": %s}, \"tests\": ["
        "{\"name\": \"dataset 0\", \"status\": \"passed\"}, "
        "{\"name\": \"race-free\", \"status\": \"passed\"}, "
        "{\"name\": \"performance\", \"status\": \"passed\", \"score\": 10, "
        "\"output\": \"timed alone on GPU %s for 0.20 s\"}]}' $ratio $g "
        "> out/s$i/results.json\n"
        "done\n");
    cr_assert_eq(status(&r), 0, "exit %d: %s", status(&r), r.output);
    assert_has(r, "speed ratio to the reference, reference: n=4 min 1.000 max 1.030 spread 0.030");
    assert_has(r, "speed ratio by the GPU that timed it, reference: GPU 0 n=2 median 1.010, "
                  "GPU 1 n=2 median 1.020; card to card 0.010");
    run_result_free(&r);
    rm_rf(f.dir);
}

/* bench/batch_verdicts.py shows the budget's margin: how long the dataset
 * runs of a submission held the GPU, over the submissions whose runs all
 * ended (an endless kernel's, cut at its limits, is left out). */
Test(bench, batch_verdicts_shows_the_gpu_time_of_the_runs_that_ended)
{
    fakes_t f = fakes();
    run_result_t r = judge_class(&f,
        "put() { mkdir -p out/$1; echo \"$1 $2\" >> kinds.txt\n"
        "  printf '{\"score\": 0, \"extra_data\": {\"phases\": "
        "{\"gpu_datasets_held\": %s}}, \"tests\": [{\"name\": \"dataset 0\", "
        "\"status\": \"%s\", \"output\": \"%s\"}]}' $3 $4 \"$5\" "
        "> out/$1/results.json; }\n"
        "put s0 tile32 0.8 passed ok\n"
        "put s1 tile32 1.6 passed ok\n"
        "put s2 endless_kernel 6.0 failed 'exceeded the time limit of 3 s'\n");
    cr_assert_eq(status(&r), 0, "exit %d: %s", status(&r), r.output);
    assert_has(r, "GPU held by the dataset runs of a submission none of whose runs hit a limit: "
                  "median 1.200 s, max 1.600 s over 2 (the rubric's gpu_budget_s caps them "
                  "together)");
    run_result_free(&r);
    rm_rf(f.dir);
}

/* The GPU programs' starts (gpu_start) are a part of the datasets and the
 * timing, shown beside the waits, not counted again in the phases' shares. */
Test(bench, batch_verdicts_shows_the_gpu_programs_starts_inside_the_phases)
{
    fakes_t f = fakes();
    run_result_t r = judge_class(&f,
        "put() { mkdir -p out/$1; echo \"$1 $2\" >> kinds.txt\n"
        "  printf '{\"score\": 0, \"extra_data\": {\"phases\": "
        "{\"datasets\": %s, \"timing\": 1.0, \"gpu_start\": %s}}, \"tests\": []}' $3 $4 "
        "> out/$1/results.json; }\n"
        "put s0 tile32 2.0 0.4\n"
        "put s1 tile32 4.0 0.8\n");
    cr_assert_eq(status(&r), 0, "exit %d: %s", status(&r), r.output);
    assert_has(r, "datasets          3.00  75.0%");
    assert_has(r, "timing            1.00  25.0%");
    assert_has(r, "gpu_start         0.60   (inside the phases above)");
    run_result_free(&r);
    rm_rf(f.dir);
}

/* bench/gpu_holds_split.py: a GPU's time from its queue's log, alone, drained
 * (shared while a timed run waits), shared and idle; given the batch's start,
 * when its first request and last release came after it; a folder without a
 * log is an error. */
Test(bench, gpu_holds_split_divides_a_gpus_time)
{
    fakes_t f = fakes();
    char cwd[PATH_MAX], script[3 * PATH_MAX + 512];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    snprintf(script, sizeof script,
             "set -e; cd %s; mkdir -p q empty\n"
             "printf '0.0 0.0 2.0 S 1 a\\n1.0 2.0 3.0 X 2 b\\n4.0 4.0 5.0 S 3 c\\n' > q/gpu0.holds\n"
             "python3 %s/bench/gpu_holds_split.py q\n"
             "python3 %s/bench/gpu_holds_split.py q -1.5\n"
             "if python3 %s/bench/gpu_holds_split.py empty; then echo 'empty: exit 0'; fi\n",
             f.dir, cwd, cwd, cwd);
    char *argv[] = {"/bin/sh", "-c", script, NULL};
    run_result_t r = run_script(argv, NULL);
    cr_assert_eq(status(&r), 0, "exit %d: %s", status(&r), r.output);
    assert_has(r, "gpu0: 3 holds over 5.0 s: alone 1.0 s (20%), drain 1.0 s (20%), "
                  "shared 2.0 s (40%), idle 1.0 s (20%)\n");
    assert_has(r, "idle 1.0 s (20%); from 1.5 s to 6.5 s after the batch's start\n");
    cr_assert_null(strstr(r.output, "empty: exit 0"), "%s", r.output);
    run_result_free(&r);
    rm_rf(f.dir);
}
