/* test_sandbox_tiers.c - the red team against the sandbox itself (issue 37,
 * docs/security.md): tests/attacks/sandbox_probe.c, started by the runner
 * exactly as a student's lab program is (sandboxed, its report channel and
 * a passed pipe as descriptors 3 and 4), tries every way out it knows —
 * open_by_handle_at on each descriptor it has, mount, unshare, ptrace of
 * its parent, the kernel's odd calls, reading /etc/shadow, the hidden
 * secret and reference/, writing outside its folder, the host's /tmp —
 * through libc, syscall() and the syscall instruction; each must be
 * refused, in each tier. A descriptor the grader holds without O_CLOEXEC
 * must not reach it. Where no tier can run, student code is not run at
 * all, and that is the machine's fault. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/runner.h"
#include "run/sandbox.h"
#include "util/util.h"

#define PROBE "build/tests/sandbox_probe"

typedef struct {
    char base[64];     /* the grading's scratch folder, as the grader makes it (0700) */
    char run[96];      /* the run's own folder, in it */
    char report[128];  /* its report, beside it */
    char hidden[96];   /* a hidden folder: 0700, registered with sandbox_hide_dir */
    char secret[128];  /* a 0600 file in it */
    char marker[96];   /* a file in the host's /tmp */
    char cwd[PATH_MAX];
} probe_case_t;

static void make_case(probe_case_t *p)
{
    cr_assert(access(PROBE, X_OK) == 0, "%s is not built (make unit-tests)", PROBE);
    cr_assert_not_null(getcwd(p->cwd, sizeof p->cwd));
    snprintf(p->base, sizeof p->base, "/tmp/cugrade-tiers-XXXXXX");
    cr_assert_not_null(mkdtemp(p->base));
    snprintf(p->run, sizeof p->run, "%s/run-0", p->base);
    snprintf(p->report, sizeof p->report, "%s/run-0.report", p->base);
    cr_assert_eq(mkdir(p->run, 0700), 0);
    snprintf(p->hidden, sizeof p->hidden, "%s-hidden", p->base);
    cr_assert_eq(mkdir(p->hidden, 0700), 0);
    snprintf(p->secret, sizeof p->secret, "%s/seed", p->hidden);
    cr_assert_eq(write_file_atomic(p->secret, "secret\n", 7, NULL, 0), 0);
    chmod(p->secret, 0600);
    sandbox_hide_dir(p->hidden);
    snprintf(p->marker, sizeof p->marker, "cugrade-tiers-marker-%d", (int)getpid());
    char marker[128];
    snprintf(marker, sizeof marker, "/tmp/%s", p->marker);
    cr_assert_eq(write_file_atomic(marker, "x\n", 2, NULL, 0), 0);
}

static void drop_case(probe_case_t *p)
{
    char marker[128];
    snprintf(marker, sizeof marker, "/tmp/%s", p->marker);
    unlink(marker);
    rm_rf(p->base);
    rm_rf(p->hidden);
}

/* The probe, run as a dataset run is, with args after its own; a descriptor
 * the grader holds open without O_CLOEXEC (a stray one, as another thread
 * may have) and a passed pipe (as the GPU's turns are). */
static run_result_t run_probe(const probe_case_t *p, const char *const *more)
{
    char abs_probe[PATH_MAX + 40];
    snprintf(abs_probe, sizeof abs_probe, "%s/%s", p->cwd, PROBE);
    char *argv[64] = {abs_probe, "--keep", "3", "--keep", "4"};
    int n = 5;
    for (int i = 0; more && more[i] && n < 62; i++)
        argv[n++] = (char *)more[i];
    argv[n] = NULL;
    int stray = open("/etc/hostname", O_RDONLY); /* no O_CLOEXEC */
    cr_assert(stray >= 0);
    int pipefd[2];
    cr_assert_eq(pipe(pipefd), 0);
    run_spec_t spec = {.argv = argv, .cwd = p->run, .timeout_s = 60, .sandboxed = 1,
                       .report_path = p->report, .pass_fds = &pipefd[0], .npass_fds = 1};
    run_result_t r;
    run_one(&spec, &r);
    close(stray);
    close(pipefd[0]);
    close(pipefd[1]);
    return r;
}

/* Each line of out that starts with "refused NAME" for the names given. */
static void expect_refused(const char *out, const char *const *names)
{
    for (int i = 0; names[i]; i++) {
        char line[256];
        snprintf(line, sizeof line, "refused %s", names[i]);
        cr_expect(strstr(out, line), "no '%s' in:\n%s", line, out);
    }
}

/* What every tier refuses. */
static const char *const every_tier[] = {
    "capabilities", "root", "descriptors", "name_to_handle_at", "open_by_handle_at(3)",
    "open_by_handle_at(3) by syscall", "open_by_handle_at(4)", "open_by_handle_at(-100)",
    "mount", "mount by syscall", "unshare(user)", "unshare(user|mount) by syscall", "setns",
    "chroot", "ptrace(parent)", "ptrace(parent) by syscall", "process_vm_readv(parent)",
    "kill(1)", "fork", "socket(inet)", "socket(inet6)", "socket(netlink)", "personality", "bpf",
    "perf_event_open", "keyctl", "userfaultfd", "io_uring_setup", "init_module", "kexec_load",
    "read /etc/shadow", NULL};

static void expect_no_hole(const run_result_t *r)
{
    cr_assert(r->exited && r->exit_code == 0 && strstr(r->output, "\n0 hole(s)\n"),
              "the probe found a way out:\n%s", r->output);
    expect_refused(r->output, every_tier);
}

Test(sandbox_tiers, the_first_tier_refuses_every_escape, .timeout = 120)
{
    if (!sandbox_available())
        cr_skip_test("%s", sandbox_description());
    probe_case_t p;
    make_case(&p);
    char reference[PATH_MAX + 40], seed[PATH_MAX + 40], write_up[PATH_MAX];
    snprintf(reference, sizeof reference, "%s/reference/lab3/matmul.cu", p.cwd);
    snprintf(seed, sizeof seed, "%s/.cugrade", p.cwd);
    snprintf(write_up, sizeof write_up, "%s", p.cwd);
    const char *more[] = {"--read", reference, "--read", seed, "--read", p.secret,
                          "--hidden", p.hidden, "--write", write_up, "--write", p.base,
                          "--write", "/usr", "--tmp-marker", p.marker, "--alone", "1", NULL};
    const char *with_userns[64];
    int n = 0;
    for (; more[n]; n++)
        with_userns[n] = more[n];
    if (!strstr(sandbox_description(), "no user namespace")) { /* where the kernel allows one */
        with_userns[n++] = "--own-userns";
        with_userns[n++] = "1";
    }
    with_userns[n] = NULL;
    run_result_t r = run_probe(&p, with_userns);
    expect_no_hole(&r);
    const char *also[] = {"read /", "list /", "write in /", "host /tmp", "other processes",
                          NULL};
    expect_refused(r.output, also);
    if (n > 0 && with_userns[n - 2] && strcmp(with_userns[n - 2], "--own-userns") == 0)
        cr_expect(strstr(r.output, "refused user namespace"), "%s", r.output);
    if (geteuid() == 0) { /* the grading's own uid, not root's */
        char uid[64];
        snprintf(uid, sizeof uid, "refused root: uid %u\n", sandbox_uid());
        cr_expect(strstr(r.output, uid), "no '%s' in:\n%s", uid, r.output);
    }
    run_result_free(&r);
    drop_case(&p);
}

Test(sandbox_tiers, the_second_tier_refuses_every_escape, .timeout = 120)
{
    if (geteuid() != 0)
        cr_skip_test("the second tier is root's (it drops root for the grading's uid)");
    setenv("CUGRADE_SANDBOX", "uid", 1);
    cr_assert_eq(sandbox_tier(), SANDBOX_UID, "%s", sandbox_description());
    cr_assert(strstr(sandbox_description(), "sandbox: uid"), "%s", sandbox_description());
    probe_case_t p;
    make_case(&p);
    /* a course's folder (world-readable, as a checkout's reference/ is),
     * guarded as the second tier guards reference/ and a batch's class */
    char course[128], solution[160];
    snprintf(course, sizeof course, "%s-course", p.base);
    snprintf(solution, sizeof solution, "%s/matmul.cu", course);
    cr_assert_eq(mkdir(course, 0755), 0);
    cr_assert_eq(write_file_atomic(solution, "// solution\n", 12, NULL, 0), 0);
    chmod(solution, 0644);
    sandbox_guard(course);
    const char *more[] = {"--read", p.secret, "--read", solution, "--hidden", p.hidden,
                          "--hidden", course, "--write", p.base, "--write", "/usr",
                          "--write", p.cwd, NULL};
    run_result_t r = run_probe(&p, more);
    expect_no_hole(&r);
    const char *also[] = {"read /", "list /", "write in /", NULL};
    expect_refused(r.output, also);
    run_result_free(&r);
    rm_rf(course);
    drop_case(&p);
}

/* A 32-bit system call (int 0x80) is another table of numbers, which a
 * filter of 64-bit numbers would misread: the filter kills it. */
static void expect_int80_killed(void)
{
    probe_case_t p;
    make_case(&p);
    char abs_probe[PATH_MAX + 40];
    snprintf(abs_probe, sizeof abs_probe, "%s/%s", p.cwd, PROBE);
    char *argv[] = {abs_probe, "int80", NULL};
    run_spec_t spec = {.argv = argv, .cwd = p.run, .timeout_s = 60, .sandboxed = 1};
    run_result_t r;
    run_one(&spec, &r);
    cr_expect(r.signaled && r.term_signal == SIGSYS, "not killed by SIGSYS:\n%s", r.output);
    cr_expect_null(strstr(r.output, "ALLOWED"), "%s", r.output);
    run_result_free(&r);
    drop_case(&p);
}

Test(sandbox_tiers, a_32_bit_system_call_is_killed_in_the_first_tier, .timeout = 60)
{
    if (!sandbox_available())
        cr_skip_test("%s", sandbox_description());
    expect_int80_killed();
}

Test(sandbox_tiers, a_32_bit_system_call_is_killed_in_the_second_tier, .timeout = 60)
{
    if (geteuid() != 0)
        cr_skip_test("the second tier is root's");
    setenv("CUGRADE_SANDBOX", "uid", 1);
    expect_int80_killed();
}

/* Where no tier can run (here: bubblewrap asked for, and not on PATH),
 * student code is not run bare: the run does not start, says why, and
 * counts as the machine's fault (grade.c makes it exit 2). */
Test(sandbox_tiers, without_a_tier_student_code_is_not_run, .timeout = 60)
{
    setenv("CUGRADE_SANDBOX", "bwrap", 1);
    setenv("PATH", "/nonexistent", 1);
    cr_assert_eq(sandbox_tier(), SANDBOX_MISSING);
    cr_assert(strstr(sandbox_description(), "sandbox: none can run here (no bwrap on PATH"),
              "%s", sandbox_description());
    probe_case_t p;
    make_case(&p);
    int before = run_sandbox_failures(NULL, 0);
    char *argv[] = {"/bin/sh", "-c", "echo RAN; touch ran", NULL};
    run_spec_t spec = {.argv = argv, .cwd = p.run, .timeout_s = 30, .sandboxed = 1};
    run_result_t r;
    run_one(&spec, &r);
    char ran[160];
    snprintf(ran, sizeof ran, "%s/ran", p.run);
    cr_expect(access(ran, F_OK) != 0, "the program ran without a sandbox");
    cr_expect(r.sandbox_failed, "%s", r.output);
    cr_expect(strstr(r.output, "student code is not run without a sandbox"), "%s", r.output);
    cr_expect_eq(run_sandbox_failures(NULL, 0), before + 1);
    char why[256];
    run_describe(&r, &spec, why, sizeof why);
    cr_expect(strstr(why, "the machine's fault"), "%s", why);
    run_result_free(&r);
    drop_case(&p);
}

/* CUGRADE_SECCOMP=off (the TA's, for a GPU driver whose call the allow-list
 * lacks) leaves the filter out and says so in the report's words; every
 * other layer stays (here: the uid and the capabilities). */
Test(sandbox_tiers, seccomp_off_is_said_and_only_the_filter_goes, .timeout = 60)
{
    if (!sandbox_available())
        cr_skip_test("%s", sandbox_description());
    setenv("CUGRADE_SECCOMP", "off", 1);
    cr_assert(strstr(sandbox_description(), "without its seccomp filter: CUGRADE_SECCOMP=off"),
              "%s", sandbox_description());
    probe_case_t p;
    make_case(&p);
    run_result_t r = run_probe(&p, NULL);
    cr_expect(strstr(r.output, "ALLOWED seccomp"), "the filter is still there:\n%s", r.output);
    cr_expect_null(strstr(r.output, "ALLOWED root"), "%s", r.output);
    cr_expect_null(strstr(r.output, "ALLOWED capabilities"), "%s", r.output);
    run_result_free(&r);
    drop_case(&p);
}
