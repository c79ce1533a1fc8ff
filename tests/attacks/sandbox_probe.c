/* sandbox_probe.c - the red team's own program (issue 37): started by the
 * tests exactly as a student's lab program is (tests/e2e/test_sandbox_tiers.c),
 * it tries each way out of the sandbox directly, through libc, through
 * syscall() and through the syscall instruction itself, since no source or
 * object check stands in its way. One line per attempt:
 *
 *   refused NAME: why          the attempt failed, as it must
 *   ALLOWED NAME: what         it worked: a hole
 *
 * and exit status 0 only if every attempt was refused.
 *
 *   sandbox_probe [--keep FD]... [--read PATH]... [--write DIR]...
 *                 [--hidden DIR]... [--tmp-marker NAME] [--alone 1]
 *                 [--own-userns 1]
 *   sandbox_probe int80        a 32-bit system call (the filter kills it)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static int holes;

static void allowed(const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("ALLOWED %s: ", name);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    holes++;
}

static void refused(const char *name, int err) { printf("refused %s: %s\n", name, strerror(err)); }

/* A result of -1 with errno is refused; anything else is a hole. */
static void expect_failure(const char *name, long rc, int err)
{
    if (rc == -1)
        refused(name, err);
    else
        allowed(name, "returned %ld", rc);
}

/* The syscall instruction itself, past libc: returns -errno on failure. */
static long raw_syscall(long nr, long a1, long a2, long a3, long a4, long a5)
{
    long ret;
    register long r10 __asm__("r10") = a4;
    register long r8 __asm__("r8") = a5;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8)
                     : "rcx", "r11", "memory");
    return ret;
}

static void expect_raw_failure(const char *name, long rc)
{
    if (rc < 0 && rc > -4096)
        refused(name, (int)-rc);
    else
        allowed(name, "returned %ld", rc);
}

/* Every capability set empty, no_new_privs, a seccomp filter, not root:
 * returns 1 if it is so (the other attempts are then safe to make). */
static int probe_status(void)
{
    int holes_before = holes;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) {
        allowed("status", "no /proc/self/status to read (%s)", strerror(errno));
        return 0;
    }
    char line[256];
    int seen = 0;
    while (fgets(line, sizeof line, f)) {
        char key[64];
        unsigned long long v;
        if (sscanf(line, "%63[^:]: %llx", key, &v) != 2)
            continue;
        if (strncmp(key, "Cap", 3) == 0) {
            seen++;
            if (v != 0)
                allowed("capabilities", "%s is %016llx", key, v);
        }
        if (strcmp(key, "NoNewPrivs") == 0 && (seen++, v != 1))
            allowed("no_new_privs", "NoNewPrivs is %llx", v);
        if (strcmp(key, "Seccomp") == 0 && (seen++, v != 2))
            allowed("seccomp", "Seccomp mode is %llx (2 is a filter)", v);
    }
    fclose(f);
    if (seen != 7)
        allowed("status", "%d of the 7 lines (Cap*, NoNewPrivs, Seccomp) found", seen);
    else
        printf("refused capabilities: all five sets empty, no_new_privs, a seccomp filter\n");
    if (getuid() == 0 || geteuid() == 0)
        allowed("root", "uid %d, euid %d", (int)getuid(), (int)geteuid());
    else
        printf("refused root: uid %d\n", (int)getuid());
    return holes == holes_before;
}

static int is_kept(int fd, const int *keep, int nkeep)
{
    for (int i = 0; i < nkeep; i++)
        if (keep[i] == fd)
            return 1;
    return 0;
}

/* The open descriptors (0-2 and the kept ones are expected; any other is a
 * hole); their numbers in fds. */
static int probe_descriptors(const int *keep, int nkeep, int *fds, int max)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d) {
        allowed("descriptors", "cannot list /proc/self/fd: %s", strerror(errno));
        return 0;
    }
    int extra = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        int fd = atoi(e->d_name);
        if (fd == dirfd(d))
            continue;
        if (n < max)
            fds[n++] = fd;
        if (fd > 2 && !is_kept(fd, keep, nkeep)) {
            char path[64], target[512] = "";
            snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
            ssize_t len = readlink(path, target, sizeof target - 1);
            target[len > 0 ? len : 0] = '\0';
            allowed("descriptors", "descriptor %d is open (%s)", fd, target);
            extra++;
        }
    }
    closedir(d);
    if (!extra)
        printf("refused descriptors: only 0, 1, 2 and the %d kept\n", nkeep);
    return n;
}

/* open_by_handle_at on every open descriptor (and the working folder), with
 * the handle of this system's root folder as ext4 and xfs number it (inode
 * 2, generation 0) and, if name_to_handle_at works, of /etc/passwd. */
static void probe_handles(const int *fds, int nfds)
{
    struct {
        struct file_handle h;
        unsigned char bytes[128];
    } root, named;
    root.h.handle_bytes = 8;
    root.h.handle_type = 1; /* FILEID_INO32_GEN */
    unsigned ino_gen[2] = {2, 0};
    memcpy(root.h.f_handle, ino_gen, sizeof ino_gen);
    named.h.handle_bytes = sizeof named.bytes;
    int mount_id;
    long rc = syscall(SYS_name_to_handle_at, AT_FDCWD, "/etc/passwd", &named.h, &mount_id, 0);
    expect_failure("name_to_handle_at", rc, errno);
    int with_named = rc == 0;
    for (int i = -1; i < nfds; i++) {
        int fd = i < 0 ? AT_FDCWD : fds[i];
        char name[64];
        snprintf(name, sizeof name, "open_by_handle_at(%d)", fd);
        int got = open_by_handle_at(fd, &root.h, O_RDONLY | O_DIRECTORY);
        expect_failure(name, got, errno);
        snprintf(name, sizeof name, "open_by_handle_at(%d) by syscall", fd);
        long raw = raw_syscall(SYS_open_by_handle_at, fd, (long)&root.h, O_RDONLY, 0, 0);
        expect_raw_failure(name, raw);
        if (with_named) {
            snprintf(name, sizeof name, "open_by_handle_at(%d, /etc/passwd)", fd);
            expect_failure(name, open_by_handle_at(fd, &named.h, O_RDONLY), errno);
        }
    }
}

/* Namespaces, mounts, other processes, the kernel. */
static void probe_calls(void)
{
    /* on its own folder, so that a hole harms nothing outside it */
    expect_failure("mount", mount("none", ".", "tmpfs", 0, NULL), errno);
    expect_raw_failure("mount by syscall",
                       raw_syscall(SYS_mount, (long)"none", (long)".", (long)"tmpfs", 0, 0));
    expect_failure("unshare(user)", unshare(CLONE_NEWUSER), errno);
    expect_raw_failure("unshare(user|mount) by syscall",
                       raw_syscall(SYS_unshare, CLONE_NEWUSER | CLONE_NEWNS, 0, 0, 0, 0));
    expect_failure("setns", syscall(SYS_setns, 0, 0), errno);
    expect_failure("chroot", chroot("."), errno);
    expect_failure("ptrace(parent)", ptrace(PTRACE_ATTACH, getppid(), NULL, NULL), errno);
    expect_raw_failure("ptrace(parent) by syscall",
                       raw_syscall(SYS_ptrace, PTRACE_ATTACH, getppid(), 0, 0, 0));
    char buf[16];
    struct iovec local = {buf, sizeof buf}, remote = {(void *)0x400000, sizeof buf};
    expect_failure("process_vm_readv(parent)",
                   process_vm_readv(getppid(), &local, 1, &remote, 1, 0), errno);
    expect_failure("kill(1)", kill(1, 0), errno);
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    if (child > 0)
        waitpid(child, NULL, 0);
    expect_failure("fork", child, errno);
    expect_failure("socket(inet)", socket(AF_INET, SOCK_STREAM, 0), errno);
    expect_failure("socket(inet6)", socket(AF_INET6, SOCK_DGRAM, 0), errno);
    expect_failure("socket(netlink)", socket(AF_NETLINK, SOCK_RAW, 0), errno);
    expect_failure("personality", personality(0xffffffff), errno);
    union bpf_attr attr;
    memset(&attr, 0, sizeof attr);
    expect_failure("bpf", syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof attr), errno);
    expect_failure("perf_event_open", syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0), errno);
    expect_failure("keyctl", syscall(SYS_keyctl, 0, 0, 0, 0, 0), errno);
    expect_failure("userfaultfd", syscall(SYS_userfaultfd, 0), errno);
    expect_failure("io_uring_setup", syscall(SYS_io_uring_setup, 1, buf), errno);
    expect_failure("init_module", syscall(SYS_init_module, NULL, 0, ""), errno);
    expect_failure("kexec_load", syscall(SYS_kexec_load, 0, 0, NULL, 0), errno);
}

static void probe_read(const char *path)
{
    char name[600];
    snprintf(name, sizeof name, "read %s", path);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        refused(name, errno);
        return;
    }
    char b;
    ssize_t n = read(fd, &b, 1);
    int err = errno;
    close(fd);
    if (n >= 0)
        allowed(name, "read %zd byte(s)", n);
    else
        refused(name, err); /* a folder: opened, nothing read */
}

static void probe_list(const char *path)
{
    char name[600];
    snprintf(name, sizeof name, "list %s", path);
    DIR *d = opendir(path);
    if (!d) {
        refused(name, errno);
        return;
    }
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    if (n)
        allowed(name, "%d entries", n);
    else
        printf("refused %s: empty\n", name);
}

static void probe_write(const char *dir)
{
    char path[600], name[700];
    snprintf(path, sizeof path, "%s/cugrade-probe-was-here", dir);
    snprintf(name, sizeof name, "write in %s", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) {
        refused(name, errno);
        return;
    }
    close(fd);
    allowed(name, "created %s", path);
}

/* Whether /proc shows a process but itself and its namespace's first. */
static void probe_alone(void)
{
    DIR *d = opendir("/proc");
    if (!d) {
        refused("other processes", errno);
        return;
    }
    int others = 0;
    for (struct dirent *e; (e = readdir(d));) {
        int pid = atoi(e->d_name);
        others += pid > 1 && pid != getpid();
    }
    closedir(d);
    if (others)
        allowed("other processes", "%d listed in /proc", others);
    else
        printf("refused other processes: /proc lists only this one and its first\n");
}

/* Whether this process is in a user namespace of its own: the initial one
 * maps every uid ("0 0 4294967295"). */
static void probe_userns(void)
{
    FILE *f = fopen("/proc/self/uid_map", "r");
    unsigned inside = 0, outside = 0, count = 0;
    int n = f ? fscanf(f, "%u %u %u", &inside, &outside, &count) : 0;
    if (f)
        fclose(f);
    if (n == 3 && inside == 0 && outside == 0 && count == 4294967295u)
        allowed("user namespace", "the initial one (uid_map 0 0 4294967295)");
    else
        printf("refused user namespace: its own (uid_map %u %u %u)\n", inside, outside, count);
}

/* Whether /tmp shows a file the test made in the host's /tmp. */
static void probe_tmp(const char *marker)
{
    char path[600];
    snprintf(path, sizeof path, "/tmp/%s", marker);
    if (access(path, F_OK) == 0)
        allowed("host /tmp", "%s is there", path);
    else
        refused("host /tmp", errno);
}

static void int80(void)
{
    long ret = 24; /* getuid in the 32-bit table */
    __asm__ volatile("int $0x80" : "+a"(ret) : : "memory");
    printf("ALLOWED int 0x80: getuid returned %ld\n", ret);
    exit(1);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 2 && strcmp(argv[1], "int80") == 0)
        int80();
    int keep[16], nkeep = 0, fds[256];
    for (int i = 1; i + 1 < argc; i += 2)
        if (strcmp(argv[i], "--keep") == 0 && nkeep < 16)
            keep[nkeep++] = atoi(argv[i + 1]);
    int caged = probe_status();
    int nfds = probe_descriptors(keep, nkeep, fds, 256);
    if (caged) {
        probe_handles(fds, nfds);
        probe_calls();
    } else { /* run by hand as root, the calls would change the machine */
        allowed("calls", "not tried: the probe is not in a sandbox (root, or no seccomp filter)");
    }
    probe_read("/etc/shadow");
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--read") == 0)
            probe_read(argv[i + 1]);
        else if (strcmp(argv[i], "--write") == 0)
            probe_write(argv[i + 1]);
        else if (strcmp(argv[i], "--hidden") == 0)
            probe_list(argv[i + 1]);
        else if (strcmp(argv[i], "--tmp-marker") == 0)
            probe_tmp(argv[i + 1]);
        else if (strcmp(argv[i], "--alone") == 0)
            probe_alone();
        else if (strcmp(argv[i], "--own-userns") == 0)
            probe_userns();
    }
    printf("%d hole(s)\n", holes);
    return holes ? 1 : 0;
}
