/* test_gpu_choice.c - a submission takes the GPU with the fewest submissions
 * sitting on it (run/gpu_choice.h): ties go to its home GPU, a seat is held
 * until its process exits (a killed one frees it), no child process inherits
 * a seat, and the --gpu-choice text round-trips. Other submissions are
 * forked processes, as in a batch. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/gpu_choice.h"
#include "util/util.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-gpuc-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void) { rm_rf(dir); }

TestSuite(gpu_choice, .init = make_dir, .fini = remove_dir);

static gpu_choice_t choices[3] = {{.index = 0, .visible = "0"},
                                  {.index = 1, .visible = "1"},
                                  {.index = 2, .visible = "2"}};

/* A submission that chooses (from home) and then sits there until killed;
 * what it chose comes back on a pipe. */
static pid_t sitter(int home, int *chose)
{
    int p[2];
    cr_assert_eq(pipe(p), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        int k = gpu_choose(dir, choices, 3, home);
        if (write(p[1], &k, sizeof k) != sizeof k)
            _exit(1);
        pause();
        _exit(0);
    }
    close(p[1]);
    cr_assert_eq(read(p[0], chose, sizeof *chose), (ssize_t)sizeof *chose);
    close(p[0]);
    return pid;
}

static void kill_sitter(pid_t pid)
{
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

Test(gpu_choice, an_empty_queue_gives_the_home_gpu)
{
    int k;
    pid_t a = sitter(1, &k);
    cr_assert_eq(k, 1, "a tie goes home");
    cr_assert_eq(gpu_seats_taken(dir, 1), 1);
    cr_assert_eq(gpu_seats_taken(dir, 0), 0);
    kill_sitter(a);
}

Test(gpu_choice, each_goes_where_fewest_sit)
{
    pid_t pid[6];
    int k, seen[3] = {0};
    for (int i = 0; i < 6; i++) { /* everyone's home is GPU 0 */
        pid[i] = sitter(0, &k);
        seen[k]++;
    }
    cr_assert(seen[0] == 2 && seen[1] == 2 && seen[2] == 2, "seats %d %d %d", seen[0],
              seen[1], seen[2]);
    for (int g = 0; g < 3; g++)
        cr_assert_eq(gpu_seats_taken(dir, g), 2);
    /* GPU 1's two leave: the next two go there, home or not */
    int left = 0;
    for (int i = 0; i < 6; i++) {
        int g = (i % 3); /* the order they were given: 0,1,2,0,1,2 */
        if (g == 1) {
            kill_sitter(pid[i]);
            pid[i] = 0;
            left++;
        }
    }
    cr_assert_eq(left, 2);
    cr_assert_eq(gpu_seats_taken(dir, 1), 0, "a killed holder frees its seat");
    pid_t more[2];
    for (int i = 0; i < 2; i++) {
        more[i] = sitter(2, &k);
        cr_assert_eq(k, 1, "the emptied GPU is taken before home");
    }
    for (int i = 0; i < 6; i++)
        if (pid[i])
            kill_sitter(pid[i]);
    for (int i = 0; i < 2; i++)
        kill_sitter(more[i]);
}

Test(gpu_choice, a_run_of_the_submission_inherits_no_seat)
{
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        gpu_choose(dir, choices, 3, 2);
        /* what a dataset run does: exec another program, which lives on */
        execl("/bin/sh", "sh", "-c", "sleep 30", (char *)NULL);
        _exit(127);
    }
    usleep(300 * 1000); /* the shell has started */
    cr_assert_eq(gpu_seats_taken(dir, 2), 0, "the exec'd program kept the seat");
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

Test(gpu_choice, spec_round_trips_and_bad_ones_are_refused)
{
    gpu_choice_t c = {.index = 3, .visible = "GPU-8f6c1e2a-0000", .node = "/dev/nvidia3",
                      .baseline = "/out:with:colons/.perf-baseline/gpu3.report"};
    char text[PATH_MAX + 300], err[256];
    cr_assert_eq(gpu_choice_format(&c, text, sizeof text), 0);
    gpu_choice_t back;
    cr_assert_eq(gpu_choice_parse(text, &back, err, sizeof err), 0, "%s", err);
    cr_assert_eq(back.index, 3);
    cr_assert_str_eq(back.visible, c.visible);
    cr_assert_str_eq(back.node, c.node);
    cr_assert_str_eq(back.baseline, c.baseline);
    cr_assert_eq(gpu_choice_parse("1:1::", &back, err, sizeof err), 0, "no node, no baseline");
    cr_assert_str_eq(back.node, "");
    cr_assert_str_eq(back.baseline, "");
    const char *bad[] = {"1", "1:1:/dev/nvidia1", "x:1::", ":1::", "1:::", "-1:1::", NULL};
    for (int i = 0; bad[i]; i++) {
        cr_assert_eq(gpu_choice_parse(bad[i], &back, err, sizeof err), -1, "'%s' taken", bad[i]);
        cr_assert(strstr(err, "--gpu-choice") && strstr(err, bad[i]), "%s", err);
    }
}

Test(gpu_choice, apply_points_later_runs_at_the_gpu)
{
    gpu_choice_t a = {.index = 1, .visible = "1", .node = "/dev/nvidia1"}, b = {.visible = "0"};
    gpu_choice_apply(&a);
    cr_assert_str_eq(getenv("CUDA_VISIBLE_DEVICES"), "1");
    cr_assert_str_eq(getenv("CUGRADE_GPU_NODE"), "/dev/nvidia1");
    gpu_choice_apply(&b);
    cr_assert_str_eq(getenv("CUDA_VISIBLE_DEVICES"), "0");
    cr_assert_null(getenv("CUGRADE_GPU_NODE"), "a GPU without a device file shows none");
}

Test(gpu_choice, home_is_a_gpus_index_not_a_place_in_the_list)
{
    gpu_choice_t two[2] = {{.index = 1, .visible = "1"}, {.index = 3, .visible = "3"}};
    char fresh[128];
    snprintf(fresh, sizeof fresh, "%s/a", dir);
    cr_assert_eq(gpu_choose(fresh, two, 2, 3), 1, "GPU 3 is the list's second");
    snprintf(fresh, sizeof fresh, "%s/b", dir);
    cr_assert_eq(gpu_choose(fresh, two, 2, 7), 0, "no GPU 7: the list's first on a tie");
}

Test(gpu_choice, a_choice_that_would_not_read_back_is_not_written)
{
    gpu_choice_t c = {.index = 0, .visible = "GPU-a:b"};
    char text[PATH_MAX + 300];
    cr_assert_eq(gpu_choice_format(&c, text, sizeof text), -1);
    c = (gpu_choice_t){.index = 0, .visible = ""};
    cr_assert_eq(gpu_choice_format(&c, text, sizeof text), -1);
}
