/* harness_crash.h - the list mode's way past a crash of the student's host
 * code (harness.h, `driver --each LIST`): a dataset whose launch function
 * faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL) ends with the marker
 *
 *     "\ncugrade-dataset-signal K WALL_S SIGNO\n"
 *
 * and the next dataset runs in the same process, as after a CUDA error that
 * left the context usable. Without it every crash ends the process, and each
 * dataset after it pays a new process, a new CUDA context and a new wait for
 * the GPU: a CUDA context is made one at a time on the whole machine (a
 * quarter of a second each on an H200 host, bench/gpu_context.sh), so a host
 * crash on every dataset cost a batch more than all its correct submissions.
 *
 * Only a fault the student's code could have made on its own is caught: on
 * the thread that runs the datasets, on that thread's own stack, at an
 * instruction of the program itself (not of libc, the CUDA driver or any
 * shared library, whose locks it may hold), inside a dataset. Then, still
 * under the dataset's watchdog, the context must be usable: a
 * cudaDeviceSynchronize that fails (or a kernel the crash left running past
 * the limit) ends the process by the same signal, as before. Any other
 * fault, and every fault outside Linux on x86-64 or AArch64 or in a
 * sanitizer's build, ends the process by its signal, as without this file. */
#ifndef CUGRADE_HARNESS_CRASH_H
#define CUGRADE_HARNESS_CRASH_H

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include <cuda_runtime.h>

/* What setjmp returns after a caught crash: this plus the signal. */
#define HARNESS_CRASH_BASE 0x1000

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define HARNESS_CRASH_RECOVERY 0
#elif defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#define HARNESS_CRASH_RECOVERY 1
#else
#define HARNESS_CRASH_RECOVERY 0
#endif

#if HARNESS_CRASH_RECOVERY
#ifdef __cplusplus
extern "C" {
#endif
extern char __executable_start[]; /* the program's own code, from the linker */
extern char etext[];
#ifdef __cplusplus
}
#endif
#endif

/* In the list mode, where a dataset goes back to (its end) after a CUDA error
 * that leaves the context usable (harness.h) or a crash of the student's
 * code; NULL outside a dataset of the list mode. */
static inline jmp_buf **harness_dataset_escape(void)
{
    static jmp_buf *escape;
    return &escape;
}

/* The thread that runs the datasets and its stack (all 0: not armed). */
typedef struct {
    pthread_t thread;
    uintptr_t stack_lo, stack_hi;
} harness_crash_t;

static inline harness_crash_t *harness_crash(void)
{
    static harness_crash_t state;
    return &state;
}

#if HARNESS_CRASH_RECOVERY
/* Whether the fault in ctx is the student's own, to go back from. */
static inline int harness_crash_is_own(const harness_crash_t *c, void *ctx)
{
    const ucontext_t *uc = (const ucontext_t *)ctx;
#if defined(__x86_64__)
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#else
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.pc;
    uintptr_t sp = (uintptr_t)uc->uc_mcontext.sp;
#endif
    return *harness_dataset_escape() && pthread_equal(pthread_self(), c->thread) &&
           pc >= (uintptr_t)__executable_start && pc < (uintptr_t)etext && sp >= c->stack_lo &&
           sp < c->stack_hi;
}

static inline void harness_on_crash(int sig, siginfo_t *info, void *ctx)
{
    harness_crash_t *c = harness_crash();
    if (harness_crash_is_own(c, ctx)) {
        jmp_buf *escape = *harness_dataset_escape();
        *harness_dataset_escape() = NULL;
        /* a handler that called this one (the emulator's guard) had the
         * signal blocked: unblocked, the next crash is caught too */
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        pthread_sigmask(SIG_UNBLOCK, &set, NULL);
        longjmp(*escape, HARNESS_CRASH_BASE + sig);
    }
    /* not ours: the default action; a fault runs again and ends the process */
    signal(sig, SIG_DFL);
    if (info->si_code <= 0) /* sent, not a fault */
        raise(sig);
}
#endif

/* Before the first dataset: catch the student's crashes from here on. */
static inline void harness_crash_arm(void)
{
#if HARNESS_CRASH_RECOVERY
    harness_crash_t *c = harness_crash();
    pthread_attr_t attr;
    void *lo;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return;
    int got = pthread_attr_getstack(&attr, &lo, &size) == 0;
    pthread_attr_destroy(&attr);
    if (!got)
        return;
    c->thread = pthread_self();
    c->stack_lo = (uintptr_t)lo;
    c->stack_hi = (uintptr_t)lo + size;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = harness_on_crash;
    action.sa_flags = SA_SIGINFO | SA_NODEFER; /* the next crash is caught too */
    sigemptyset(&action.sa_mask);
    const int signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (int i = 0; i < 4; i++)
        sigaction(signals[i], &action, NULL);
#endif
}

/* After a caught crash by sig: returns when the CUDA context is still usable
 * (the work the dataset left is waited for, under its watchdog); else ends
 * the process by sig, as the crash would have. */
static inline void harness_crash_settle(int sig)
{
    cudaError_t synced = cudaDeviceSynchronize();
    if (synced == cudaSuccess && cudaGetLastError() == cudaSuccess)
        return;
    fflush(stdout);
    fflush(stderr);
    signal(sig, SIG_DFL);
    raise(sig);
    _exit(128 + sig);
}

#endif
