/* test_gpu_holds.c - a batch's GPU queues' logs read back (batch/gpu_holds.h):
 * the time held alone and by anyone, the timed runs' waits and the part of
 * them behind long shared holds, the longest named, on made-up logs. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch/gpu_holds.h"
#include "util/util.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-holds-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void) { rm_rf(dir); }

TestSuite(gpu_holds, .init = make_dir, .fini = remove_dir);

static void write_log(int gpu, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/gpu%d.holds", dir, gpu);
    cr_assert_eq(write_file_atomic(path, text, strlen(text), NULL, 0), 0);
}

#define near(a, b) (fabs((a) - (b)) < 1e-9)

/* A hung kernel's 10 s shared hold, a short one inside it, and a timed run
 * that asked at 12 and got the GPU at 20.5: 8 of its 8.5 s of waiting were
 * behind the long hold. */
Test(gpu_holds, a_timed_runs_wait_behind_a_long_shared_hold_is_told_apart)
{
    write_log(0, "9.0 10.0 20.0 S 11 s001\n"
                 "12.5 12.5 13.0 S 13 s003\n"
                 "not a line\n"
                 "5 4 3 S 1 backwards\n"
                 "12.0 20.5 21.0 X 12 s002\n");
    gpu_holds_t h;
    gpu_holds_read(dir, &h);
    cr_assert_eq(h.n, 1);
    const gpu_queue_use_t *u = &h.gpus[0];
    cr_assert_eq(u->gpu, 0);
    cr_assert_eq(u->shared, 2);
    cr_assert_eq(u->alone, 1);
    cr_assert(near(u->span_s, 12.0), "%g", u->span_s);
    cr_assert(near(u->alone_s, 0.5), "%g", u->alone_s);
    cr_assert(near(u->busy_s, 10.5), "%g", u->busy_s);
    cr_assert(near(u->waited_s, 8.5), "%g", u->waited_s);
    cr_assert(near(u->behind_long_s, 8.0), "%g", u->behind_long_s);
    cr_assert_eq(u->nlong, 1);
    cr_assert_str_eq(u->longest[0].label, "s001");
    char *text = gpu_holds_text(&h);
    cr_assert_str_eq(text, "GPU 0: 3 holds (2 shared, 1 alone) over 12.0 s; held alone 0.5 s (4%), "
                           "by anyone 10.5 s (88%); timed runs waited 8.5 s, 8.0 s of it while one "
                           "of 1 shared holds longer than 2 s was on (longest: s001 10.0 s)\n");
    free(text);
    json_object *j = gpu_holds_json(&h);
    cr_assert_str_eq(json_object_to_json_string(j),
                     "[ { \"gpu\": 0, \"shared_holds\": 2, \"alone_holds\": 1, \"span_s\": 12.0, "
                     "\"alone_s\": 0.5, \"busy_s\": 10.5, \"timed_waited_s\": 8.5, "
                     "\"behind_long_s\": 8.0, \"long_holds\": 1, \"longest\": [ { \"id\": \"s001\", "
                     "\"seconds\": 10.0 } ] } ]");
    json_object_put(j);
}

/* Two long holds at once count once in the wait; the five longest of seven
 * are named, the longest first; a second GPU has its own line. */
Test(gpu_holds, overlapping_long_holds_count_once_and_the_five_longest_are_named)
{
    write_log(0, "0 0 4 S 1 a4\n0 0 6 S 1 a6\n0 0 3 S 1 a3\n0 0 7 S 1 a7\n"
                 "0 0 5 S 1 a5\n0 0 2.5 S 1 a25\n0 0 1 S 1 short\n1 8 9 X 2 timed\n");
    write_log(1, "0 0 1 X 3 alone\n");
    gpu_holds_t h;
    gpu_holds_read(dir, &h);
    cr_assert_eq(h.n, 2);
    const gpu_queue_use_t *u = &h.gpus[0];
    cr_assert_eq(u->nlong, 6);
    cr_assert(near(u->behind_long_s, 6.0), "waited 1..8, long holds on until 7: %g",
              u->behind_long_s);
    const char *order[] = {"a7", "a6", "a5", "a4", "a3"};
    cr_assert_eq(u->nnamed, 5);
    for (int k = 0; k < 5; k++)
        cr_assert_str_eq(u->longest[k].label, order[k]);
    cr_assert_eq(h.gpus[1].gpu, 1);
    cr_assert_eq(h.gpus[1].nlong, 0);
    char *text = gpu_holds_text(&h);
    cr_assert(strstr(text, "\nGPU 1: 1 holds (0 shared, 1 alone) over 1.0 s; held alone 1.0 s "
                           "(100%), by anyone 1.0 s (100%); timed runs waited 0.0 s\n"), "%s", text);
    free(text);
}

Test(gpu_holds, no_log_is_nothing_to_say)
{
    gpu_holds_t h;
    gpu_holds_read("/nonexistent/queue", &h);
    cr_assert_eq(h.n, 0);
    cr_assert_null(gpu_holds_text(&h));
    cr_assert_null(gpu_holds_json(&h));
}
