/* test_runner.c - child processes: exit codes, signals, the time limit that
 * kills the whole process group (grandchildren included), the output cap
 * that keeps the first bytes and counts the rest, several children at
 * once, and the CUDA default every child gets. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "run/runner.h"
#include "util/util.h"

static run_result_t run_sh(const char *script, double timeout_s, size_t cap)
{
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = timeout_s, .output_cap = cap};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

Test(runner, exit_code_and_output)
{
    run_result_t r = run_sh("echo out; echo err >&2; exit 3", 10, 0);
    cr_assert(r.started && r.exited && !r.signaled && !r.timed_out);
    cr_assert_eq(r.exit_code, 3);
    cr_assert(strstr(r.output, "out\n") && strstr(r.output, "err\n"), "%s", r.output);
    cr_assert(!r.output_truncated);
    run_result_free(&r);
}

Test(runner, a_crash_is_reported_with_its_signal)
{
    run_result_t r = run_sh("kill -SEGV $$", 10, 0);
    cr_assert(r.signaled && !r.exited && !r.timed_out);
    cr_assert_eq(r.term_signal, SIGSEGV);
    char why[128];
    char *argv[] = {"x", NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 1};
    run_describe(&r, &spec, why, sizeof why);
    cr_assert_str_eq(why, "crashed: killed by signal 11 (Segmentation fault)");
    run_result_free(&r);
}

Test(runner, the_time_limit_kills_the_whole_group, .timeout = 30)
{
    char marker[] = "/tmp/cugrade-runner-XXXXXX";
    int fd = mkstemp(marker);
    cr_assert_geq(fd, 0);
    close(fd);
    unlink(marker);
    char script[256];
    /* A grandchild that would create the marker after 3 s, and a parent that hangs. */
    snprintf(script, sizeof script, "(sleep 3; touch %s) & sleep 100", marker);
    double t0 = now_seconds();
    run_result_t r = run_sh(script, 1.0, 0);
    double took = now_seconds() - t0;
    cr_assert(r.timed_out && !r.exited && !r.signaled);
    cr_assert_lt(took, 5.0, "took %.1f s", took);
    sleep(4);
    cr_assert(!is_file(marker), "the grandchild survived the time limit");
    char *argv[] = {"x", NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 1};
    char why[128];
    run_describe(&r, &spec, why, sizeof why);
    cr_assert_str_eq(why, "exceeded the time limit of 1 s and was killed");
    run_result_free(&r);
}

Test(runner, output_is_capped_and_counted, .timeout = 60)
{
    run_result_t r = run_sh("head -c 5000000 /dev/zero | tr '\\0' x", 30, 1000);
    cr_assert(r.exited && r.exit_code == 0);
    cr_assert_eq(r.output_len, 1000);
    cr_assert_eq(r.output_total, 5000000);
    cr_assert(r.output_truncated);
    cr_assert_eq(strlen(r.output), 1000);
    run_result_free(&r);
}

Test(runner, runs_several_at_once_and_keeps_their_order, .timeout = 30)
{
    char *a[] = {"/bin/sh", "-c", "sleep 1; echo first", NULL};
    char *b[] = {"/bin/sh", "-c", "sleep 1; echo second; exit 1", NULL};
    char *c[] = {"/nonexistent/program", NULL};
    run_spec_t specs[] = {{.argv = a, .timeout_s = 10}, {.argv = b, .timeout_s = 10},
                          {.argv = c, .timeout_s = 10}};
    run_result_t res[3];
    double t0 = now_seconds();
    run_many(specs, res, 3, 3);
    double took = now_seconds() - t0;
    cr_assert_lt(took, 1.9, "ran one after another: %.1f s", took);
    cr_assert_str_eq(res[0].output, "first\n");
    cr_assert_str_eq(res[1].output, "second\n");
    cr_assert_eq(res[1].exit_code, 1);
    cr_assert(res[2].exited && res[2].exit_code == 127);
    cr_assert(strstr(res[2].output, "cannot run /nonexistent/program"), "%s", res[2].output);
    for (int i = 0; i < 3; i++)
        run_result_free(&res[i]);
}

/* The submission's time budget: a run that starts after it ended is not run,
 * a run still going when it ends is killed, each with its own reason. */
Test(runner, the_time_budget_stops_what_is_left)
{
    char *sleepy[] = {"/bin/sh", "-c", "sleep 30", NULL};
    char *quick[] = {"/bin/sh", "-c", "echo done", NULL};
    double t0 = now_seconds();
    run_spec_t specs[3] = {
        {.argv = sleepy, .timeout_s = 20, .not_after = t0 + 0.5, .budget_s = 0.5},
        {.argv = quick, .timeout_s = 20, .not_after = t0 + 0.5, .budget_s = 0.5},
        {.argv = quick, .timeout_s = 20},
    };
    run_result_t r[3];
    run_many(specs, r, 3, 1); /* one at a time: the sleeper uses up the budget */
    cr_assert(r[0].started && r[0].timed_out && r[0].budget_out);
    cr_assert_lt(r[0].wall_s, 10, "killed at the budget, not at its own 20 s limit");
    cr_assert(!r[1].started && r[1].budget_out, "started after the budget ended");
    cr_assert(r[2].started && r[2].exited && r[2].exit_code == 0, "no budget: runs");
    char why[256];
    run_describe(&r[0], &specs[0], why, sizeof why);
    cr_assert(strstr(why, "exceeded the time limit (the submission's budget of 0.5 s"), "%s", why);
    run_describe(&r[1], &specs[1], why, sizeof why);
    cr_assert(strstr(why, "was not run: the submission's time budget of 0.5 s"), "%s", why);
    for (int i = 0; i < 3; i++)
        run_result_free(&r[i]);
}

/* The rlimits of a spec reach the child and what it starts: an address
 * space too small for an allocation, a CPU-time limit that stops a busy
 * loop (SIGXCPU, named by run_describe), a file-size limit. */
Test(runner, memory_cpu_and_file_limits_reach_the_children, .timeout = 60)
{
    char *mem[] = {"/bin/sh", "-c", "dd if=/dev/zero of=/dev/null bs=200M count=1", NULL};
    char *cpu[] = {"/bin/sh", "-c", "while :; do :; done", NULL};
    char *file[] = {"/bin/sh", "-c", "head -c 2000000 /dev/zero > /tmp/cugrade-fsize-$$; "
                    "echo rc=$?; rm -f /tmp/cugrade-fsize-$$", NULL};
    run_spec_t specs[] = {
        {.argv = mem, .timeout_s = 30, .memory_limit_bytes = 64u << 20},
        {.argv = cpu, .timeout_s = 30, .cpu_limit_s = 1},
        {.argv = file, .timeout_s = 30, .file_limit_bytes = 1u << 20},
    };
    run_result_t r[3];
    run_many(specs, r, 3, 3);
    cr_expect(r[0].exit_code != 0 && strstr(r[0].output, "memory exhausted"), "%s", r[0].output);
    cr_expect(r[1].signaled && r[1].term_signal == SIGXCPU, "%s", r[1].output);
    cr_expect_lt(r[1].wall_s, 20, "not stopped by the CPU limit");
    char why[128];
    run_describe(&r[1], &specs[1], why, sizeof why);
    cr_expect_str_eq(why, "ran past its CPU-time limit of 1 s and was stopped");
    cr_expect(strstr(r[2].output, "rc=") && !strstr(r[2].output, "rc=0"), "%s", r[2].output);
    for (int i = 0; i < 3; i++)
        run_result_free(&r[i]);
}

/* stop_after_bytes: a child that prints without end is killed once past it,
 * not drained until its time limit. */
Test(runner, a_flood_of_output_is_stopped, .timeout = 30)
{
    char *argv[] = {"/bin/sh", "-c", "yes 'error: expected ; before }'", NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 20, .output_cap = 1000,
                       .stop_after_bytes = 1u << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.output_stopped && r.output_truncated, "%zu bytes", r.output_total);
    cr_assert_lt(r.wall_s, 10, "took %.1f s", r.wall_s);
    cr_assert_eq(r.output_len, 1000);
    cr_assert_gt(r.output_total, 1u << 20);
    char why[128];
    run_describe(&r, &spec, why, sizeof why);
    cr_assert_str_eq(why, "was stopped after printing more than 1048576 bytes");
    run_result_free(&r);
}

/* A compiler's spec lowers its priority (runner.h nice): the child's nice
 * value is the parent's plus spec.nice. */
Test(runner, nice_lowers_the_childs_priority)
{
    char *argv[] = {"/bin/sh", "-c", "cut -d' ' -f19 /proc/self/stat", NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 10, .nice = 5};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    errno = 0;
    int mine = getpriority(PRIO_PROCESS, 0);
    cr_assert_eq(atoi(r.output), mine + 5 > 19 ? 19 : mine + 5, "child nice %s", r.output);
    run_result_free(&r);
}

Test(runner, cuda_contexts_get_one_work_queue_unless_the_caller_says_otherwise)
{
    const char *script = "echo \"queues=$CUDA_DEVICE_MAX_CONNECTIONS\"";
    unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
    run_result_t r = run_sh(script, 10, 0);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_str_eq(r.output, "queues=1\n");
    cr_assert_null(getenv("CUDA_DEVICE_MAX_CONNECTIONS"), "set in the child only");
    run_result_free(&r);
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", "8", 1);
    r = run_sh(script, 10, 0);
    unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_str_eq(r.output, "queues=8\n");
    run_result_free(&r);
}

static void *cancel_soon(void *arg)
{
    usleep(200000);
    atomic_store((atomic_int *)arg, 1);
    return NULL;
}

/* Another thread's cancel stops a program (and what it started) at once,
 * long before its limit. */
Test(runner, a_cancel_from_another_thread_stops_the_program, .timeout = 30)
{
    atomic_int cancel;
    atomic_init(&cancel, 0);
    char *argv[] = {"/bin/sh", "-c", "sleep 20 & sleep 20", NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 25, .cancel = &cancel};
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, cancel_soon, &cancel), 0);
    double t0 = now_seconds();
    run_result_t r;
    run_one(&spec, &r);
    double took = now_seconds() - t0;
    pthread_join(t, NULL);
    cr_expect(took < 5, "took %.1f s", took);
    cr_expect(r.signaled && r.term_signal == SIGKILL && !r.timed_out, "signaled %d (%d)",
              r.signaled, r.term_signal);
    run_result_free(&r);
}

/* Two children joined by a pipe the parent made (as the vgpu backend joins
 * a program and its executor by a socket pair): with close_passed the
 * parent lets go of each end once its child holds it, so the reader sees
 * the end of the file when the writer ends, not when its time runs out. */
Test(runner, passed_descriptors_closed_in_the_parent_let_a_pair_see_each_others_end, .timeout = 30)
{
    int p[2];
    cr_assert_eq(pipe2(p, O_CLOEXEC), 0);
    char *reader[] = {"/bin/sh", "-c", "cat <&4 >/dev/null; echo reader saw the end", NULL};
    char *writer[] = {"/bin/sh", "-c", "echo hello >&4", NULL};
    run_spec_t specs[2] = {
        {.argv = reader, .timeout_s = 20, .pass_fds = &p[0], .npass_fds = 1, .close_passed = 1},
        {.argv = writer, .timeout_s = 20, .pass_fds = &p[1], .npass_fds = 1, .close_passed = 1},
    };
    run_result_t r[2];
    run_many(specs, r, 2, 2);
    cr_assert(r[0].exited && r[0].exit_code == 0 && !r[0].timed_out, "%s", r[0].output);
    cr_assert(strstr(r[0].output, "reader saw the end"), "%s", r[0].output);
    cr_assert_eq(fcntl(p[0], F_GETFD), -1, "the parent still holds the reading end");
    cr_assert_eq(fcntl(p[1], F_GETFD), -1, "the parent still holds the writing end");
    run_result_free(&r[0]);
    run_result_free(&r[1]);
}
