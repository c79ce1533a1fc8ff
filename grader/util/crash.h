/* crash.h - cugrade's own crash reported (crash.c). */
#ifndef CUGRADE_CRASH_H
#define CUGRADE_CRASH_H

/* From now on a fatal signal in this process (SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL, SIGABRT) first writes to stderr "cugrade: cannot grade: the
 * grader itself crashed (signal N, ...)" and the stack (addresses in
 * bin/cugrade: addr2line -e bin/cugrade turns them into lines), then ends
 * the process by that signal as before. The main thread's alternate signal
 * stack is set, so that a stack overflow is reported too. */
void crash_report_install(void);

#endif
