/* gpuqueue.c - the per-GPU timing queue (see gpuqueue.h): flock(2) on
 * <dir>/gpu<N>.gate and <dir>/gpu<N>.lock. A shared user passes through the
 * gate and holds the lock shared; an exclusive user holds the gate (stopping
 * newcomers) while it waits for the lock exclusively, and keeps both; behind
 * a long shared hold it opens the gate for a moment now and then. */
#include "run/gpuqueue.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

static int open_lock_file(const char *dir, int gpu, const char *suffix, char *err, size_t errlen)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/gpu%d.%s", dir, gpu, suffix);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        fail(err, errlen, "%s: cannot open the GPU queue: %s", path, strerror(errno));
    return fd;
}

/* The queue's log of holds, for appending (-1: none; the queue works without). */
static int open_log(const char *dir, int gpu)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/gpu%d.holds", dir, gpu);
    return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
}

/* One line for a hold that ends now, in one write (O_APPEND: lines of
 * processes that leave at once do not mix). */
static void log_hold(const gpu_slot_t *slot)
{
    char label[128];
    const char *l = getenv("CUGRADE_QUEUE_LABEL");
    snprintf(label, sizeof label, "%s", l && *l ? l : "-");
    for (char *p = label; *p; p++)
        if (*p <= ' ' || *p == 0x7f)
            *p = '_';
    char line[256];
    int n = snprintf(line, sizeof line, "%.6f %.6f %.6f %c %d %s\n", slot->requested,
                     slot->granted, now_seconds(), slot->use == GPU_SHARED ? 'S' : 'X',
                     (int)getpid(), label);
    if (n > 0 && write(slot->log_fd, line, (size_t)n) < 0) {
        /* a log that cannot be written loses a line, never a grading */
    }
}

/* flock that retries on EINTR: 0 held, 1 busy (nonblocking only), -1 error. */
static int lock_fd_op(int fd, int op, int nonblocking)
{
    for (;;) {
        if (flock(fd, op | (nonblocking ? LOCK_NB : 0)) == 0)
            return 0;
        if (errno == EWOULDBLOCK && nonblocking)
            return 1;
        if (errno != EINTR)
            return -1;
    }
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd); /* closing the last descriptor drops the flock */
    *fd = -1;
}

/* How long an exclusive user waits for the lock with the gate held; a shared
 * hold still on after that is a long one (a kernel spinning to its time
 * limit, a compute-sanitizer run), which the timed run must wait for anyway:
 * it opens the gate for GATE_YIELD_S, so that the GPU's other users go on
 * beside that hold instead of queueing behind it, and closes it again. A
 * correctness run's list holds the GPU a fraction of a second. */
#define GATE_HOLD_S 1.0
#define GATE_YIELD_S 0.02
#define LOCK_POLL_S 0.005

static void nap(double s)
{
    struct timespec t = {0, (long)(s * 1e9)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}

/* The exclusive use, blocking: the gate held while the shared users drain,
 * opened for a moment whenever one holds on past GATE_HOLD_S. 0 held (gate
 * and lock), -1 error. */
static int lock_exclusive(int gate_fd, int lock_fd)
{
    for (;;) {
        if (lock_fd_op(gate_fd, LOCK_EX, 0) != 0)
            return -1;
        double until = now_seconds() + GATE_HOLD_S;
        int rc;
        while ((rc = lock_fd_op(lock_fd, LOCK_EX, 1)) == 1 && now_seconds() < until)
            nap(LOCK_POLL_S);
        if (rc != 1)
            return rc;
        if (lock_fd_op(gate_fd, LOCK_UN, 0) != 0)
            return -1;
        nap(GATE_YIELD_S);
    }
}

/* 1 entered, 0 busy (nonblocking only), -1 error. */
static int enter(const char *dir, int gpu, gpu_use_t use, int nonblocking, gpu_slot_t *slot,
                 char *err, size_t errlen)
{
    double t0 = now_seconds();
    slot->gate_fd = slot->lock_fd = slot->log_fd = -1;
    slot->waited_s = slot->requested = slot->granted = 0;
    slot->use = use;
    if (!dir || !dir[0])
        return 1;
    if (mkdir_p(dir, err, errlen) != 0)
        return -1;
    slot->gate_fd = open_lock_file(dir, gpu, "gate", err, errlen);
    slot->lock_fd = slot->gate_fd < 0 ? -1 : open_lock_file(dir, gpu, "lock", err, errlen);
    if (slot->lock_fd < 0) {
        gpu_queue_leave(slot);
        return -1;
    }
    int rc;
    if (use == GPU_EXCLUSIVE && !nonblocking) {
        rc = lock_exclusive(slot->gate_fd, slot->lock_fd);
    } else {
        rc = lock_fd_op(slot->gate_fd, LOCK_EX, nonblocking);
        if (rc == 0)
            rc = lock_fd_op(slot->lock_fd, use == GPU_SHARED ? LOCK_SH : LOCK_EX, nonblocking);
    }
    if (rc != 0) {
        if (rc < 0)
            fail(err, errlen, "%s: cannot lock the GPU queue: %s", dir, strerror(errno));
        gpu_queue_leave(slot);
        return rc < 0 ? -1 : 0;
    }
    if (use == GPU_SHARED)
        close_fd(&slot->gate_fd); /* let the next one through */
    slot->requested = t0;
    slot->granted = now_seconds();
    slot->waited_s = slot->granted - t0;
    slot->log_fd = open_log(dir, gpu);
    return 1;
}

int gpu_queue_enter(const char *dir, int gpu, gpu_use_t use, gpu_slot_t *slot, char *err,
                    size_t errlen)
{
    return enter(dir, gpu, use, 0, slot, err, errlen) == 1 ? 0 : -1;
}

int gpu_queue_try(const char *dir, int gpu, gpu_use_t use, gpu_slot_t *slot, char *err,
                  size_t errlen)
{
    return enter(dir, gpu, use, 1, slot, err, errlen);
}

void gpu_queue_leave(gpu_slot_t *slot)
{
    if (slot->granted > 0 && slot->log_fd >= 0) { /* a hold that ends: its line */
        log_hold(slot);
        close_fd(&slot->log_fd);
    }
    slot->granted = 0;
    close_fd(&slot->lock_fd);
    close_fd(&slot->gate_fd);
}

void gpu_queue_join(const char *dir, int gpu, gpu_use_t use, gpu_slot_t *slot)
{
    char err[512];
    if (gpu_queue_enter(dir, gpu, use, slot, err, sizeof err) != 0)
        fprintf(stderr, "cugrade: %s (going on without the GPU queue)\n", err);
}
