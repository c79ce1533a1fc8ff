/* test_group.c - splitting the output of a grouped run (every dataset in one
 * process of the driver's list mode, labs/common/harness.h) at the driver's
 * markers: each dataset's own text and state, a dataset that never ended, the
 * watchdog's timeout, an output the runner cut, and lines that look like
 * markers but are the program's. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "run/group_split.h"
#include "run/runs.h"

/* The driver writes every marker as "\n" + line + "\n". */
#define BEGIN(k) "\ncugrade-dataset-begin " #k "\n"
#define END(k, wall) "\ncugrade-dataset-end " #k " " #wall "\n"
#define TIMEOUT(k) "\ncugrade-dataset-timeout " #k "\n"

static int split(const char *out, int cut, group_part_t *parts, int n)
{
    return group_split(out, strlen(out), cut, parts, n);
}

Test(group, every_dataset_that_ended_gets_its_own_text_and_time)
{
    group_part_t p[2];
    int ended = split(BEGIN(0) "hello 0\n" END(0, 0.250000) BEGIN(1) "hello 1\n" END(1, 1.5), 0, p, 2);
    cr_assert_eq(ended, 2);
    cr_assert_eq(p[0].state, GROUP_ENDED);
    cr_assert_eq(p[1].state, GROUP_ENDED);
    cr_assert_str_eq(p[0].output, "hello 0\n");
    cr_assert_str_eq(p[1].output, "hello 1\n");
    cr_assert_eq(p[1].output_len, 8);
    cr_assert_float_eq(p[0].wall_s, 0.25, 1e-9);
    cr_assert_float_eq(p[1].wall_s, 1.5, 1e-9);
    group_parts_free(p, 2);
}

Test(group, silent_datasets_and_text_without_a_final_newline_are_kept_exactly)
{
    group_part_t p[3];
    int ended = split(BEGIN(0) END(0, 0.1) BEGIN(1) "no newline" END(1, 0.1) BEGIN(2) "\n\n" END(2, 0.1),
                      0, p, 3);
    cr_assert_eq(ended, 3);
    cr_assert_str_eq(p[0].output, "");
    cr_assert_str_eq(p[1].output, "no newline");
    cr_assert_str_eq(p[2].output, "\n\n");
    group_parts_free(p, 3);
}

Test(group, the_dataset_without_an_end_marker_is_where_the_process_stopped)
{
    group_part_t p[3];
    int ended = split(BEGIN(0) "ok\n" END(0, 0.2) BEGIN(1) "cugrade: CUDA error after launch\n", 0, p, 3);
    cr_assert_eq(ended, 1);
    cr_assert_eq(p[0].state, GROUP_ENDED);
    cr_assert_eq(p[1].state, GROUP_STOPPED);
    cr_assert_eq(p[2].state, GROUP_NOT_BEGUN);
    cr_assert_str_eq(p[1].output, "cugrade: CUDA error after launch\n");
    group_parts_free(p, 3);
}

Test(group, the_watchdog_marker_times_out_its_dataset_and_no_other)
{
    group_part_t p[3];
    int ended = split(BEGIN(0) END(0, 0.2) BEGIN(1) "spinning\n" TIMEOUT(1), 0, p, 3);
    cr_assert_eq(ended, 1);
    cr_assert_eq(p[1].state, GROUP_TIMED_OUT);
    cr_assert_eq(p[2].state, GROUP_NOT_BEGUN);
    cr_assert_str_eq(p[1].output, "spinning\n");
    group_parts_free(p, 3);
}

Test(group, a_cut_output_leaves_every_dataset_after_the_last_end_marker_unknown)
{
    group_part_t p[3];
    int ended = split(BEGIN(0) "a\n" END(0, 0.2) BEGIN(1) "xxxxxxxxxxxx", 1, p, 3);
    cr_assert_eq(ended, 1);
    cr_assert_eq(p[0].state, GROUP_ENDED);
    cr_assert_str_eq(p[0].output, "a\n");
    cr_assert_eq(p[1].state, GROUP_LOST, "its end marker may lie past the cut: never passed blindly");
    cr_assert_eq(p[2].state, GROUP_LOST);
    group_parts_free(p, 3);
}

Test(group, an_end_marker_cut_in_the_middle_does_not_count)
{
    group_part_t p[2];
    int ended = split(BEGIN(0) END(0, 0.2) BEGIN(1) "x\n\ncugrade-dataset-end 1 0.", 1, p, 2);
    cr_assert_eq(ended, 1);
    cr_assert_eq(p[1].state, GROUP_LOST);
    group_parts_free(p, 2);
}

Test(group, an_output_cut_after_every_end_marker_loses_nothing)
{
    group_part_t p[2];
    int ended = split(BEGIN(0) END(0, 0.2) BEGIN(1) END(1, 0.3) "exit-time text cut he", 1, p, 2);
    cr_assert_eq(ended, 2);
    cr_assert_str_eq(p[1].output, "", "a cut tail is nobody's");
    group_parts_free(p, 2);
}

Test(group, no_marker_at_all_means_no_dataset_began)
{
    group_part_t p[2];
    cr_assert_eq(split("cugrade: cannot read the dataset list x\n", 0, p, 2), 0);
    cr_assert_eq(p[0].state, GROUP_NOT_BEGUN);
    cr_assert_eq(p[1].state, GROUP_NOT_BEGUN);
    group_parts_free(p, 2);
    cr_assert_eq(group_split(NULL, 0, 0, p, 2), 0);
    cr_assert_eq(p[0].state, GROUP_NOT_BEGUN);
    cr_assert_str_eq(p[0].output, "");
    group_parts_free(p, 2);
}

Test(group, lines_that_are_not_the_expected_marker_are_program_output)
{
    group_part_t p[2];
    const char *printed = "\ncugrade-dataset-end 1 0.5\n"     /* another dataset's */
                          "\ncugrade-dataset-begin 1\n"        /* out of order */
                          "\ncugrade-dataset-end 0 soon\n"     /* malformed time */
                          "\ncugrade-dataset-end 0 1.0 extra\n"
                          "\ncugrade-dataset-timeout 7\n"
                          "x cugrade-dataset-end 0 1.0\n";     /* not at a line's start */
    char out[1024];
    snprintf(out, sizeof out, "%s%s%s%s", BEGIN(0), printed, END(0, 0.2), BEGIN(1) END(1, 0.3));
    int ended = split(out, 0, p, 2);
    cr_assert_eq(ended, 2);
    cr_assert_str_eq(p[0].output, printed);
    cr_assert_float_eq(p[0].wall_s, 0.2, 1e-9);
    group_parts_free(p, 2);
}

/* The begin marker's own newline ends its line: a marker-like line printed
 * right after it does not start with a newline of the program's. */
Test(group, a_marker_printed_first_thing_in_a_dataset_is_program_output)
{
    group_part_t p[1];
    int ended = split(BEGIN(0) "cugrade-dataset-end 0 9.0\n" END(0, 0.2), 0, p, 1);
    cr_assert_eq(ended, 1);
    cr_assert_str_eq(p[0].output, "cugrade-dataset-end 0 9.0\n");
    cr_assert_float_eq(p[0].wall_s, 0.2, 1e-9);
    group_parts_free(p, 1);
}

Test(group, text_before_the_first_begin_and_after_the_last_end_is_kept)
{
    group_part_t p[2];
    int ended = split("static init\n" BEGIN(0) "a\n" END(0, 0.1) "between\n" BEGIN(1) "b\n" END(1, 0.1)
                      "at exit\n", 0, p, 2);
    cr_assert_eq(ended, 2);
    cr_assert_str_eq(p[0].output, "static init\na\n");
    cr_assert_str_eq(p[1].output, "between\nb\nat exit\n");
    group_parts_free(p, 2);
}

Test(group, a_timeout_after_an_end_the_program_printed_itself_wins)
{
    group_part_t p[2];
    int ended = split(BEGIN(0) END(0, 0.1) "then hangs\n" TIMEOUT(0), 0, p, 2);
    cr_assert_eq(ended, 0);
    cr_assert_eq(p[0].state, GROUP_TIMED_OUT);
    cr_assert_eq(p[1].state, GROUP_NOT_BEGUN);
    group_parts_free(p, 2);
}

Test(group, binary_output_with_nul_bytes_is_kept_whole)
{
    group_part_t p[1];
    const char out[] = BEGIN(0) "a\0b\n" END(0, 0.1);
    int ended = group_split(out, sizeof out - 1, 0, p, 1);
    cr_assert_eq(ended, 1);
    cr_assert_eq(p[0].output_len, 4);
    cr_assert_eq(memcmp(p[0].output, "a\0b\n", 4), 0);
    group_parts_free(p, 1);
}

Test(group, a_process_that_died_between_datasets_began_none_after)
{
    group_part_t p[3];
    int ended = split(BEGIN(0) END(0, 0.1) "dying\n", 0, p, 3);
    cr_assert_eq(ended, 1);
    cr_assert_eq(p[1].state, GROUP_NOT_BEGUN);
    cr_assert_eq(p[2].state, GROUP_NOT_BEGUN);
    cr_assert_str_eq(p[0].output, "dying\n");
    group_parts_free(p, 3);
}

/* A CUDA error that left the context usable ends only its dataset: it is
 * ended, with the status a single run would have exited with, and the next
 * dataset runs on in the same process. */
#define FAILED(k, wall, status) "\ncugrade-dataset-failed " #k " " #wall " " #status "\n"

Test(group, a_dataset_failed_by_a_cuda_error_ends_with_its_status_and_the_next_goes_on)
{
    group_part_t p[3];
    int ended = split(BEGIN(0) "cugrade: CUDA error after launch\n" FAILED(0, 0.01, 3)
                      BEGIN(1) "ok\n" END(1, 0.2) BEGIN(2) FAILED(2, 0.02, 3), 0, p, 3);
    cr_assert_eq(ended, 3);
    cr_assert_eq(p[0].state, GROUP_ENDED);
    cr_assert_eq(p[0].exit_code, 3);
    cr_assert_str_eq(p[0].output, "cugrade: CUDA error after launch\n");
    cr_assert_float_eq(p[0].wall_s, 0.01, 1e-9);
    cr_assert_eq(p[1].state, GROUP_ENDED);
    cr_assert_eq(p[1].exit_code, 0);
    cr_assert_eq(p[2].exit_code, 3);
    group_parts_free(p, 3);
}

/* Each of these lines, after dataset 0's begin, is the program's text: no
 * dataset ended, dataset 0 stopped in it. */
static void expect_programs_text(const char *const *bad, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char out[256];
        snprintf(out, sizeof out, "%s%s", BEGIN(0), bad[i]);
        group_part_t p[2];
        int ended = split(out, 0, p, 2);
        cr_assert_eq(ended, 0, "%s", bad[i]);
        cr_assert_eq(p[0].state, GROUP_STOPPED, "%s", bad[i]);
        cr_assert_str_eq(p[0].output, bad[i], "the line is the program's text");
        group_parts_free(p, 2);
    }
}

Test(group, a_malformed_failed_marker_is_the_programs_text)
{
    static const char *const bad[] = {
        "\ncugrade-dataset-failed 0 0.1\n",       /* no status */
        "\ncugrade-dataset-failed 0 0.1 0\n",     /* status 0 is no failure */
        "\ncugrade-dataset-failed 0 0.1 256\n",   /* not an exit status */
        "\ncugrade-dataset-failed 0 0.1 3 x\n",   /* something after it */
        "\ncugrade-dataset-failed 0 soon 3\n",    /* malformed time */
        "\ncugrade-dataset-failed 1 0.1 3\n",     /* another dataset's */
    };
    expect_programs_text(bad, sizeof bad / sizeof *bad);
}

/* The watchdog's marker after a dataset's end marker: the end was forged
 * (or raced the watchdog); the dataset timed out, with no status of its end. */
Test(group, a_timeout_after_a_failed_end_leaves_no_status)
{
    group_part_t p[2];
    int ended = split(BEGIN(0) FAILED(0, 0.01, 3) TIMEOUT(0), 0, p, 2);
    cr_assert_eq(ended, 0);
    cr_assert_eq(p[0].state, GROUP_TIMED_OUT);
    cr_assert_eq(p[0].exit_code, 0);
    cr_assert_eq(p[1].state, GROUP_NOT_BEGUN);
    group_parts_free(p, 2);
}

/* A crash of the student's own host code that the driver went past
 * (harness_crash.h): the dataset ended, killed by that signal, and the next
 * runs on in the same process. */
#define SIGNALLED(k, wall, signo) "\ncugrade-dataset-signal " #k " " #wall " " #signo "\n"

Test(group, a_dataset_ended_by_a_crash_carries_its_signal_and_the_next_goes_on)
{
    group_part_t p[3];
    int ended = split(BEGIN(0) "before the crash\n" SIGNALLED(0, 0.03, 11) BEGIN(1) "ok\n"
                      END(1, 0.2) BEGIN(2) SIGNALLED(2, 0.01, 8), 0, p, 3);
    cr_assert_eq(ended, 3);
    cr_assert_eq(p[0].state, GROUP_ENDED);
    cr_assert_eq(p[0].term_signal, 11);
    cr_assert_eq(p[0].exit_code, 0);
    cr_assert_str_eq(p[0].output, "before the crash\n");
    cr_assert_float_eq(p[0].wall_s, 0.03, 1e-9);
    cr_assert_eq(p[1].term_signal, 0);
    cr_assert_eq(p[2].term_signal, 8);
    group_parts_free(p, 3);
}

Test(group, a_malformed_signal_marker_is_the_programs_text)
{
    static const char *const bad[] = {
        "\ncugrade-dataset-signal 0 0.1\n",     /* no signal */
        "\ncugrade-dataset-signal 0 0.1 0\n",   /* signal 0 is none */
        "\ncugrade-dataset-signal 0 0.1 65\n",  /* not a signal */
        "\ncugrade-dataset-signal 0 0.1 11 x\n", /* something after it */
        "\ncugrade-dataset-signal 0 soon 11\n", /* malformed time */
        "\ncugrade-dataset-signal 1 0.1 11\n",  /* another dataset's */
    };
    expect_programs_text(bad, sizeof bad / sizeof *bad);
}

/* The watchdog's marker after a "signal" end: the dataset timed out (a kernel
 * the crash left running past the limit), with no signal of its end. */
Test(group, a_timeout_after_a_signal_end_leaves_no_signal)
{
    group_part_t p[2];
    int ended = split(BEGIN(0) SIGNALLED(0, 0.01, 11) TIMEOUT(0), 0, p, 2);
    cr_assert_eq(ended, 0);
    cr_assert_eq(p[0].state, GROUP_TIMED_OUT);
    cr_assert_eq(p[0].term_signal, 0);
    group_parts_free(p, 2);
}
