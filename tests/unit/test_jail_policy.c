/* test_jail_policy.c - the jail's seccomp allow-lists (grader/jail/policy.c)
 * read as lists, and bin/cugrade-jail's refusals of a bad command line: the
 * calls that issue 37 names are refused by both policies whatever is added
 * later; a program gets no new process and no socket; a tool gets processes
 * and local sockets; the jail never runs student code as root. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jail/policy.h"
#include "run/runner.h"

Test(jail_policy, the_named_escapes_are_refused_by_both_policies)
{
    int n = 0;
    for (int i = 0; policy_refused_calls[i]; i++, n++) {
        cr_expect(!policy_allows(POLICY_PROGRAM, policy_refused_calls[i]), "%s",
                  policy_refused_calls[i]);
        cr_expect(!policy_allows(POLICY_TOOL, policy_refused_calls[i]), "%s",
                  policy_refused_calls[i]);
    }
    const char *named[] = {"open_by_handle_at", "name_to_handle_at", "ptrace",
                           "process_vm_readv", "process_vm_writev", "mount", "umount2",
                           "pivot_root", "chroot", "unshare", "setns", "bpf", "perf_event_open",
                           "keyctl", "add_key", "request_key", "userfaultfd", "io_uring_setup",
                           "io_uring_enter", "io_uring_register", "init_module",
                           "finit_module", "delete_module", "kexec_load", "kexec_file_load",
                           "personality", NULL};
    for (int i = 0; named[i]; i++) {
        int listed = 0;
        for (int j = 0; policy_refused_calls[j]; j++)
            listed |= strcmp(policy_refused_calls[j], named[i]) == 0;
        cr_expect(listed, "%s is not on the refused list", named[i]);
    }
    cr_assert_gt(n, 40);
}

Test(jail_policy, a_program_gets_threads_and_local_sockets_but_no_process)
{
    const char *no[] = {"fork", "vfork", "tkill", "symlink", "link", "shmget", "sendmmsg",
                        NULL};
    for (int i = 0; no[i]; i++)
        cr_expect(!policy_allows(POLICY_PROGRAM, no[i]), "%s", no[i]);
    const char *yes[] = {"clone", "futex", "mmap", "read", "write", "openat", "ioctl",
                         "exit_group", "execve", "kill", "tgkill", NULL};
    for (int i = 0; yes[i]; i++)
        cr_expect(policy_allows(POLICY_PROGRAM, yes[i]), "%s", yes[i]);
}

Test(jail_policy, a_tool_gets_processes_and_local_sockets)
{
    const char *yes[] = {"fork", "vfork", "clone", "wait4", "socket", "connect", "pipe2",
                         "execve", "kill", NULL};
    for (int i = 0; yes[i]; i++)
        cr_expect(policy_allows(POLICY_TOOL, yes[i]), "%s", yes[i]);
}

Test(jail_policy, names_of_the_policies)
{
    policy_t p;
    cr_assert_eq(policy_from_name("program", &p), 0);
    cr_assert_eq(p, POLICY_PROGRAM);
    cr_assert_eq(policy_from_name("tool", &p), 0);
    cr_assert_eq(p, POLICY_TOOL);
    cr_assert_eq(policy_from_name("everything", &p), -1);
}

/* bin/cugrade-jail with args: its exit status, its messages in out. */
static int jail(const char *args, char *out, size_t len)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "bin/cugrade-jail %s 2>&1", args);
    FILE *f = popen(cmd, "r");
    cr_assert_not_null(f);
    size_t n = fread(out, 1, len - 1, f);
    out[n] = '\0';
    int status = pclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Test(jail_policy, the_jail_refuses_root_and_bad_command_lines)
{
    char out[1024];
    if (geteuid() == 0) {
        cr_expect_eq(jail("-- /bin/true", out, sizeof out), 125, "%s", out);
        cr_expect(strstr(out, "refusing to run student code as root"), "%s", out);
        cr_expect_eq(jail("--uid 0 --gid 0 -- /bin/true", out, sizeof out), 125, "%s", out);
        cr_expect(strstr(out, "must not be 0"), "%s", out);
    } else {
        cr_expect_eq(jail("--uid 12345 --gid 12345 -- /bin/true", out, sizeof out), 125);
        cr_expect(strstr(out, "--uid: needs root"), "%s", out);
    }
    cr_expect_eq(jail("--uid 5 -- /bin/true", out, sizeof out), 125, "%s", out);
    cr_expect(strstr(out, "go together"), "%s", out);
    cr_expect_eq(jail("--policy everything -- /bin/true", out, sizeof out), 125, "%s", out);
    cr_expect_eq(jail("--uid 5 --gid 5", out, sizeof out), 125, "%s", out);
    cr_expect(strstr(out, "usage"), "%s", out);
}

/* The start's byte comes only once every step has been taken: a jail that
 * fails (here: asked for root) writes none, so the runner blames the
 * machine, never the program. */
Test(jail_policy, the_start_byte_is_written_only_after_the_setup)
{
    int p[2];
    cr_assert_eq(pipe(p), 0);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "bin/cugrade-jail --uid 0 --gid 0 --started %d -- /bin/true "
             ">/dev/null 2>&1", p[1]);
    int status = system(cmd);
    close(p[1]);
    char b;
    cr_expect_eq(read(p[0], &b, 1), 0, "a byte was written by a jail that failed");
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 125);
    close(p[0]);
}
