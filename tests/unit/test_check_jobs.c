/* test_check_jobs.c - which datasets the checked emulator build runs on the
 * gpu backend (grader/pipeline/check_jobs.h): the small ones, or the
 * smallest; never one whose GPU run did not end (an endless kernel spun the
 * emulator to its 30 s limit on each, 90 s of a batch worker a student). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/check_jobs.h"

#define SMALL 1000.0
#define BIG (4 * CHECK_FLOP_CAP)

static ds_job_t jobs[5];
static ds_run_t runs[5];

static void set_up(const double *flop, int n)
{
    memset(jobs, 0, sizeof jobs);
    memset(runs, 0, sizeof runs);
    for (int i = 0; i < n; i++) {
        jobs[i].flop = flop[i];
        snprintf(jobs[i].ref.name, sizeof jobs[i].ref.name, "%d", i);
        runs[i].job = &jobs[i];
        runs[i].started = 1;
        runs[i].result.exited = 1;
    }
}

static const char *names(const ds_job_t *picked, int k)
{
    static char buf[64];
    buf[0] = '\0';
    for (int i = 0; i < k; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? "," : "", picked[i].ref.name);
    return buf;
}

Test(check_jobs, the_small_datasets_or_else_the_smallest)
{
    double flop[] = {SMALL, BIG, SMALL * 2, BIG * 2};
    set_up(flop, 4);
    int k, left;
    ds_job_t *p = check_jobs_pick(jobs, runs, 4, &k, &left);
    cr_assert_str_eq(names(p, k), "0,2");
    cr_assert_eq(left, 0);
    free(p);
    double big[] = {BIG * 3, BIG, BIG * 2};
    set_up(big, 3);
    p = check_jobs_pick(jobs, NULL, 3, &k, &left);
    cr_assert_str_eq(names(p, k), "1", "no small one: the smallest");
    free(p);
}

Test(check_jobs, a_dataset_whose_gpu_run_did_not_end_is_left_out)
{
    double flop[] = {SMALL, SMALL * 2, SMALL * 3, BIG};
    set_up(flop, 4);
    runs[0].result = (run_result_t){.started = 1, .timed_out = 1};
    runs[2].result = (run_result_t){.budget_out = 1};
    int k, left;
    ds_job_t *p = check_jobs_pick(jobs, runs, 4, &k, &left);
    cr_assert_str_eq(names(p, k), "1");
    cr_assert_eq(left, 2);
    cr_assert(check_run_did_not_end(&runs[0]) && check_run_did_not_end(&runs[2]));
    cr_assert(!check_run_did_not_end(&runs[1]));
    free(p);
}

/* A crash ended the run: the checks may tell why (an index past an edge). */
Test(check_jobs, a_crashed_or_failed_run_is_still_checked)
{
    double flop[] = {SMALL, SMALL * 2};
    set_up(flop, 2);
    runs[0].result = (run_result_t){.started = 1, .signaled = 1, .term_signal = 11};
    runs[1].result = (run_result_t){.started = 1, .exited = 1, .exit_code = 3};
    int k, left;
    ds_job_t *p = check_jobs_pick(jobs, runs, 2, &k, &left);
    cr_assert_str_eq(names(p, k), "0,1");
    cr_assert_eq(left, 0);
    free(p);
}

Test(check_jobs, when_no_small_one_ended_the_smallest_that_ended)
{
    double flop[] = {SMALL, BIG * 2, BIG};
    set_up(flop, 3);
    runs[0].result = (run_result_t){.started = 1, .timed_out = 1};
    int k, left;
    ds_job_t *p = check_jobs_pick(jobs, runs, 3, &k, &left);
    cr_assert_str_eq(names(p, k), "2");
    cr_assert_eq(left, 1);
    free(p);
}

Test(check_jobs, none_ended_none_picked)
{
    double flop[] = {SMALL, BIG};
    set_up(flop, 2);
    runs[0].result = (run_result_t){.started = 1, .timed_out = 1};
    runs[1].result = (run_result_t){.budget_out = 1};
    int k, left;
    ds_job_t *p = check_jobs_pick(jobs, runs, 2, &k, &left);
    cr_assert_eq(k, 0);
    cr_assert_eq(left, 1, "one small one left out (the big one is not counted)");
    free(p);
}
