/* test_gpu_turn.c - a timing program's turn on the GPU (run/gpu_turn.h)
 * with a stand-in program (a shell script speaking the protocol of
 * labs/common/timing.h over the descriptors it is given): it shares the GPU
 * after "S", has it alone between "R" and "D", and whatever way it
 * ends, the queue is left free. It holds nothing before it asks. The queue's locks are checked from inside
 * the program with flock(1), non-blocking: what another program would get. */
#include <criterion/criterion.h>

#include "run/gpuqueue.h"
#include "run/gpu_turn.h"
#include "util/util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], script[128];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-turn-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(script, sizeof script, "%s/timing.sh", dir);
}

static void remove_dir(void) { rm_rf(dir); }

TestSuite(gpu_turn, .init = make_dir, .fini = remove_dir);

/* Runs body as the program on GPU 0 of the queue in dir/q, with the run's
 * timeout and a time budget ending budget_s from now (0: none). */
static void run_budgeted(const char *body, double timeout_s, double budget_s, run_result_t *r,
                         gpu_turn_stats_t *st);

/* Runs body as the timing program on GPU 0 of the queue in dir/q. */
static void run_script(const char *body, run_result_t *r, gpu_turn_stats_t *st)
{
    run_budgeted(body, 30, 0, r, st);
}

/* Writes body as the executable script at path, with $Q the queue in dir/q
 * (GPU 0's lock file there, for flock(1) to look at). */
static void write_script(const char *path, const char *body)
{
    char text[4096], err[256];
    snprintf(text, sizeof text, "#!/bin/sh\nQ=%s/q\nmkdir -p $Q && touch $Q/gpu0.lock\n%s", dir,
             body);
    cr_assert_eq(write_file_atomic(path, text, strlen(text), err, sizeof err), 0, "%s", err);
    chmod(path, 0755);
}

static void run_budgeted(const char *body, double timeout_s, double budget_s, run_result_t *r,
                         gpu_turn_stats_t *st)
{
    char queue[128];
    snprintf(queue, sizeof queue, "%s/q", dir);
    write_script(script, body);
    char *argv[] = {script, NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = timeout_s,
                       .not_after = budget_s > 0 ? now_seconds() + budget_s : 0,
                       .budget_s = budget_s};
    cr_assert_eq(gpu_turn_run(queue, 0, &spec, r, st), 0);
    cr_assert_null(spec.extra_env, "the caller's spec is given back as it was");
    cr_assert_null(spec.paused_s, "the caller's spec is given back as it was");
}

/* No one holds GPU 0 of the queue any more: a timed run could start now. */
static void assert_queue_free(void)
{
    char queue[128], err[256];
    snprintf(queue, sizeof queue, "%s/q", dir);
    gpu_slot_t slot;
    cr_assert_eq(gpu_queue_try(queue, 0, GPU_EXCLUSIVE, &slot, err, sizeof err), 1,
                 "the queue is still held");
    gpu_queue_leave(&slot);
}

Test(gpu_turn, holds_nothing_at_start_shares_after_S_and_has_the_gpu_alone_between_R_and_D)
{
    run_result_t r;
    gpu_turn_stats_t st;
    run_script("flock -n -x $Q/gpu0.lock true || { echo 'start: held'; exit 4; }\n"
               "printf S >&5\n"
               "c=$(dd bs=1 count=1 <&4 2>/dev/null)\n"
               "[ \"$c\" = G ] || { echo \"no G for S: $c\"; exit 5; }\n"
               "flock -n -x $Q/gpu0.lock true && { echo 'setup: not shared'; exit 5; }\n"
               "flock -n -s $Q/gpu0.lock true || { echo 'setup: not shared'; exit 5; }\n"
               "printf R >&5\n"
               "c=$(dd bs=1 count=1 <&4 2>/dev/null)\n"
               "[ \"$c\" = G ] || { echo \"no G for R: $c\"; exit 6; }\n"
               "flock -n -s $Q/gpu0.lock true && { echo 'turn: not alone'; exit 7; }\n"
               "sleep 0.3\n"
               "printf D >&5\n"
               "sleep 0.2\n"
               "flock -n -x $Q/gpu0.lock true || { echo 'after D: still held'; exit 8; }\n"
               "echo done\n",
               &r, &st);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(st.turn_taken);
    cr_assert(st.exclusive_s >= 0.25 && st.exclusive_s < 5, "held alone %.3f s", st.exclusive_s);
    assert_queue_free();
    run_result_free(&r);
}

/* A lab driver's datasets: a shared turn around each, nothing held between. */
Test(gpu_turn, shared_turns_come_and_go_and_nothing_is_held_between_them)
{
    run_result_t r;
    gpu_turn_stats_t st;
    run_script("for i in 1 2 3; do\n"
               "  printf S >&5; c=$(dd bs=1 count=1 <&4 2>/dev/null); [ \"$c\" = G ] || exit 5\n"
               "  flock -n -x $Q/gpu0.lock true && { echo 'not shared'; exit 6; }\n"
               "  printf D >&5; sleep 0.1\n"
               "  flock -n -x $Q/gpu0.lock true || { echo 'held between'; exit 7; }\n"
               "done\n",
               &r, &st);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_eq(st.shares, 3);
    cr_assert_not(st.turn_taken);
    cr_assert(st.exclusive_s == 0);
    assert_queue_free();
    run_result_free(&r);
}

/* gpu_start: the program's start until its first request (its CUDA driver
 * and context, in a real one), 0 for one that never asks. */
Test(gpu_turn, a_programs_start_before_its_first_request_is_counted)
{
    run_result_t r;
    gpu_turn_stats_t st;
    run_script("sleep 0.4\nprintf S >&5; c=$(dd bs=1 count=1 <&4 2>/dev/null)\n"
               "sleep 1.6\nprintf D >&5\n",
               &r, &st);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(st.start_s >= 0.4 && st.start_s < 1.5, "start %.3f s: until the S only", st.start_s);
    run_result_free(&r);
    run_script("sleep 0.2\n", &r, &st);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(st.start_s == 0, "never asked, start %.3f s", st.start_s);
    run_result_free(&r);
}

Test(gpu_turn, a_D_without_a_hold_ends_the_listening)
{
    run_result_t r;
    gpu_turn_stats_t st;
    run_script("printf D >&5\nsleep 0.1\nprintf S >&5\n"
               "c=$(timeout 1 dd bs=1 count=1 <&4 2>/dev/null)\n"
               "[ -z \"$c\" ] || { echo \"granted after a bad request: $c\"; exit 9; }\n",
               &r, &st);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_eq(st.shares, 0);
    assert_queue_free();
    run_result_free(&r);
}

Test(gpu_turn, a_program_that_dies_before_its_turn_leaves_the_queue_free)
{
    run_result_t r;
    gpu_turn_stats_t st;
    run_script("exit 3\n", &r, &st);
    cr_assert(r.exited && r.exit_code == 3);
    cr_assert_not(st.turn_taken);
    cr_assert(st.exclusive_s == 0);
    assert_queue_free();
    run_result_free(&r);
}

Test(gpu_turn, a_program_that_dies_during_its_turn_leaves_the_queue_free)
{
    run_result_t r;
    gpu_turn_stats_t st;
    run_script("printf R >&5\nc=$(dd bs=1 count=1 <&4 2>/dev/null)\nkill -9 $$\n", &r, &st);
    cr_assert(r.signaled, "%s", r.output);
    cr_assert(st.turn_taken);
    assert_queue_free();
    run_result_free(&r);
}

Test(gpu_turn, a_program_that_sends_garbage_gets_no_turn)
{
    run_result_t r;
    gpu_turn_stats_t st;
    run_script("printf X >&5\nsleep 0.2\n"
               "flock -n -x $Q/gpu0.lock true || exit 9\n", &r, &st);
    cr_assert(r.exited && r.exit_code == 0, "nothing held: %s", r.output);
    cr_assert_not(st.turn_taken);
    assert_queue_free();
    run_result_free(&r);
}

Test(gpu_turn, without_a_queue_the_turn_is_given_at_once)
{
    run_result_t r;
    gpu_turn_stats_t st;
    char *argv[] = {"/bin/sh", "-c",
                    "printf R >&5; c=$(dd bs=1 count=1 <&4 2>/dev/null); [ \"$c\" = G ] || exit 6;"
                    " printf D >&5", NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 30};
    cr_assert_eq(gpu_turn_run(NULL, 0, &spec, &r, &st), 0);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(st.turn_taken);
    run_result_free(&r);
}

/* ---- the time budget counts only time with the GPU ------------------------ */

static gpu_slot_t held_alone;

static void *let_go_later(void *secs)
{
    usleep((useconds_t)(*(double *)secs * 1e6));
    gpu_queue_leave(&held_alone);
    return NULL;
}

/* Another program has the GPU alone for `secs` from now. */
static pthread_t hold_alone_for(double *secs)
{
    char queue[128], err[256];
    snprintf(queue, sizeof queue, "%s/q", dir);
    cr_assert_eq(gpu_queue_enter(queue, 0, GPU_EXCLUSIVE, &held_alone, err, sizeof err), 0, "%s",
                 err);
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, let_go_later, secs), 0);
    return th;
}

#define ASK_SHARED "sleep 0.2; printf S >&5; c=$(dd bs=1 count=1 <&4 2>/dev/null); " \
                   "[ \"$c\" = G ] || exit 5\n"

/* A budget of 0.8 s; the program starts (0.2 s) and then waits 1.5 s for
 * its turn behind a timed run: neither is the student's time, and its 0.3 s
 * of work with the GPU fits the budget. (Before, the waits counted: on an
 * H100 a correct driver waiting behind timed runs lost its last datasets to
 * "the budget was used up".) */
Test(gpu_turn, a_wait_for_the_gpu_is_not_counted_in_the_budget, .timeout = 20)
{
    double secs = 1.5;
    pthread_t th = hold_alone_for(&secs);
    run_result_t r;
    gpu_turn_stats_t st;
    run_budgeted(ASK_SHARED "sleep 0.3; printf D >&5; echo worked\n", 30, 0.8, &r, &st);
    pthread_join(th, NULL);
    cr_assert(r.exited && r.exit_code == 0 && !r.timed_out && !r.budget_out, "%s",
              r.output ? r.output : "");
    cr_assert(strstr(r.output, "worked"), "%s", r.output);
    cr_assert(st.paused_s >= 1.4 && st.paused_s < 10, "paused %.3f s", st.paused_s);
    cr_assert(st.waited_s >= 1.0, "waited %.3f s", st.waited_s);
    assert_queue_free();
    run_result_free(&r);
}

/* Holding the GPU past its budget: killed at the budget's end, as before. */
Test(gpu_turn, work_with_the_gpu_past_the_budget_is_stopped, .timeout = 20)
{
    run_result_t r;
    gpu_turn_stats_t st;
    double t0 = now_seconds();
    run_budgeted(ASK_SHARED "sleep 5; echo not-stopped\n", 30, 0.8, &r, &st);
    double took = now_seconds() - t0;
    cr_assert(r.timed_out && r.budget_out, "%s", r.output ? r.output : "");
    cr_assert(!strstr(r.output, "not-stopped"));
    cr_assert(took > 0.8 && took < 3, "stopped after %.2f s (budget 0.8 s, 0.2 s of start)", took);
    assert_queue_free();
    run_result_free(&r);
}

/* A program that never asks for the GPU (student code spinning before the
 * harness's first request) is stopped by its own time limit (its start is
 * credited to its budget for at most 10 s, START_CREDIT_MAX_S). */
Test(gpu_turn, a_program_that_never_asks_is_stopped_by_its_time_limit, .timeout = 20)
{
    run_result_t r;
    gpu_turn_stats_t st;
    double t0 = now_seconds();
    run_budgeted("sleep 6; echo not-stopped\n", 1.0, 0.3, &r, &st);
    double took = now_seconds() - t0;
    cr_assert(r.timed_out && !r.budget_out, "%s", r.output ? r.output : "");
    cr_assert(took >= 0.9 && took < 3, "stopped after %.2f s (limit 1 s)", took);
    run_result_free(&r);
}

/* ---- programs side by side: each one's hold ends with it ------------------- */

/* Runs the two bodies side by side (run_many), each with its own turns on
 * GPU 0 of the queue in dir/q, as a group's lanes do. */
static void run_side_by_side(const char *first, const char *second, run_result_t r[2])
{
    char queue[128], path[2][160];
    snprintf(queue, sizeof queue, "%s/q", dir);
    const char *bodies[2] = {first, second};
    run_spec_t specs[2];
    gpu_turns_t *turns[2];
    gpu_turn_stats_t st[2];
    char *argv[2][2];
    for (int i = 0; i < 2; i++) {
        snprintf(path[i], sizeof path[i], "%s/lane%d.sh", dir, i);
        write_script(path[i], bodies[i]);
        argv[i][0] = path[i];
        argv[i][1] = NULL;
        specs[i] = (run_spec_t){.argv = argv[i], .timeout_s = 30};
        turns[i] = gpu_turns_open(queue, 0, &st[i]);
        cr_assert_not_null(turns[i]);
        gpu_turns_give(turns[i], &specs[i]);
    }
    cr_assert_eq(run_many(specs, r, 2, 2), 0);
    for (int i = 0; i < 2; i++)
        gpu_turns_close(turns[i], &specs[i]);
}

#define CHECK_FREE_LATER(secs) "sleep " secs "\n" \
    "flock -n -x $Q/gpu0.lock true || { echo 'still held by the one that ended'; exit 8; }\n"

/* A lane that crashed while sharing the GPU (a CUDA error ending its
 * process) must not hold the GPU until every lane beside it ends: timed runs
 * of the whole batch would wait for the slowest lane. */
Test(gpu_turn, a_program_that_ends_holding_its_turn_frees_it_while_others_still_run,
     .timeout = 20)
{
    run_result_t r[2];
    run_side_by_side(ASK_SHARED "exit 1\n", CHECK_FREE_LATER("3"), r);
    cr_assert(r[0].exited && r[0].exit_code == 1, "%s", r[0].output);
    cr_assert(r[1].exited && r[1].exit_code == 0, "%s", r[1].output);
    assert_queue_free();
    for (int i = 0; i < 2; i++)
        run_result_free(&r[i]);
}

/* One that died waiting for its turn: the turn, when it comes, is let go. */
Test(gpu_turn, a_turn_granted_after_its_program_died_is_let_go_at_once, .timeout = 20)
{
    double secs = 0.8;
    pthread_t th = hold_alone_for(&secs);
    run_result_t r[2];
    run_side_by_side("printf S >&5\nexit 2\n", CHECK_FREE_LATER("3"), r);
    pthread_join(th, NULL);
    cr_assert(r[0].exited && r[0].exit_code == 2, "%s", r[0].output);
    cr_assert(r[1].exited && r[1].exit_code == 0, "%s", r[1].output);
    assert_queue_free();
    for (int i = 0; i < 2; i++)
        run_result_free(&r[i]);
}
