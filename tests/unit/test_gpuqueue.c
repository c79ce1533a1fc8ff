/* test_gpuqueue.c - the per-GPU timing queue: correctness runs share a GPU,
 * a timed run has it alone, a waiting timed run stops newcomers (no
 * starvation), GPUs are independent, and a holder that dies frees its place.
 * Other processes are simulated with fork(), as in a batch where every
 * `cugrade run` is its own process. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/gpuqueue.h"
#include "util/util.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-gpuq-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void) { rm_rf(dir); }

TestSuite(gpuqueue, .init = make_dir, .fini = remove_dir);

/* 1 entered (and left again), 0 busy. */
static int try_use(int gpu, gpu_use_t use)
{
    gpu_slot_t s;
    char err[256] = "";
    int rc = gpu_queue_try(dir, gpu, use, &s, err, sizeof err);
    cr_assert(rc >= 0, "%s", err);
    if (rc == 1)
        gpu_queue_leave(&s);
    return rc;
}

/* A child process that enters the queue, writes one byte to the pipe, and
 * holds its place until killed. */
static pid_t holder(int gpu, gpu_use_t use)
{
    int p[2];
    cr_assert_eq(pipe(p), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        gpu_slot_t s;
        char err[256];
        if (gpu_queue_enter(dir, gpu, use, &s, err, sizeof err) != 0)
            _exit(1);
        if (write(p[1], "x", 1) != 1)
            _exit(1);
        pause();
        _exit(0);
    }
    close(p[1]);
    char c;
    cr_assert_eq(read(p[0], &c, 1), 1, "the holder could not enter the queue");
    close(p[0]);
    return pid;
}

static void end(pid_t pid)
{
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

Test(gpuqueue, no_folder_means_no_queue)
{
    gpu_slot_t s;
    char err[64];
    cr_assert_eq(gpu_queue_enter(NULL, 0, GPU_EXCLUSIVE, &s, err, sizeof err), 0);
    cr_assert_eq(gpu_queue_enter("", 0, GPU_EXCLUSIVE, &s, err, sizeof err), 0);
    gpu_queue_leave(&s);
}

Test(gpuqueue, correctness_runs_share_the_gpu)
{
    pid_t a = holder(0, GPU_SHARED);
    cr_assert_eq(try_use(0, GPU_SHARED), 1, "a second correctness run must be let in");
    cr_assert_eq(try_use(0, GPU_EXCLUSIVE), 0, "a timed run must wait for correctness runs");
    end(a);
    cr_assert_eq(try_use(0, GPU_EXCLUSIVE), 1);
}

Test(gpuqueue, a_timed_run_has_the_gpu_alone)
{
    pid_t a = holder(0, GPU_EXCLUSIVE);
    cr_assert_eq(try_use(0, GPU_SHARED), 0);
    cr_assert_eq(try_use(0, GPU_EXCLUSIVE), 0);
    end(a);
    cr_assert_eq(try_use(0, GPU_SHARED), 1, "a killed holder must free its place");
}

Test(gpuqueue, gpus_are_independent)
{
    pid_t a = holder(0, GPU_EXCLUSIVE);
    cr_assert_eq(try_use(1, GPU_EXCLUSIVE), 1, "GPU 1 has its own queue");
    end(a);
}

/* A child process that waits for the GPU alone on GPU 0, then writes "y"
 * to the pipe whose reading end *got is (or "n" when the queue failed) and
 * leaves; returns once it holds the gate (newcomers are refused). */
static pid_t waiting_timed_run(int *got)
{
    int p[2];
    cr_assert_eq(pipe(p), 0);
    pid_t writer = fork();
    cr_assert(writer >= 0);
    if (writer == 0) {
        gpu_slot_t s;
        char err[256];
        int ok = gpu_queue_enter(dir, 0, GPU_EXCLUSIVE, &s, err, sizeof err) == 0;
        _exit(write(p[1], ok ? "y" : "n", 1) == 1 ? 0 : 1);
    }
    close(p[1]);
    *got = p[0];
    int gated = 0; /* wait (bounded) until the writer has taken the gate */
    for (int i = 0; i < 500 && !gated; i++) {
        gated = try_use(0, GPU_SHARED) == 0;
        if (!gated)
            usleep(10000);
    }
    cr_assert(gated, "a newcomer got in while a timed run was waiting");
    return writer;
}

/* The timed run's answer: it must have got the GPU. */
static void expect_timed_run_served(pid_t writer, int got, const char *why)
{
    char c = 0;
    cr_assert_eq(read(got, &c, 1), 1);
    cr_assert_eq(c, 'y', "%s", why);
    close(got);
    waitpid(writer, NULL, 0);
}

/* A timed run waiting behind a correctness run holds the gate: a correctness
 * run arriving after it must wait too, so timing is never starved. */
Test(gpuqueue, a_waiting_timed_run_goes_before_newcomers)
{
    pid_t reader = holder(0, GPU_SHARED);
    int got;
    pid_t writer = waiting_timed_run(&got);
    end(reader);
    expect_timed_run_served(writer, got,
                            "the timed run must get the GPU once the correctness run is gone");
    cr_assert_eq(try_use(0, GPU_SHARED), 1, "the queue must be free after the timed run");
}

/* Behind a correctness run that holds on (a kernel spinning to its time
 * limit), a waiting timed run does not stop everyone else: after a second
 * it lets newcomers through now and then, and still gets the GPU alone once
 * the long hold ends. */
Test(gpuqueue, a_long_shared_hold_does_not_stop_newcomers_for_long, .timeout = 30)
{
    pid_t hung = holder(0, GPU_SHARED);
    int got;
    pid_t writer = waiting_timed_run(&got);
    double t0 = now_seconds();
    int let_in = 0;
    while (!let_in && now_seconds() - t0 < 3.0) {
        let_in = try_use(0, GPU_SHARED) == 1;
        if (!let_in)
            usleep(2000);
    }
    cr_expect(let_in, "no newcomer got through in 3 s behind a hold that never ends");
    cr_expect_geq(now_seconds() - t0, 0.5, "the gate opened before the drain had its second");
    end(hung);
    expect_timed_run_served(writer, got, "the timed run must get the GPU once the long hold is gone");
}

Test(gpuqueue, an_unusable_folder_is_an_error)
{
    gpu_slot_t s;
    char err[256] = "";
    cr_assert_eq(gpu_queue_enter("/proc/cugrade-no", 0, GPU_SHARED, &s, err, sizeof err), -1);
    cr_assert(strstr(err, "/proc/cugrade-no"), "%s", err);
}

/* The queue's log: one line a hold that ended, in order of the leaves, with
 * its times (requested <= granted <= released), its use, its process and
 * the label of $CUGRADE_QUEUE_LABEL (blanks made '_'); a hold that never
 * began writes nothing. */
Test(gpuqueue, every_hold_that_ends_is_logged_with_its_times_use_and_label)
{
    char err[256], path[128];
    gpu_slot_t shared, alone, never = {.gate_fd = -1, .lock_fd = -1};
    setenv("CUGRADE_QUEUE_LABEL", "s012 x", 1);
    double t0 = now_seconds();
    cr_assert_eq(gpu_queue_enter(dir, 1, GPU_SHARED, &shared, err, sizeof err), 0, "%s", err);
    usleep(100000);
    gpu_queue_leave(&shared);
    unsetenv("CUGRADE_QUEUE_LABEL");
    cr_assert_eq(gpu_queue_enter(dir, 1, GPU_EXCLUSIVE, &alone, err, sizeof err), 0, "%s", err);
    gpu_queue_leave(&alone);
    gpu_queue_leave(&alone); /* twice: one line */
    gpu_queue_leave(&never);
    double t1 = now_seconds();
    snprintf(path, sizeof path, "%s/gpu1.holds", dir);
    char *log = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(log, "no log at %s", path);
    double req[2], got[2], rel[2];
    char use[2];
    int pid[2], n = 0;
    char label[2][64];
    for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n"), n++) {
        cr_assert(n < 2, "more than two lines:\n%s", log);
        cr_assert_eq(sscanf(line, "%lf %lf %lf %c %d %63s", &req[n], &got[n], &rel[n], &use[n],
                            &pid[n], label[n]), 6, "%s", line);
        /* printed to the microsecond: within one of the clock read here */
        cr_assert(t0 - 1e-6 <= req[n] && req[n] <= got[n] && got[n] <= rel[n] &&
                  rel[n] <= t1 + 1e-6, "%s", line);
        cr_assert_eq(pid[n], getpid());
    }
    cr_assert_eq(n, 2);
    cr_assert(use[0] == 'S' && use[1] == 'X');
    cr_assert_str_eq(label[0], "s012_x");
    cr_assert_str_eq(label[1], "-");
    cr_assert(rel[0] - got[0] >= 0.09, "held %.3f s", rel[0] - got[0]);
    free(log);
}
