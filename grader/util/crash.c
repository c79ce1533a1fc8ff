/* crash.c - a fatal signal in cugrade itself says so (crash.h): a line that
 * calls it the grader's fault, not the submission's, and the stack, on
 * stderr (in a batch, the submission's run.log), before the default action
 * ends the process with the same signal. */
#include "util/crash.h"

#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CRASH_FRAMES 64

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

/* write(2) of a string; what cannot be written is lost, nothing else. */
static void say(const char *s)
{
    size_t len = strlen(s);
    while (len > 0) {
        ssize_t n = write(STDERR_FILENO, s, len);
        if (n <= 0)
            return;
        s += n;
        len -= (size_t)n;
    }
}

/* Async-signal-safe: write(2), backtrace_symbols_fd (preloaded by
 * crash_report_install) and re-raising under the default action (the
 * handler is reset on entry, SA_RESETHAND). */
static void on_fatal_signal(int sig)
{
    char number[16];
    int n = 0;
    char digits[16];
    for (int v = sig; v > 0 && n < (int)sizeof digits; v /= 10)
        digits[n++] = (char)('0' + v % 10);
    for (int i = 0; i < n; i++)
        number[i] = digits[n - 1 - i];
    number[n] = '\0';
    say("\ncugrade: cannot grade: the grader itself crashed (signal ");
    say(number);
    say(", a bug in cugrade, not the submission's fault); its stack, for a bug report:\n");
    void *frames[CRASH_FRAMES];
    int depth = backtrace(frames, CRASH_FRAMES);
    backtrace_symbols_fd(frames, depth, STDERR_FILENO);
    raise(sig);
}

void crash_report_install(void)
{
    void *warm[1];
    backtrace(warm, 1); /* loads libgcc's unwinder now, not inside the handler */
    static char alt_stack[64 * 1024]; /* a stack overflow's handler needs a stack of its own */
    stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack};
    int on_alt = sigaltstack(&ss, NULL) == 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sa.sa_flags = SA_RESETHAND | SA_NODEFER | (on_alt ? SA_ONSTACK : 0);
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        sigaction(fatal_signals[i], &sa, NULL);
}
