/* test_runs_separate.c - run/runs_separate.h: a dataset run in its own
 * process on a GPU (the canary's reference, a libwb program, a driver's
 * fallback) makes its CUDA context inside its clock, so the GPU's short
 * cap (lab 3: 3 s, for the list mode) is raised to SEPARATE_GPU_LIMIT_MIN_S
 * there, never above the dataset's own limit; without a cap (the emulator)
 * the limit is as prepared. A 1.5 s program stands for a slow start. */
#include <criterion/criterion.h>
#include <string.h>

#include "run/runs_separate.h"

static run_result_t run_slow_start(double prepared_limit, double own_limit, double cap,
                                   double *limit_used)
{
    static char *argv[] = {"/bin/sh", "-c", "sleep 1.5", NULL};
    ds_job_t job;
    memset(&job, 0, sizeof job);
    job.rule.time_limit_s = own_limit;
    ds_run_t run;
    memset(&run, 0, sizeof run);
    run.job = &job;
    run.started = 1;
    run.spec = (run_spec_t){.argv = argv, .timeout_s = prepared_limit};
    runs_how_t how = {.max_parallel = 1, .limit_cap = cap};
    int index = 0;
    runs_separately(&run, &index, 1, &how);
    *limit_used = run.spec.timeout_s;
    return run.result;
}

Test(runs_separately, on_a_gpu_a_short_cap_leaves_room_for_the_context, .timeout = 60)
{
    double used;
    run_result_t r = run_slow_start(1, 30, 1, &used);
    cr_assert(r.exited && r.exit_code == 0 && !r.timed_out, "the slow start was cut");
    cr_assert_float_eq(used, 10.0, 1e-12, "the limit the messages give");
    run_result_free(&r);

    r = run_slow_start(1, 5, 1, &used);
    cr_assert(r.exited && !r.timed_out);
    cr_assert_float_eq(used, 5.0, 1e-12, "never above the dataset's own limit");
    run_result_free(&r);
}

Test(runs_separately, without_a_cap_the_limit_is_as_prepared, .timeout = 60)
{
    double used;
    run_result_t r = run_slow_start(1, 30, 0, &used);
    cr_assert(r.timed_out, "a 1.5 s program under a 1 s limit ended");
    cr_assert_float_eq(used, 1.0, 1e-12);
    run_result_free(&r);
}
