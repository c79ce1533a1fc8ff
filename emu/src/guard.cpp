/* guard.cpp - turns a fiber stack overflow into a diagnostic.
 *
 * A CUDA thread that overflows its fiber stack faults in the guard region
 * below it. The SIGSEGV handler runs on an alternate signal stack (the
 * faulting stack is full), recognises an address inside a guard region and
 * writes a `stack-overflow` error diagnostic naming the kernel, launch site,
 * block and thread; then it restores the default action and returns, so the
 * faulting instruction runs again and the process dies by SIGSEGV as it
 * would have. Any other fault goes, untouched, to the handler that was
 * installed before ours (called from ours, so that one that goes back leaves
 * ours in place), or the default action. In the checking mode the
 * findings of the running launch are written first in either case. */
#include <csignal>
#include <cstdio>
#include <sys/mman.h>

#include "check_internal.h"

namespace cugrade::emu {
namespace {

constexpr size_t kAltStackBytes = 64 * 1024;

struct sigaction g_previous_action;
bool g_handler_installed;
thread_local bool t_altstack_installed;

void report_overflow()
{
    const launch_site *site;
    uint3 b, t;
    char message[768];
    if (running_thread(&site, &b, &t))
        snprintf(message, sizeof message,
                 "Kernel %s launched at %s:%d hit a kernel thread stack overflow: thread (%u,%u,%u) of "
                 "block (%u,%u,%u) used more than its %zu KiB stack (deep recursion or a large local "
                 "array?).",
                 site->name, site->file, site->line, t.x, t.y, t.z, b.x, b.y, b.z, kFiberStackBytes / 1024);
    else
        snprintf(message, sizeof message,
                 "A kernel hit a kernel thread stack overflow: a thread used more than its %zu KiB stack.",
                 kFiberStackBytes / 1024);
    diag_emit(severity::error, diag_kind::stack_overflow, message);
}

/* In the checking mode, what the launch found so far is written before the
 * process dies (raw addresses where no line is known yet). */
void flush_findings()
{
    const launch_site *site;
    uint3 b, t;
    if (checks_enabled() && running_thread(&site, &b, &t))
        findings_flush_on_crash();
}

void on_segv(int sig, siginfo_t *info, void *context);

/* Any other fault: the handler installed before ours gets it, called from
 * here, so that one that goes back (the list mode's, past a crash of the
 * student's host code: labs/common/harness_crash.h) leaves ours in place for
 * the next launch. One that returns has dealt with it (its own default
 * action), or is put back in our place, as it was before us. */
void pass_on(int sig, siginfo_t *info, void *context)
{
    if ((g_previous_action.sa_flags & SA_SIGINFO) && g_previous_action.sa_sigaction) {
        g_previous_action.sa_sigaction(sig, info, context);
        struct sigaction now {};
        if (sigaction(SIGSEGV, nullptr, &now) != 0 || now.sa_sigaction != on_segv)
            return;
    }
    sigaction(SIGSEGV, &g_previous_action, nullptr);
}

void on_segv(int sig, siginfo_t *info, void *context)
{
    if (fiber_guard_slot(info->si_addr) >= 0) {
        report_overflow();
        flush_findings();
        signal(SIGSEGV, SIG_DFL);
        return;
    }
    flush_findings();
    pass_on(sig, info, context);
}

void install_altstack()
{
    stack_t current;
    if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) {
        t_altstack_installed = true; /* someone else's is in place: use it */
        return;
    }
    void *mem = mmap(nullptr, kAltStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return;
    stack_t alt{};
    alt.ss_sp = mem;
    alt.ss_size = kAltStackBytes;
    if (sigaltstack(&alt, nullptr) == 0)
        t_altstack_installed = true;
    else
        munmap(mem, kAltStackBytes);
}

} // namespace

void guard_install()
{
    if (!t_altstack_installed)
        install_altstack();
    if (g_handler_installed)
        return;
    struct sigaction action {};
    action.sa_sigaction = on_segv;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGSEGV, &action, &g_previous_action) == 0)
        g_handler_installed = true;
}

} // namespace cugrade::emu
