/* test_runs_grouped.c - run/runs_grouped.h on a GPU without a batch's queue
 * (a student's own `make grade`): a program that crashes on every dataset
 * where the list mode cannot go past it (in libc) still gets its own crash on
 * each, its datasets after two crashes run in lanes side by side, and the
 * processes' starts (each one's CUDA context) are not counted in the budget,
 * as in a batch. A shell script stands for the lab driver: a slow start, a
 * shared turn when it is given turns, then the first dataset of its list
 * begins and the process dies of SIGSEGV. */
#include <criterion/criterion.h>

#include "run/runs_grouped.h"
#include "util/util.h"

#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NDS 8

static char dir[64];

static void make_dir(void)
{
    setenv("CUGRADE_SANDBOX", "none", 1); /* the stand-in driver lives in the test's folder */
    snprintf(dir, sizeof dir, "/tmp/cugrade-grouped-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void) { rm_rf(dir); }

TestSuite(runs_grouped, .init = make_dir, .fini = remove_dir);

/* A stand-in driver's start: %.2f seconds (its CUDA context), then its
 * shared turn when it is given turns. */
#define STAND_IN_START                                                                     \
    "#!/bin/sh\n"                                                                           \
    "sleep %.2f\n"                                                                          \
    "if [ -n \"$CUGRADE_TURN_FDS\" ]; then\n"                                               \
    "    printf S >&5; c=$(dd bs=1 count=1 <&4 2>/dev/null); [ \"$c\" = G ] || exit 5\n"    \
    "fi\n"

/* Writes text to the stand-in driver at path, executable. */
static void install_driver(const char *path, const char *text)
{
    char err[256];
    cr_assert_eq(write_file_atomic(path, text, strlen(text), err, sizeof err), 0, "%s", err);
    chmod(path, 0755);
}

/* The stand-in driver at dir/driver: starts in start_s seconds. */
static void write_driver(char *path, size_t len, double start_s)
{
    snprintf(path, len, "%s/driver", dir);
    char text[1024];
    snprintf(text, sizeof text,
             STAND_IN_START
             "printf '\\ncugrade-dataset-begin 0\\n'; printf '\\ncugrade-dataset-begin 0\\n' >&3\n"
             "kill -SEGV $$\n",
             start_s);
    install_driver(path, text);
}

typedef struct {
    ds_job_t job;
    ds_run_t runs[NDS];
    int index[NDS];
    char program[128];
} case_t;

static void prepare(case_t *c)
{
    memset(c, 0, sizeof *c);
    for (int k = 0; k < NDS; k++) {
        ds_run_t *r = &c->runs[k];
        r->job = &c->job;
        r->started = 1;
        snprintf(r->dir, sizeof r->dir, "%s/run-%d", dir, k);
        snprintf(r->out_path, sizeof r->out_path, "%s/out-%d.bin", dir, k);
        snprintf(r->diag_path, sizeof r->diag_path, "%s/run-%d.report", dir, k);
        r->argv[0] = c->program;
        r->argv[1] = r->out_path;
        r->spec = (run_spec_t){.argv = r->argv, .timeout_s = 5};
        c->index[k] = k;
    }
}

/* Grades the case grouped under how (its lab, program and folders set
 * here); returns the wall time it took. */
static double run_case(case_t *c, runs_how_t *how)
{
    static lab_t lab;
    memset(&lab, 0, sizeof lab);
    snprintf(lab.style, sizeof lab.style, "kernel");
    how->lab = &lab;
    how->program = c->program;
    how->scratch = dir;
    how->prefix = "run";
    how->grouped = 1;
    group_t g;
    cr_assert_eq(group_open(&g, how), 0);
    double t0 = now_seconds();
    runs_grouped(c->runs, c->index, NDS, how, &g);
    return now_seconds() - t0;
}

/* How many files of the test's folder match pattern (below it). */
static int files_matching(const char *pattern)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, pattern);
    glob_t gl;
    int n = glob(path, 0, NULL, &gl) == 0 ? (int)gl.gl_pathc : 0;
    globfree(&gl);
    return n;
}

/* How many lane lists the grouped runs wrote next to the program. */
static int lanes_written(void) { return files_matching("*.list.lane*"); }

static void expect_each_crashed(const case_t *c)
{
    for (int k = 0; k < NDS; k++) {
        const run_result_t *r = &c->runs[k].result;
        cr_expect(r->signaled && r->term_signal == SIGSEGV && !r->budget_out && !r->timed_out,
                  "dataset %d: signaled %d (signal %d), budget out %d, timed out %d", k,
                  r->signaled, r->term_signal, r->budget_out, r->timed_out);
    }
}

static void free_case(case_t *c)
{
    for (int k = 0; k < NDS; k++)
        run_result_free(&c->runs[k].result);
}

/* 8 processes starting in 0.5 s each, one after another, would be 4 s
 * against a 2 s budget: the last datasets were "not run, the budget was
 * used up" on a lone GPU grading, never in a batch. */
Test(runs_grouped, on_a_gpu_without_a_queue_crashes_go_to_lanes_and_starts_are_not_the_budgets,
     .timeout = 60)
{
    case_t c;
    prepare(&c);
    write_driver(c.program, sizeof c.program, 0.5);
    runs_how_t how = {.max_parallel = 1, .on_gpu = 1, .budget_s = 2.0};
    how.not_after = now_seconds() + how.budget_s;
    double took = run_case(&c, &how);
    expect_each_crashed(&c);
    cr_expect_eq(lanes_written(), NDS - 2, "every dataset after the first two crashes in a lane");
    /* two groups, then 6 lanes 4 at a time: 4 starts of 0.5 s, not 8 */
    cr_expect(took < 3.5, "took %.2f s: the lanes did not run side by side", took);
    free_case(&c);
}

/* The emulator with one core: no lanes (they would not save time), every
 * crash its own still. */
Test(runs_grouped, off_a_gpu_with_one_core_crashes_run_one_after_another, .timeout = 60)
{
    case_t c;
    prepare(&c);
    write_driver(c.program, sizeof c.program, 0.0);
    runs_how_t how = {.max_parallel = 1};
    run_case(&c, &how);
    expect_each_crashed(&c);
    cr_expect_eq(lanes_written(), 0);
    free_case(&c);
}

/* ---- the retry started ahead of a time-out (runs_ahead.h) ---- */

/* A stand-in list driver: each dataset of its list begins; one whose number
 * is in hang runs to its limit and the watchdog's marker ends the process
 * (in a retry begun ahead, one in ahead_hang too); one in slow takes 1.5 s
 * first (past half the limit, within it), in a retry 0.3 s like the others
 * there, each traced in ahead-trace; the others write their process id to
 * their output and end. */
static double list_driver_start_s; /* each process's start (its CUDA context) */

static void write_list_driver(char *path, size_t len, const char *hang, const char *slow,
                              const char *ahead_hang)
{
    snprintf(path, len, "%s/driver", dir);
    char text[2048];
    snprintf(text, sizeof text,
             STAND_IN_START
             "k=0; tab=$(printf '\\t')\n"
             "while IFS=$tab read -r limit dash out; do\n"
             "    printf '\\ncugrade-dataset-begin %%d\\n' $k\n"
             "    printf '\\ncugrade-dataset-begin %%d\\n' $k >&3\n"
             "    n=${out##*/out-}; n=${n%%%%.bin*}\n"
             "    h=' %s '; case $out in *.ahead) h=\"$h %s \";; esac\n"
             "    case $h in *\" $n \"*) sleep $limit\n"
             "        printf '\\ncugrade-dataset-timeout %%d\\n' $k >&3; exit 124;; esac\n"
             "    case $out in *.ahead) echo $n >> %s/ahead-trace; sleep 0.3;;\n"
             "        *) case ' %s ' in *\" $n \"*) sleep 1.5;; esac;; esac\n"
             "    echo $$ > \"$out\"\n"
             "    printf '\\ncugrade-dataset-end %%d 0.001\\n' $k\n"
             "    printf '\\ncugrade-dataset-end %%d 0.001\\n' $k >&3\n"
             "    k=$((k+1))\n"
             "done < \"$2\"\n",
             list_driver_start_s, hang, ahead_hang, dir, slow);
    install_driver(path, text);
}

#define LIMIT_S 2.0

/* The case on a GPU (no queue), each dataset's limit LIMIT_S, two time-outs
 * at most (a GPU's rubric default), the retry begun at the share of the
 * limit ahead_at sets (CUGRADE_AHEAD_AT; NULL: the grader's own); the
 * stand-in told what to do. */
static const char *ahead_at;

static double run_ahead_case(case_t *c, const char *hang, const char *slow,
                             const char *ahead_hang, double budget_s)
{
    prepare(c);
    if (ahead_at)
        setenv("CUGRADE_AHEAD_AT", ahead_at, 1);
    else
        unsetenv("CUGRADE_AHEAD_AT");
    write_list_driver(c->program, sizeof c->program, hang, slow, ahead_hang);
    for (int k = 0; k < NDS; k++)
        c->runs[k].spec.timeout_s = LIMIT_S;
    runs_how_t how = {.max_parallel = 1, .on_gpu = 1, .timeouts_max = 2, .budget_s = budget_s};
    how.not_after = budget_s > 0 ? now_seconds() + budget_s : 0;
    return run_case(c, &how);
}

/* Who wrote dataset k's output (a process id), or "" when nobody did. */
static void writer(const case_t *c, int k, char *out, size_t len)
{
    char *text = read_file(c->runs[k].out_path, NULL, NULL, 0);
    snprintf(out, len, "%s", text ? text : "");
    free(text);
}

/* What a retry begun ahead wrote (its list, report and outputs) and left. */
static int ahead_files_left(void) { return files_matching("*.ahead") + files_matching("*/*.ahead"); }

static int ended_well(const run_result_t *r) { return r->exited && r->exit_code == 0; }

/* Datasets from..NDS-1 ended well, their outputs written by process pid. */
static void expect_written_by(const case_t *c, int from, const char *pid, const char *who)
{
    char w[32];
    for (int k = from; k < NDS; k++) {
        cr_expect(ended_well(&c->runs[k].result), "dataset %d", k);
        writer(c, k, w, sizeof w);
        cr_expect_str_eq(w, pid, "dataset %d written by the %s", k, who);
    }
}

/* A kernel that never ends: its second time-out comes a sixth of a limit
 * after the first (the retry began beside it), not a limit and a start
 * after, nor half a limit (the share before). */
Test(runs_grouped, a_hung_kernels_retry_begins_before_its_time_out, .timeout = 60)
{
    case_t c;
    ahead_at = NULL;
    double took = run_ahead_case(&c, "2 3 4 5 6 7", "", "", 0);
    for (int k = 0; k < 2; k++)
        cr_expect(ended_well(&c.runs[k].result), "dataset %d", k);
    cr_expect(c.runs[2].result.timed_out && c.runs[3].result.timed_out);
    for (int k = 4; k < NDS; k++)
        cr_expect(!c.runs[k].result.started && c.runs[k].result.budget_out,
                  "dataset %d: not run after two time-outs", k);
    cr_expect(took < (1 + 1.0 / 6) * LIMIT_S + 0.5,
              "took %.2f s: the retry began later than a sixth of the limit", took);
    free_case(&c);
}

/* CUGRADE_AHEAD_AT sets the share of the limit the retry waits for: at 0.9
 * the second time-out comes 0.9 of a limit after the first (3.8 s here); a
 * value that is not a share is not taken (the default's 2.3 s). */
static double hung_kernel_with_ahead_at(const char *share)
{
    ahead_at = share;
    case_t c;
    double took = run_ahead_case(&c, "2 3 4 5 6 7", "", "", 0);
    cr_expect(c.runs[2].result.timed_out && c.runs[3].result.timed_out);
    free_case(&c);
    return took;
}

Test(runs_grouped, the_retry_begins_at_the_share_of_the_limit_asked_for, .timeout = 60)
{
    double late = hung_kernel_with_ahead_at("0.9");
    cr_expect(late >= 1.85 * LIMIT_S, "took %.2f s at 0.9 of the limit", late);
    double bad = hung_kernel_with_ahead_at("0.9x");
    cr_expect(bad < 1.5 * LIMIT_S, "took %.2f s with a bad share: not the default", bad);
}

/* Hung on one dataset only: the retry begun ahead is the rest's grading;
 * its outputs moved into place, nothing of it left beside them. */
Test(runs_grouped, the_retry_begun_ahead_grades_the_rest, .timeout = 60)
{
    case_t c;
    run_ahead_case(&c, "2", "", "", 0);
    cr_expect(c.runs[2].result.timed_out);
    char first[32], retry[32];
    writer(&c, 0, first, sizeof first);
    writer(&c, 3, retry, sizeof retry);
    cr_expect(first[0] && retry[0] && strcmp(first, retry) != 0, "%s / %s", first, retry);
    expect_written_by(&c, 3, retry, "retry");
    cr_expect_eq(ahead_files_left(), 0);
    free_case(&c);
}

/* Slow but in time: the retry begun at half the limit is stopped and
 * forgotten (here it would hang: the grading does not wait for it); the
 * first process grades every dataset. */
Test(runs_grouped, a_slow_dataset_keeps_its_process_and_the_retry_is_forgotten, .timeout = 60)
{
    case_t c;
    double took = run_ahead_case(&c, "", "2", "3", 0);
    cr_expect(took < LIMIT_S + 0.5, "took %.2f s: the grading waited for the retry", took);
    char first[32];
    writer(&c, 0, first, sizeof first);
    expect_written_by(&c, 0, first, "first process");
    cr_expect_eq(ahead_files_left(), 0);
    free_case(&c);
}

/* The retry is stopped as soon as the dataset it was begun for ends, not
 * when the first process ends (on a GPU the first's timing would wait for
 * the retry's turn): a dataset 2 and a dataset 5 that each take 1.5 s, a
 * retry begun at 1 s whose datasets take 0.3 s each: stopped at 1.5 s it
 * began 2 of its 5, at the first's end (3 s) all 5. */
Test(runs_grouped, the_retry_stops_once_its_dataset_ends_in_time, .timeout = 60)
{
    case_t c;
    ahead_at = "0.5";
    run_ahead_case(&c, "", "2 5", "", 0);
    for (int k = 0; k < NDS; k++)
        cr_expect(ended_well(&c.runs[k].result), "dataset %d", k);
    char trace[128];
    snprintf(trace, sizeof trace, "%s/ahead-trace", dir);
    char *text = read_file(trace, NULL, NULL, 0);
    cr_assert_not_null(text, "no retry was begun");
    int begun = 0;
    for (const char *p = text; *p; p++)
        begun += *p == '\n';
    cr_expect(begun >= 1 && begun <= 3, "the retry began %d of its datasets:\n%s", begun, text);
    free(text);
    cr_expect_eq(ahead_files_left(), 0);
    free_case(&c);
}

/* The first process's start (1 s here, a CUDA context's) is not the
 * budget's: a retry after its time-out was credited it, and one begun ahead
 * is too. Budget 3 s; the first's datasets begin at 1 s, dataset 2 hangs;
 * the retry begins at 2 s, its datasets at 3 s, 0.3 s each: by 4.5 s, within
 * 3 + 1 + 1 s, not 3 + 1 s. */
Test(runs_grouped, a_retry_begun_ahead_is_not_charged_the_firsts_start, .timeout = 60)
{
    case_t c;
    list_driver_start_s = 1.0;
    ahead_at = "0.5";
    run_ahead_case(&c, "2", "", "", 3.0);
    list_driver_start_s = 0;
    cr_expect(c.runs[2].result.timed_out);
    for (int k = 3; k < NDS; k++)
        cr_expect(ended_well(&c.runs[k].result), "dataset %d: budget out %d", k,
                  c.runs[k].result.budget_out);
    free_case(&c);
}

/* The process's CPU seconds (the grader's threads), user and system. */
static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

/* A program that fills its report channel (48 MB of text, as a hostile one
 * could) and then spends 3 s in its first dataset, watched all that time:
 * each read of the watch takes only the new bytes, so the grader spends
 * well under a second of CPU (0.2 s here; reading and splitting the whole
 * report every 50 ms took 2.1 s). */
Test(runs_grouped, a_filled_report_channel_costs_the_watch_its_bytes_once, .timeout = 60)
{
    case_t c;
    prepare(&c);
    snprintf(c.program, sizeof c.program, "%s/driver", dir);
    char text[1024];
    snprintf(text, sizeof text,
             STAND_IN_START
             "head -c 48000000 /dev/zero | tr '\\000' x >&3\n"
             "k=0; tab=$(printf '\\t')\n"
             "while IFS=$tab read -r limit dash out; do\n"
             "    printf '\\ncugrade-dataset-begin %%d\\n' $k >&3\n"
             "    [ $k = 0 ] && sleep 3\n"
             "    echo $$ > \"$out\"\n"
             "    printf '\\ncugrade-dataset-end %%d 0.001\\n' $k >&3\n"
             "    k=$((k+1))\n"
             "done < \"$2\"\n",
             0.0);
    install_driver(c.program, text);
    for (int k = 0; k < NDS; k++)
        c.runs[k].spec.timeout_s = 30; /* no retry begins within the 3 s */
    runs_how_t how = {.max_parallel = 1, .on_gpu = 1, .timeouts_max = 2};
    double t0 = cpu_seconds();
    run_case(&c, &how);
    double spent = cpu_seconds() - t0;
    for (int k = 0; k < NDS; k++)
        cr_expect(ended_well(&c.runs[k].result), "dataset %d", k);
    cr_expect_lt(spent, 1.0, "the grader spent %.2f s of CPU", spent);
    free_case(&c);
}
