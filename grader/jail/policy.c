/* policy.c - the seccomp allow-lists of policy.h, built with libseccomp.
 * The lists were read off strace of real gradings: every lab on the
 * emulator (its compiler, emucc and g++, and its programs) and on a GPU (nvcc
 * and its programs, the CUDA runtime and driver, the timing program,
 * compute-sanitizer); docs/security.md says how to read them again. What
 * no lab program needs stays out, whatever harm it could do or not: an
 * allow-list, not a list of known dangers. */
#include "jail/policy.h"

#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* Both policies: files the process is shown, memory, threads' waits,
 * clocks, its own signals, its own limits. */
static const char *const common_calls[] = {
    /* files and descriptors */
    "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "preadv2",
    "pwritev2", "close", "close_range", "lseek", "open", "openat", "openat2", "creat", "stat",
    "fstat", "lstat", "newfstatat", "statx", "statfs", "fstatfs", "access", "faccessat",
    "faccessat2", "readlink", "readlinkat", "getcwd", "chdir", "fchdir", "getdents",
    "getdents64", "fcntl", "dup", "dup2", "dup3", "pipe", "pipe2", "poll", "ppoll", "select",
    "pselect6", "epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait",
    "epoll_pwait2", "eventfd", "eventfd2", "unlink", "unlinkat", "rename", "renameat",
    "renameat2", "mkdir", "mkdirat", "rmdir", "ftruncate", "truncate", "fsync", "fdatasync",
    "sync_file_range", "flock", "fadvise64", "fallocate", "umask", "fchmod", "fchmodat", "chmod",
    "utimensat", "utime", "utimes", "futimesat", "memfd_create", "copy_file_range", "sendfile",
    "splice", "tee", "getxattr", "lgetxattr", "fgetxattr", "listxattr", "llistxattr",
    "flistxattr", "inotify_init1", "inotify_add_watch", "inotify_rm_watch",
    /* memory */
    "mmap", "munmap", "mprotect", "mremap", "brk", "madvise", "msync", "mincore", "mlock",
    "mlock2", "munlock", "mlockall", "munlockall", "get_mempolicy", "set_mempolicy", "mbind",
    "membarrier",
    /* threads, waits, clocks */
    "futex", "futex_waitv", "set_robust_list", "get_robust_list", "set_tid_address", "rseq",
    "sched_yield", "sched_getaffinity", "sched_setaffinity", "sched_getparam",
    "sched_getscheduler", "sched_get_priority_max", "sched_get_priority_min", "sched_getattr",
    "sched_rr_get_interval", "nanosleep", "clock_nanosleep", "clock_gettime", "clock_getres",
    "gettimeofday", "time", "getcpu", "getrandom", "wait4", "waitid",
    /* who it is, what it may use */
    "getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getresuid",
    "getresgid", "getgroups", "getpgrp", "getpgid", "getsid", "capget", "uname", "sysinfo",
    "getrlimit", "setrlimit", "prlimit64", "getrusage", "times", "getpriority", "setpriority",
    "prctl", "arch_prctl", "seccomp",
    /* signals (sending one: below, per policy) */
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigsuspend", "rt_sigtimedwait",
    "rt_sigpending", "sigaltstack", "pause", "alarm", "setitimer", "getitimer", "timer_create",
    "timer_settime", "timer_gettime", "timer_getoverrun", "timer_delete", "timerfd_create",
    "timerfd_settime", "timerfd_gettime", "signalfd", "signalfd4",
    /* local sockets (socket itself: below, AF_UNIX only): the CUDA driver's, which
     * binds one and listens on it (seen on an H100: cudaMalloc failed, "OS call
     * failed", while socket, then bind, then listen were refused) */
    "socketpair", "connect", "bind", "listen", "accept", "accept4", "sendto", "recvfrom",
    "sendmsg", "recvmsg", "shutdown", "getsockname", "getpeername", "setsockopt", "getsockopt",
    /* its own program, once, and its end */
    "execve", "execveat", "exit", "exit_group", NULL};

/* The tools besides: processes of their own (nvcc runs cicc, ptxas, gcc;
 * compute-sanitizer runs the program), local sockets and System V IPC
 * between them, links in their own folder. */
static const char *const tool_calls[] = {
    "fork", "vfork", "kill", "tgkill", "tkill", "setpgid", "setsid", "sendmmsg", "recvmmsg",
    "shmget", "shmat", "shmdt", "shmctl", "semget", "semop", "semtimedop", "semctl", "msgget",
    "msgsnd", "msgrcv", "msgctl", "symlink", "symlinkat", "link", "linkat", "rt_sigqueueinfo",
    "rt_tgsigqueueinfo", "pidfd_open", "pidfd_send_signal", NULL};

/* Refused by both, whatever changes above (a test holds the lists to it):
 * the calls of the escape that issue 37 found, and what reaches the
 * kernel, other processes or the machine. (A program gets no socket at
 * all, a tool only AF_UNIX ones: below.) */
const char *const policy_refused_calls[] = {
    "open_by_handle_at", "name_to_handle_at", "ptrace", "process_vm_readv", "process_vm_writev",
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "bpf", "perf_event_open",
    "keyctl", "add_key", "request_key", "userfaultfd", "io_uring_setup", "io_uring_enter",
    "io_uring_register", "init_module", "finit_module", "delete_module", "kexec_load",
    "kexec_file_load", "personality", "fsopen", "fsmount", "fspick", "move_mount", "open_tree",
    "mount_setattr", "quotactl", "swapon", "swapoff", "reboot", "acct", "settimeofday",
    "clock_settime", "clock_adjtime", "adjtimex", "sethostname", "setdomainname", "iopl",
    "ioperm", "syslog", "kcmp", "pidfd_getfd", "process_madvise", "setuid", "setgid",
    "setreuid", "setregid", "setresuid", "setresgid", "setgroups", "setfsuid", "setfsgid",
    "capset", "mknod", "mknodat", "chown", "fchown", "lchown", "fchownat", "setxattr",
    "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr", "vhangup",
    "lookup_dcookie", "fanotify_init", "fanotify_mark", "uselib", "ustat", "sysfs",
    "_sysctl", "modify_ldt", "migrate_pages", "move_pages", NULL};

/* Namespaces a tool's clone may not ask for. */
#define NEW_NAMESPACES                                                                         \
    (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS |  \
     CLONE_NEWCGROUP | 0x00000080 /* CLONE_NEWTIME */)

int policy_from_name(const char *name, policy_t *out)
{
    if (strcmp(name, "program") == 0)
        *out = POLICY_PROGRAM;
    else if (strcmp(name, "tool") == 0)
        *out = POLICY_TOOL;
    else
        return -1;
    return 0;
}

static int listed(const char *const *list, const char *name)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], name) == 0)
            return 1;
    return 0;
}

int policy_allows(policy_t policy, const char *name)
{
    /* the calls allowed under conditions below: clone, ioctl, kill/tgkill, socket */
    if (strcmp(name, "clone") == 0 || strcmp(name, "ioctl") == 0)
        return 1;
    if (policy == POLICY_PROGRAM && (strcmp(name, "kill") == 0 || strcmp(name, "tgkill") == 0))
        return 1;
    if (strcmp(name, "socket") == 0) /* AF_UNIX only */
        return 1;
    return listed(common_calls, name) || (policy == POLICY_TOOL && listed(tool_calls, name));
}

static int allow_list(scmp_filter_ctx ctx, const char *const *list, char *why, size_t whylen)
{
    for (int i = 0; list[i]; i++) {
        int nr = seccomp_syscall_resolve_name(list[i]);
        if (nr == __NR_SCMP_ERROR)
            continue; /* not a call of this architecture */
        int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
        if (rc != 0) {
            snprintf(why, whylen, "seccomp: cannot allow %s: %s", list[i], strerror(-rc));
            return -1;
        }
    }
    return 0;
}

/* The calls allowed only with some arguments. Both: sockets of the
 * machine's own kind (AF_UNIX) only. A program: clone only for a
 * thread or as posix_spawn does, signals only to itself (pid 0: its own
 * group); a tool: clone for
 * a process too, but never into new namespaces, and sockets of the
 * machine's own kind (AF_UNIX) only. Both: ioctl, but not TIOCSTI (typing
 * into a terminal). */
static int allow_with_conditions(scmp_filter_ctx ctx, policy_t policy)
{
    int rc = 0;
    if (policy == POLICY_PROGRAM) {
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                               SCMP_A0_64(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
        /* posix_spawn's child (memory shared, the parent stopped until it
         * runs its program): the emulator's addr2line (emu/src/symbolize.cpp) */
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                               SCMP_A0_64(SCMP_CMP_MASKED_EQ, CLONE_VM | CLONE_VFORK | NEW_NAMESPACES,
                                          CLONE_VM | CLONE_VFORK));
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(kill), 1,
                               SCMP_A0_32(SCMP_CMP_EQ, (uint32_t)getpid()));
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(kill), 1, SCMP_A0_32(SCMP_CMP_EQ, 0));
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
                               SCMP_A0_32(SCMP_CMP_EQ, (uint32_t)getpid()));
    } else {
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                               SCMP_A0_64(SCMP_CMP_MASKED_EQ, NEW_NAMESPACES, 0));
    }
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1,
                           SCMP_A0_32(SCMP_CMP_EQ, AF_UNIX));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
                           SCMP_A1_32(SCMP_CMP_NE, TIOCSTI));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    return rc;
}

int policy_install(policy_t policy, char *why, size_t whylen)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(EPERM));
    if (!ctx) {
        snprintf(why, whylen, "seccomp: cannot make a filter");
        return -1;
    }
    int rc = -1;
    if (allow_list(ctx, common_calls, why, whylen) == 0 &&
        (policy != POLICY_TOOL || allow_list(ctx, tool_calls, why, whylen) == 0)) {
        if (allow_with_conditions(ctx, policy) != 0)
            snprintf(why, whylen, "seccomp: cannot add the conditional rules");
        else if ((rc = seccomp_load(ctx)) != 0)
            snprintf(why, whylen, "seccomp: cannot load the filter: %s", strerror(-rc));
    }
    seccomp_release(ctx);
    return rc == 0 ? 0 : -1;
}
