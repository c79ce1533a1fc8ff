/* runner.c - child processes with time limits and capped output capture.
 *
 * One poll() loop serves every running child: it reads their pipes, reaps
 * them, and kills the process group of any child past its deadline. A child
 * counts as finished once it is reaped and its pipe is closed (or, if a
 * grandchild keeps the pipe open after the group was killed, after a short
 * grace period). */
#include "run/runner.h"
#include "run/sandbox.h"
#include "util/fds.h"
#include "util/tally.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define PIPE_GRACE_S 1.0
#define MAX_TRACKED 256

extern char **environ;

typedef struct {
    const run_spec_t *spec;
    run_result_t *res;
    char **wrapped; /* the sandbox's argv of a sandboxed spec (sandbox.h), or NULL */
    pid_t pid;     /* 0 once reaped */
    int fd;        /* -1 once closed */
    int started_fd; /* wrapped: the start pipe's reading end (sandbox.h), else -1 */
    int wrapped_bwrap; /* inside bubblewrap, which reports a signal as 128 + signal */
    double start, deadline, reaped_at;
    size_t cap;
    strbuf_t out;
} child_t;

/* The process groups running now, for run_kill_all: threads (a batch's
 * workers) take and free slots at once, and a signal handler reads them, so
 * each slot changes by compare-and-swap (lock-free: safe in the handler). */
static _Atomic pid_t tracked_groups[MAX_TRACKED];

static void track_group(pid_t pgid, int on)
{
    for (int i = 0; i < MAX_TRACKED; i++) {
        pid_t expected = on ? 0 : pgid;
        if (atomic_compare_exchange_strong(&tracked_groups[i], &expected, on ? pgid : 0))
            return;
    }
}

void run_kill_all(void)
{
    for (int i = 0; i < MAX_TRACKED; i++) {
        pid_t pgid = atomic_load(&tracked_groups[i]);
        if (pgid > 0)
            kill(-pgid, SIGKILL);
    }
}

/* The variables a sandboxed program keeps (the rest, LD_PRELOAD and the
 * TA's own among them, are dropped): names, or prefixes ending in '_'. */
static const char *const kept_variables[] = {
    "PATH", "LANG", "LC_ALL", "LD_LIBRARY_PATH", "CUDA_", "NVIDIA_", "CUGRADE_CXX", "CUGRADE_CC",
    "CUGRADE_ROOT", "CUGRADE_EMU_SCHEDULE", "CUGRADE_EMU_PCH", "CUGRADE_SANDBOX_TEST_", NULL};

static int kept_variable(const char *entry)
{
    size_t name_len = strcspn(entry, "=");
    for (int i = 0; kept_variables[i]; i++) {
        size_t k = strlen(kept_variables[i]);
        int prefix = kept_variables[i][k - 1] == '_';
        if (prefix ? strncmp(entry, kept_variables[i], k) == 0
                   : name_len == k && strncmp(entry, kept_variables[i], k) == 0)
            return 1;
    }
    return 0;
}

/* In the child: a sandboxed program's environment is the kept variables,
 * HOME and TMPDIR pointing at its private /tmp. */
static void clean_environment(void)
{
    static char *kept[128];
    int n = 0;
    for (char **e = environ; *e && n < 125; e++)
        if (kept_variable(*e))
            kept[n++] = *e;
    kept[n++] = "HOME=/tmp";
    kept[n++] = "TMPDIR=/tmp";
    kept[n] = NULL;
    environ = kept;
}

/* In the child: one hardware work queue per CUDA context unless the caller's
 * environment says otherwise. A context with the driver's default (8) costs
 * several times as much to make, and contexts are made one at a time for
 * the whole machine: 16 processes starting on one H100 took a median 2.09 s
 * each with the default, 0.63 s with 1 (bench/gpu_context.sh,
 * docs/benchmarks.md). A program's streams still work; they share the one
 * queue, as do the reference's and cuBLAS's when they are timed. */
static void default_cuda_environment(void)
{
    if (!getenv("CUDA_DEVICE_MAX_CONNECTIONS"))
        putenv("CUDA_DEVICE_MAX_CONNECTIONS=1");
}

/* In the child: the spec's pass_fds as RUN_PASS_FD, RUN_PASS_FD + 1, ...,
 * across exec. Each is first copied above every target, so that moving one
 * into place cannot close another still to be moved. */
static void place_pass_fds(const run_spec_t *spec)
{
    int high[RUN_MAX_PASS_FDS];
    int n = spec->npass_fds < RUN_MAX_PASS_FDS ? spec->npass_fds : RUN_MAX_PASS_FDS;
    for (int i = 0; i < n; i++)
        if ((high[i] = fcntl(spec->pass_fds[i], F_DUPFD, 64)) < 0) {
            dprintf(2, "cugrade: cannot pass descriptor %d: %s\n", spec->pass_fds[i],
                    strerror(errno));
            _exit(127);
        }
    for (int i = 0; i < n; i++) {
        dup2(high[i], RUN_PASS_FD + i); /* without FD_CLOEXEC: kept across exec */
        close(high[i]);
    }
}

/* In the child: the report file open as RUN_REPORT_FD, across exec. */
static void open_report(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
    if (fd < 0) {
        dprintf(2, "cugrade: cannot create the report file %s: %s\n", path, strerror(errno));
        _exit(127);
    }
    if (fd != RUN_REPORT_FD) {
        dup2(fd, RUN_REPORT_FD);
        close(fd);
    }
    putenv((char *)RUN_REPORT_ENV);
}

static void set_limit(int resource, rlim_t soft, rlim_t hard)
{
    struct rlimit l = {soft, hard};
    setrlimit(resource, &l);
}

/* The spec's rlimits, in the child before exec. */
static void apply_limits(const run_spec_t *spec)
{
    if (spec->memory_limit_bytes)
        set_limit(RLIMIT_DATA, spec->memory_limit_bytes, spec->memory_limit_bytes);
    if (spec->cpu_limit_s > 0) {
        rlim_t s = (rlim_t)spec->cpu_limit_s;
        s += (double)s < spec->cpu_limit_s;
        set_limit(RLIMIT_CPU, s, s + 1);
    }
    if (spec->file_limit_bytes)
        set_limit(RLIMIT_FSIZE, spec->file_limit_bytes, spec->file_limit_bytes);
}

/* The descriptors a child keeps besides 0, 1 and 2: the report channel,
 * the passed ones, and (wrapped) the start pipe's. Returns how many. */
static int kept_fds(const run_spec_t *spec, int wrapped, int keep[RUN_MAX_PASS_FDS + 2])
{
    int n = 0;
    if (spec->report_path)
        keep[n++] = RUN_REPORT_FD;
    for (int i = 0; i < spec->npass_fds && i < RUN_MAX_PASS_FDS; i++)
        keep[n++] = RUN_PASS_FD + i;
    if (wrapped)
        keep[n++] = SANDBOX_STARTED_FD;
    return n;
}

/* In the child, second tier: the folders above what the program needs
 * (sandbox_open_way). */
static void open_the_way(const run_spec_t *spec)
{
    sandbox_open_way(spec->argv[0]);
    sandbox_open_way(spec->cwd);
    sandbox_open_way(spec->write_dir);
    for (int i = 0; spec->ro_paths && spec->ro_paths[i]; i++)
        sandbox_open_way(spec->ro_paths[i]);
}

/* In the child: never returns. started_w: the start pipe's writing end
 * (wrapped only, else -1), which the sandbox gets as SANDBOX_STARTED_FD. */
static void exec_child(const run_spec_t *spec, char **wrapped, int out_fd, int started_w,
                       pid_t parent)
{
    /* above every descriptor placed below, until its own place last */
    int started = started_w >= 0 ? fcntl(started_w, F_DUPFD, 64) : -1;
    if (started_w >= 0 && started < 0) {
        dprintf(out_fd, "cugrade: cannot keep the sandbox's start pipe: %s\n", strerror(errno));
        _exit(127);
    }
    if (spec->sandboxed) {
        setsid(); /* new session and process group: no controlling terminal */
        sandbox_apply_rlimits(spec->file_limit_bytes); /* a dataset's output may need more */
    } else {
        setpgid(0, 0);
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) {
        dup2(devnull, 0);
        close(devnull);
    }
    dup2(out_fd, 1);
    dup2(out_fd, 2);
    close(out_fd);
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    apply_limits(spec);
    errno = 0;
    if (spec->nice > 0 && nice(spec->nice) == -1 && errno != 0)
        dprintf(2, "cugrade: cannot lower the priority of %s: %s\n", spec->argv[0],
                strerror(errno));
    signal(SIGPIPE, SIG_DFL);
    if (spec->cwd && chdir(spec->cwd) != 0) {
        dprintf(2, "cugrade: cannot enter %s: %s\n", spec->cwd, strerror(errno));
        _exit(127);
    }
    if (spec->sandboxed)
        clean_environment();
    default_cuda_environment();
    if (spec->npass_fds > 0)
        place_pass_fds(spec);
    if (spec->report_path)
        open_report(spec->report_path);
    for (char *const *e = spec->extra_env; e && *e; e++)
        putenv(*e);
    if (started >= 0) {
        dup2(started, SANDBOX_STARTED_FD); /* without FD_CLOEXEC: bwrap passes it on */
        close(started);
    }
    /* nothing else: a descriptor another thread opened without O_CLOEXEC
     * just before the fork would reach the program (the jail checks again) */
    int keep[RUN_MAX_PASS_FDS + 2];
    close_fds_except(keep, kept_fds(spec, wrapped != NULL, keep));
    if (wrapped)
        open_the_way(spec);
    if (wrapped && sandbox_give_folder(spec->write_dir ? spec->write_dir : spec->cwd,
                                       !spec->tool) != 0) {
        dprintf(2, "cugrade: cannot give the run's folder to the sandbox's user: %s\n",
                strerror(errno));
        _exit(127);
    }
    if (wrapped)
        execv(wrapped[0], wrapped);
    else
        execv(spec->argv[0], spec->argv);
    dprintf(2, "cugrade: cannot run %s: %s\n", spec->argv[0], strerror(errno));
    _exit(127);
}

static void close_pair(int p[2])
{
    for (int i = 0; i < 2; i++)
        if (p[i] >= 0)
            close(p[i]);
}

static void count_sandbox_failure(const child_t *c);

/* A sandboxed run where no tier of the sandbox runs: not started, and
 * counted as the machine's fault (run_sandbox_failures), never run bare. */
static int no_sandbox(child_t *c)
{
    sandbox_tier_t t = sandbox_tier();
    if (t == SANDBOX_BWRAP || t == SANDBOX_UID || t == SANDBOX_OFF)
        return 0;
    c->res->sandbox_failed = 1;
    char text[512];
    snprintf(text, sizeof text, "cugrade: student code is not run without a sandbox: %s",
             sandbox_description());
    c->res->output = strdup(text);
    c->res->output_len = strlen(text);
    count_sandbox_failure(c);
    return 1;
}

/* The sandbox's argv of a sandboxed spec (NULL: none, run as it is). */
static char **wrap(const run_spec_t *spec)
{
    if (!spec->sandboxed)
        return NULL;
    int keep[RUN_MAX_PASS_FDS + 2];
    sandbox_how_t how = {spec->tool, keep, kept_fds(spec, 0, keep), spec->copy_from,
                         spec->copy_at, spec->no_gpu};
    return sandbox_wrap_argv(spec->argv, spec->cwd, spec->write_dir, spec->ro_paths, &how);
}

static int start_child(child_t *c)
{
    int fds[2], started[2] = {-1, -1};
    memset(c->res, 0, sizeof *c->res);
    c->cap = c->spec->output_cap ? c->spec->output_cap : RUN_OUTPUT_CAP_DEFAULT;
    c->started_fd = -1;
    if (pipe2(fds, O_CLOEXEC) != 0) {
        c->res->output = strdup("cugrade: pipe failed");
        return -1;
    }
    pid_t parent = getpid();
    if (c->spec->sandboxed && no_sandbox(c)) {
        close_pair(fds);
        return -1;
    }
    c->wrapped = wrap(c->spec);
    if (c->wrapped && pipe2(started, O_CLOEXEC) != 0) {
        sandbox_argv_free(c->wrapped);
        c->wrapped = NULL;
        close_pair(fds);
        c->res->output = strdup("cugrade: pipe failed");
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0) {
        c->wrapped_bwrap = c->wrapped != NULL && sandbox_tier() == SANDBOX_BWRAP;
        sandbox_argv_free(c->wrapped);
        c->wrapped = NULL;
    }
    if (pid < 0) {
        close_pair(fds);
        close_pair(started);
        c->res->output = strdup("cugrade: fork failed");
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        if (started[0] >= 0)
            close(started[0]);
        exec_child(c->spec, c->wrapped, fds[1], started[1], parent);
    }
    if (started[1] >= 0) {
        close(started[1]);
        fcntl(started[0], F_SETFL, O_NONBLOCK);
        c->started_fd = started[0];
    }
    if (!c->spec->sandboxed)
        setpgid(pid, pid); /* also done in the child; whichever runs first wins */
    track_group(pid, 1);
    close(fds[1]);
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    c->pid = pid;
    c->fd = fds[0];
    c->start = now_seconds();
    c->deadline = c->start + c->spec->timeout_s; /* the budget's end: budget_end() */
    c->reaped_at = 0;
    c->res->started = 1;
    return 0;
}

/* A run whose submission's time budget has already run out is not started. */
static int budget_used_up(child_t *c)
{
    if (c->spec->not_after <= 0 || now_seconds() < c->spec->not_after)
        return 0;
    memset(c->res, 0, sizeof *c->res);
    c->res->budget_out = 1;
    c->res->output = strdup("");
    return 1;
}

static void drain(child_t *c)
{
    char buf[65536];
    for (;;) {
        ssize_t n = read(c->fd, buf, sizeof buf);
        if (n > 0) {
            c->res->output_total += (size_t)n;
            size_t room = c->out.len < c->cap ? c->cap - c->out.len : 0;
            sb_appendn(&c->out, buf, (size_t)n < room ? (size_t)n : room);
            size_t stop = c->spec->stop_after_bytes;
            if (stop && c->res->output_total > stop && c->pid > 0 && !c->res->output_stopped) {
                c->res->output_stopped = 1;
                kill(-c->pid, SIGKILL);
            }
            continue;
        }
        if (n < 0 && (errno == EINTR))
            continue;
        if (n == 0 || (n < 0 && errno != EAGAIN)) {
            close(c->fd);
            c->fd = -1;
        }
        return;
    }
}

static tally_t sandbox_failures = TALLY_INIT;

int run_sandbox_failures(char *why, size_t whylen) { return tally_read(&sandbox_failures, why, whylen); }

/* Reaped: whether its sandbox started (the byte on the start pipe). One
 * that the runner killed (its time, its output) may not have got that far,
 * and is the run's as before. */
static void check_started(child_t *c)
{
    if (c->started_fd < 0)
        return;
    char b;
    ssize_t n;
    while ((n = read(c->started_fd, &b, 1)) < 0 && errno == EINTR)
        ;
    close(c->started_fd);
    c->started_fd = -1;
    c->res->sandbox_failed = n != 1 && !c->res->timed_out && !c->res->output_stopped;
}

/* Finished: a sandbox that did not start is counted, with the first one's
 * program and bwrap's first line. */
static void count_sandbox_failure(const child_t *c)
{
    if (c->res->sandbox_failed)
        tally_add(&sandbox_failures, c->spec->argv[0], c->res->output, "(bwrap said nothing)");
}

static void reap(child_t *c)
{
    int status;
    pid_t r = waitpid(c->pid, &status, WNOHANG);
    if (r != c->pid)
        return;
    double t = now_seconds();
    c->res->wall_s = t - c->start;
    if (WIFEXITED(status) && c->wrapped_bwrap &&
        WEXITSTATUS(status) > 128 && !c->res->timed_out) {
        c->res->signaled = 1; /* bwrap reports a signal as 128 + signal */
        c->res->term_signal = WEXITSTATUS(status) - 128;
    } else if (WIFEXITED(status)) {
        c->res->exited = 1;
        c->res->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status) && !c->res->timed_out) {
        c->res->signaled = 1;
        c->res->term_signal = WTERMSIG(status);
    }
    check_started(c);
    /* Leave nothing of the group behind (daemonised grandchildren aside). */
    kill(-c->pid, SIGKILL);
    track_group(c->pid, 0);
    c->pid = 0;
    c->reaped_at = t;
    if (c->spec->ended)
        c->spec->ended(c->spec->ended_ctx);
}

/* When the submission's time budget ends for it: not_after, moved on by the
 * time its clocks stood still (0: no budget). */
static double budget_end(const child_t *c)
{
    if (c->spec->not_after <= 0)
        return 0;
    return c->spec->not_after + (c->spec->paused_s ? c->spec->paused_s(c->spec->paused_ctx) : 0);
}

static void enforce_deadline(child_t *c, double t)
{
    if (c->pid > 0 && c->spec->cancel && atomic_load(c->spec->cancel)) {
        kill(-c->pid, SIGKILL);
        kill(c->pid, SIGKILL);
    }
    double budget = budget_end(c);
    int budget_first = budget > 0 && budget < c->deadline;
    if (c->pid > 0 && t >= (budget_first ? budget : c->deadline) && !c->res->timed_out) {
        c->res->timed_out = 1;
        c->res->budget_out = budget_first;
        kill(-c->pid, SIGKILL);
        kill(c->pid, SIGKILL);
    }
    if (c->pid == 0 && c->fd >= 0 && t - c->reaped_at > PIPE_GRACE_S) {
        close(c->fd); /* a grandchild holds the pipe open: stop listening */
        c->fd = -1;
    }
}

static void finish(child_t *c)
{
    c->res->output_len = c->out.len;
    c->res->output_truncated = c->res->output_total > c->out.len;
    c->res->output = sb_detach(&c->out);
    count_sandbox_failure(c);
}

static int is_done(const child_t *c) { return c->pid == 0 && c->fd < 0; }

/* Started or never to be: the parent's copies of its passed descriptors go
 * when the spec asks (close_passed). */
static void close_passed(const run_spec_t *spec)
{
    for (int i = 0; spec->close_passed && i < spec->npass_fds; i++)
        close(spec->pass_fds[i]);
}

int run_many(const run_spec_t *specs, run_result_t *results, int n, int max_parallel)
{
    if (max_parallel < 1)
        max_parallel = 1;
    child_t *kids = calloc((size_t)n, sizeof *kids);
    int next = 0, running = 0, finished = 0;
    while (finished < n) {
        while (running < max_parallel && next < n) {
            child_t *c = &kids[next];
            c->spec = &specs[next];
            c->res = &results[next];
            c->fd = -1;
            c->started_fd = -1;
            next++;
            int not_started = budget_used_up(c) || start_child(c) != 0;
            close_passed(c->spec);
            if (not_started) {
                finished++;
                continue;
            }
            running++;
        }
        struct pollfd pfd[MAX_TRACKED];
        child_t *owner[MAX_TRACKED];
        int np = 0;
        for (int i = 0; i < next && np < MAX_TRACKED; i++) {
            if (kids[i].res && kids[i].res->started && kids[i].fd >= 0) {
                pfd[np].fd = kids[i].fd;
                pfd[np].events = POLLIN;
                owner[np++] = &kids[i];
            }
        }
        poll(pfd, (nfds_t)np, 20);
        for (int i = 0; i < np; i++)
            if (pfd[i].revents)
                drain(owner[i]);
        double t = now_seconds();
        for (int i = 0; i < next; i++) {
            child_t *c = &kids[i];
            if (!c->res->started || c->res->output)
                continue;
            if (c->pid > 0)
                reap(c);
            enforce_deadline(c, t);
            if (is_done(c)) {
                finish(c);
                running--;
                finished++;
            }
        }
    }
    free(kids);
    return 0;
}

int run_one(const run_spec_t *spec, run_result_t *result) { return run_many(spec, result, 1, 1); }

void run_describe(const run_result_t *r, const run_spec_t *spec, char *buf, size_t buflen)
{
    if (!r->started && r->budget_out && r->hung_before > 0)
        snprintf(buf, buflen, "was not run: the kernel had already run past its time limit on "
                 "%d dataset%s before it, and one that never ends is not waited for again",
                 r->hung_before, r->hung_before == 1 ? "" : "s");
    else if (!r->started && r->budget_out)
        snprintf(buf, buflen, "was not run: the submission's time budget of %g s for all its "
                 "datasets was used up by the datasets before it", spec->budget_s);
    else if (r->sandbox_failed)
        snprintf(buf, buflen, "did not start: its sandbox could not be set up (it failed "
                 "before the program ran; the machine's fault, not the program's)");
    else if (!r->started)
        snprintf(buf, buflen, "could not be started");
    else if (r->timed_out && r->budget_out)
        snprintf(buf, buflen, "exceeded the time limit (the submission's budget of %g s for all "
                 "its datasets ran out) and was killed", spec->budget_s);
    else if (r->timed_out)
        snprintf(buf, buflen, "exceeded the time limit of %g s and was killed", spec->timeout_s);
    else if (r->output_stopped)
        snprintf(buf, buflen, "was stopped after printing more than %zu bytes",
                 spec->stop_after_bytes);
    else if (r->signaled && r->term_signal == SIGXCPU && spec->cpu_limit_s > 0)
        snprintf(buf, buflen, "ran past its CPU-time limit of %g s and was stopped",
                 spec->cpu_limit_s);
    else if (r->signaled)
        snprintf(buf, buflen, "crashed: killed by signal %d (%s)", r->term_signal,
                 strsignal(r->term_signal));
    else
        snprintf(buf, buflen, "exited with status %d", r->exit_code);
}

void run_result_free(run_result_t *r)
{
    free(r->output);
    r->output = NULL;
}
