/* gpu_choice.c - a submission takes the GPU with the fewest submissions on
 * it (gpu_choice.h): seats are flock(2)ed files in the queue's folder. */
#include "run/gpu_choice.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

int gpu_choice_parse(const char *spec, gpu_choice_t *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    const char *p = spec, *colon[3];
    for (int k = 0; k < 3; k++) {
        colon[k] = strchr(p, ':');
        if (!colon[k])
            return fail(err, errlen, "bad --gpu-choice '%s' (INDEX:VISIBLE:NODE:BASELINE)", spec);
        p = colon[k] + 1;
    }
    char *end;
    long index = strtol(spec, &end, 10);
    size_t vis = (size_t)(colon[1] - colon[0] - 1), node = (size_t)(colon[2] - colon[1] - 1);
    if (end != colon[0] || end == spec || index < 0 || index >= GPU_SEATS_MAX || vis == 0 ||
        vis >= sizeof c->visible || node >= sizeof c->node ||
        strlen(colon[2] + 1) >= sizeof c->baseline)
        return fail(err, errlen, "bad --gpu-choice '%s' (INDEX:VISIBLE:NODE:BASELINE)", spec);
    c->index = (int)index;
    memcpy(c->visible, colon[0] + 1, vis);
    memcpy(c->node, colon[1] + 1, node);
    snprintf(c->baseline, sizeof c->baseline, "%s", colon[2] + 1);
    return 0;
}

int gpu_choice_format(const gpu_choice_t *c, char *out, size_t outlen)
{
    if (!c->visible[0] || strchr(c->visible, ':') || strchr(c->node, ':'))
        return -1; /* would not read back */
    int n = snprintf(out, outlen, "%d:%s:%s:%s", c->index, c->visible, c->node, c->baseline);
    return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

static int open_seat(const char *dir, int gpu, int seat)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/gpu%d.seat%d", dir, gpu, seat);
    return open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
}

/* 1 when seat is free, taken now by *fd (kept open); 0 taken; -1 error. */
static int try_seat(const char *dir, int gpu, int seat, int *fd)
{
    *fd = open_seat(dir, gpu, seat);
    if (*fd < 0)
        return -1;
    while (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EINTR)
            continue;
        int busy = errno == EWOULDBLOCK;
        close(*fd);
        *fd = -1;
        return busy ? 0 : -1;
    }
    return 1;
}

int gpu_seats_taken(const char *dir, int gpu)
{
    int taken = 0;
    for (int seat = 0; seat < GPU_SEATS_MAX; seat++) {
        int fd, rc = try_seat(dir, gpu, seat, &fd);
        if (rc < 0)
            break;
        taken += rc == 0;
        if (fd >= 0)
            close(fd); /* the lock goes with it */
    }
    return taken;
}

static int seat_fd = -1; /* the seat this process sits on, till it exits */

/* Sits on a free seat of gpu (none free: stands, counted by no one). */
static void sit(const char *dir, int gpu)
{
    if (seat_fd >= 0)
        close(seat_fd);
    seat_fd = -1;
    for (int seat = 0; seat < GPU_SEATS_MAX; seat++) {
        int fd, rc = try_seat(dir, gpu, seat, &fd);
        if (rc != 0) {
            seat_fd = rc == 1 ? fd : -1;
            return;
        }
    }
}

int gpu_choose(const char *dir, const gpu_choice_t *c, int n, int home)
{
    if (n <= 0)
        return -1;
    int at = 0; /* home's place in c */
    for (int i = 0; i < n; i++)
        at = c[i].index == home ? i : at;
    home = at;
    if (!dir || !dir[0] || mkdir_p(dir, NULL, 0) != 0)
        return home;
    int best = home, fewest = gpu_seats_taken(dir, c[home].index);
    for (int k = 1; k < n && fewest > 0; k++) {
        int i = (home + k) % n, taken = gpu_seats_taken(dir, c[i].index);
        if (taken < fewest)
            best = i, fewest = taken;
    }
    sit(dir, c[best].index);
    return best;
}

void gpu_choice_apply(const gpu_choice_t *c)
{
    setenv("CUDA_VISIBLE_DEVICES", c->visible, 1);
    if (c->node[0])
        setenv("CUGRADE_GPU_NODE", c->node, 1);
    else
        unsetenv("CUGRADE_GPU_NODE");
}
