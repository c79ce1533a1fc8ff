/* test_group.c - splitting the output of a grouped run (every dataset in one
 * process of the driver's list mode, labs/common/harness.h) at the driver's
 * markers: each dataset's own text and state, a dataset that never ended, the
 * watchdog's timeout, an output the runner cut, and lines that look like
 * markers but are the program's; and the watch of a running process (the
 * same states from the text fed as it grows, read from a file as it
 * grows). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* ---- the watch: the same states from a text fed as it grows ---------------------- */

/* Texts of the cases above (and more), as a process writes them. */
static const char *const watched[] = {
    BEGIN(0) "hello 0\n" END(0, 0.250000) BEGIN(1) "hello 1\n" END(1, 1.5),
    BEGIN(0) END(0, 0.1) BEGIN(1) "no newline" END(1, 0.1) BEGIN(2) "\n\n" END(2, 0.1),
    BEGIN(0) "ok\n" END(0, 0.2) BEGIN(1) "cugrade: CUDA error after launch\n",
    BEGIN(0) END(0, 0.2) BEGIN(1) "spinning\n" TIMEOUT(1) BEGIN(2) END(2, 0.1),
    BEGIN(0) "\ncugrade-dataset-end 1 0.5\n\ncugrade-dataset-begin 1\n\ncugrade-dataset-end 0 "
             "soon\n\ncugrade-dataset-end 0 1.0 extra\n\ncugrade-dataset-timeout 7\nx "
             "cugrade-dataset-end 0 1.0\n" END(0, 0.2) BEGIN(1) END(1, 0.3),
    BEGIN(0) "cugrade-dataset-end 0 9.0\n" END(0, 0.2),
    "static init\n" BEGIN(0) "a\n" END(0, 0.1) "between\n" BEGIN(1) "b\n" END(1, 0.1) "at exit\n",
    BEGIN(0) END(0, 0.1) "then hangs\n" TIMEOUT(0),
    BEGIN(0) "cugrade: CUDA error\n" FAILED(0, 0.01, 3) BEGIN(1) "ok\n" END(1, 0.2) BEGIN(2)
        FAILED(2, 0.02, 3),
    BEGIN(0) FAILED(0, 0.01, 3) TIMEOUT(0),
    BEGIN(0) "before\n" SIGNALLED(0, 0.03, 11) BEGIN(1) END(1, 0.2) BEGIN(2) SIGNALLED(2, 0.01, 8),
    BEGIN(0) "\ncugrade-dataset-signal 0 0.1 65\n\ncugrade-dataset-failed 0 0.1 256\n"
             "\ncugrade-dataset-end 0 0.10000000000000000000000000000000000000000000000000000000000000001\n"
             END(0, 0.2),
    BEGIN(0) "\ncugrade-dataset-\ncugrade-dataset-\n\ncugrade-dataset-end 0" END(0, 0.3),
    "\n\n\n" BEGIN(0) "\n" END(0, 0.1) "\n" BEGIN(1) "\n",
};

/* Feeds text[0..len) in chunks of `step` bytes (0: growing 1, 2, 3, ...). */
static void feed_in_chunks(group_watch_t *w, const char *text, size_t len, size_t step)
{
    size_t next = 1;
    for (size_t at = 0; at < len;) {
        size_t n = step ? step : next++;
        if (n > len - at)
            n = len - at;
        group_watch_feed(w, text + at, n);
        at += n;
    }
}

/* The watch fed text[0..len) says what group_split says of it (not cut). */
static void expect_same_states(const char *text, size_t len, size_t step)
{
    enum { N = 3 };
    group_part_t p[N];
    group_split(text, len, 0, p, N);
    group_watch_t w;
    cr_assert_eq(group_watch_init(&w, N), 0);
    feed_in_chunks(&w, text, len, step);
    for (int k = 0; k < N; k++) {
        cr_assert_eq(group_watch_state(&w, k), p[k].state, "dataset %d of %zu bytes of:\n%s", k,
                     len, text);
        cr_assert(!(fabs(w.parts[k].wall_s - p[k].wall_s) > 0), "dataset %d", k);
        cr_assert_eq(w.parts[k].exit_code, p[k].exit_code);
        cr_assert_eq(w.parts[k].term_signal, p[k].term_signal);
    }
    cr_assert_eq(w.taken, len);
    cr_assert_leq(w.pending.len, 128, "the watch keeps at most a marker line");
    group_watch_free(&w);
    group_parts_free(p, N);
}

/* Every prefix of every text, fed a byte at a time, in growing chunks and
 * whole: the states of the text so far, as group_split gives them. */
Test(group, a_watch_fed_any_prefix_in_any_chunks_has_group_splits_states)
{
    for (size_t t = 0; t < sizeof watched / sizeof *watched; t++) {
        size_t len = strlen(watched[t]);
        for (size_t prefix = 0; prefix <= len; prefix++)
            for (size_t step = 0; step <= 3; step++)
                expect_same_states(watched[t], prefix, step == 3 ? len + 1 : step);
    }
}

/* Megabytes of the program's text without a marker: the watch keeps none of
 * it, and still sees the marker after it. */
Test(group, a_watch_keeps_nothing_of_long_text)
{
    group_watch_t w;
    cr_assert_eq(group_watch_init(&w, 2), 0);
    group_watch_feed(&w, BEGIN(0), strlen(BEGIN(0)));
    char junk[4096];
    memset(junk, 'x', sizeof junk);
    for (int i = 0; i < 1024; i++) {
        junk[i % sizeof junk] = i % 3 ? 'x' : '\n';
        group_watch_feed(&w, junk, sizeof junk);
        cr_assert_leq(w.pending.len, 128);
    }
    cr_assert_eq(group_watch_state(&w, 0), GROUP_STOPPED);
    group_watch_feed(&w, END(0, 0.5), strlen(END(0, 0.5)));
    cr_assert_eq(group_watch_state(&w, 0), GROUP_ENDED);
    cr_assert_float_eq(w.parts[0].wall_s, 0.5, 1e-12);
    cr_assert_eq(group_watch_state(&w, 1), GROUP_NOT_BEGUN);
    group_watch_free(&w);
}

static void append_to(const char *path, const char *text)
{
    FILE *f = fopen(path, "a");
    cr_assert_not_null(f);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

/* A report channel read as it grows: only its new bytes each time; a file
 * replaced (the timing tail cut off by a rename) or gone starts again. */
Test(group, a_watched_file_is_read_from_where_the_last_read_ended)
{
    char path[] = "/tmp/cugrade-watch-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    group_watch_t w;
    cr_assert_eq(group_watch_init(&w, 2), 0);
    group_watch_read(&w, path);
    cr_assert_eq(group_watch_state(&w, 0), GROUP_NOT_BEGUN);
    append_to(path, BEGIN(0) "\ncugrade-dataset-end 0 0.");
    group_watch_read(&w, path);
    cr_assert_eq(group_watch_state(&w, 0), GROUP_STOPPED);
    append_to(path, "25\n" BEGIN(1));
    group_watch_read(&w, path);
    cr_assert_eq(w.taken, strlen(BEGIN(0) "\ncugrade-dataset-end 0 0.25\n" BEGIN(1)));
    cr_assert_eq(group_watch_state(&w, 0), GROUP_ENDED);
    cr_assert_float_eq(w.parts[0].wall_s, 0.25, 1e-12);
    cr_assert_eq(group_watch_state(&w, 1), GROUP_STOPPED);

    char err[256], other[sizeof path + 8];
    snprintf(other, sizeof other, "%s.new", path);
    const char *again = BEGIN(0);
    cr_assert_eq(write_file_atomic(other, again, strlen(again), err, sizeof err), 0, "%s", err);
    cr_assert_eq(rename(other, path), 0);
    group_watch_read(&w, path);
    cr_assert_eq(group_watch_state(&w, 0), GROUP_STOPPED, "read again from its start");
    cr_assert_eq(group_watch_state(&w, 1), GROUP_NOT_BEGUN);

    unlink(path);
    group_watch_read(&w, path);
    cr_assert_eq(group_watch_state(&w, 0), GROUP_NOT_BEGUN, "no report: nothing began");
    group_watch_free(&w);
}
