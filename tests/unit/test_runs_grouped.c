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

/* The stand-in driver at dir/driver: starts in start_s seconds. */
static void write_driver(char *path, size_t len, double start_s)
{
    snprintf(path, len, "%s/driver", dir);
    char text[1024], err[256];
    snprintf(text, sizeof text,
             "#!/bin/sh\n"
             "sleep %.2f\n"
             "if [ -n \"$CUGRADE_TURN_FDS\" ]; then\n"
             "    printf S >&5; c=$(dd bs=1 count=1 <&4 2>/dev/null); [ \"$c\" = G ] || exit 5\n"
             "fi\n"
             "printf '\\ncugrade-dataset-begin 0\\n'; printf '\\ncugrade-dataset-begin 0\\n' >&3\n"
             "kill -SEGV $$\n",
             start_s);
    cr_assert_eq(write_file_atomic(path, text, strlen(text), err, sizeof err), 0, "%s", err);
    chmod(path, 0755);
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

/* How many lane lists the grouped runs wrote next to the program. */
static int lanes_written(void)
{
    char pattern[128];
    snprintf(pattern, sizeof pattern, "%s/*.list.lane*", dir);
    glob_t gl;
    int n = glob(pattern, 0, NULL, &gl) == 0 ? (int)gl.gl_pathc : 0;
    globfree(&gl);
    return n;
}

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
