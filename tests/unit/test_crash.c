/* test_crash.c - cugrade's own crash says so (grader/util/crash.c): the
 * grader's fault named on stderr with the stack, and the process still
 * ended by the signal, so that a batch counts it as a grading that could not
 * be made, never as a score. */
#include <criterion/criterion.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/crash.h"

static volatile int *volatile nowhere; /* NULL, unknown to the compiler */
static volatile int depth_limit = INT_MAX;

static int deeper(int n)
{
    volatile char frame[1024];
    frame[0] = (char)n;
    return n < depth_limit ? deeper(n + 1) + frame[0] : 0;
}

typedef enum { BY_NULL_POINTER, BY_STACK_OVERFLOW, BY_ABORT } crash_t;

/* A child that installs the report and crashes as asked: its stderr, and
 * how it ended (*status). */
static char *crashed_child(crash_t how, int *status)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        dup2(fd[1], STDERR_FILENO);
        close(fd[0]);
        crash_report_install();
        if (how == BY_NULL_POINTER)
            *nowhere = 1;
        else if (how == BY_STACK_OVERFLOW)
            deeper(0);
        else
            abort();
        _exit(0);
    }
    close(fd[1]);
    static char text[16384];
    size_t len = 0;
    ssize_t n;
    while (len < sizeof text - 1 && (n = read(fd[0], text + len, sizeof text - 1 - len)) > 0)
        len += (size_t)n;
    text[len] = '\0';
    close(fd[0]);
    cr_assert_eq(waitpid(pid, status, 0), pid);
    return text;
}

static void expect_reported(crash_t how, int sig)
{
    int status;
    char *err = crashed_child(how, &status);
    cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == sig,
              "the process ended by signal %d (status 0x%x)", sig, status);
    char want[96];
    snprintf(want, sizeof want, "cugrade: cannot grade: the grader itself crashed (signal %d,", sig);
    cr_expect(strstr(err, want) != NULL, "no '%s' in:\n%s", want, err);
    cr_expect(strstr(err, "not the submission's fault") != NULL, "%s", err);
    const char *stack = strstr(err, "for a bug report:\n");
    cr_expect(stack && strchr(stack + 18, '[') != NULL, "no stack frames after the line:\n%s",
              err);
}

Test(crash, a_null_pointer_is_reported_with_its_stack_and_still_kills)
{
    expect_reported(BY_NULL_POINTER, SIGSEGV);
}

Test(crash, a_stack_overflow_is_reported_from_the_signal_stack)
{
    expect_reported(BY_STACK_OVERFLOW, SIGSEGV);
}

Test(crash, an_abort_is_reported)
{
    expect_reported(BY_ABORT, SIGABRT);
}
