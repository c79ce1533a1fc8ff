/* gpu_turn.c - a program's turns on its GPU (gpu_turn.h): a keeper thread
 * reads the program's requests on one pipe, joins or leaves the GPU's queue
 * for it and answers "G" on the other. */
#include "run/gpu_turn.h"
#include "run/gpuqueue.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum { HOLD_NONE, HOLD_SHARED, HOLD_EXCLUSIVE } hold_t;

struct gpu_turns {
    const char *dir;
    int gpu;
    int ready[2], go[2]; /* the program writes ready[1], reads go[0] */
    gpu_slot_t slot;
    hold_t hold;
    double held_since;
    gpu_turn_stats_t *stats; /* the program's, and the clocks' */
    gpu_turn_stats_t *cur;   /* where waits and holds add up: stats, or the tail's */
    gpu_tail_judge_fn judge;
    void *judge_ctx;
    gpu_tail_t *tail;
    pthread_t keeper;
    char *env[8];
    char *const *callers_env;
    int pass[2];
    pthread_mutex_t clock_lock; /* the keeper writes, the runner's thread reads: */
    double opened;              /* when the program was about to start */
    double first_ask;           /* > 0: when it first asked for the GPU */
    double waited_s;            /* its waits in the queue that ended */
    double wait_began;          /* > 0: waiting in the queue since then */
};

/* What of a program's start before its first request is not counted in its
 * budget (its CUDA context, on a busy GPU up to seconds); a program that
 * never asks (student code spinning before the harness's first request) has
 * its start counted past this. */
#define START_CREDIT_MAX_S 10.0

/* Seconds the program's budget clock stood still: its start until its first
 * request (at most START_CREDIT_MAX_S) and its waits in the queue, the one
 * under way included (run_spec_t paused_s). */
static double paused_now(void *ctx)
{
    gpu_turns_t *t = ctx;
    pthread_mutex_lock(&t->clock_lock);
    double now = now_seconds();
    double start = (t->first_ask > 0 ? t->first_ask : now) - t->opened;
    double p = (start < START_CREDIT_MAX_S ? start : START_CREDIT_MAX_S) + t->waited_s +
               (t->wait_began > 0 ? now - t->wait_began : 0);
    if (t->tail && t->tail->granted) /* the timing tail is not the datasets' budget's */
        p += now - t->tail->began;
    pthread_mutex_unlock(&t->clock_lock);
    return p;
}

static void clock_stops(gpu_turns_t *t)
{
    pthread_mutex_lock(&t->clock_lock);
    t->wait_began = now_seconds();
    if (!(t->first_ask > 0))
        t->first_ask = t->wait_began;
    pthread_mutex_unlock(&t->clock_lock);
}

static void clock_goes_on(gpu_turns_t *t)
{
    pthread_mutex_lock(&t->clock_lock);
    t->waited_s += now_seconds() - t->wait_began;
    t->wait_began = 0;
    pthread_mutex_unlock(&t->clock_lock);
}

static void enter(gpu_turns_t *t, gpu_use_t use)
{
    char err[512];
    clock_stops(t);
    if (gpu_queue_enter(t->dir, t->gpu, use, &t->slot, err, sizeof err) != 0) {
        fprintf(stderr, "cugrade: %s (going on without the GPU queue)\n", err);
        t->slot.waited_s = 0;
    }
    clock_goes_on(t);
    t->cur->waited_s += t->slot.waited_s;
    t->hold = use == GPU_EXCLUSIVE ? HOLD_EXCLUSIVE : HOLD_SHARED;
    t->held_since = now_seconds();
}

static void leave(gpu_turns_t *t)
{
    double held = now_seconds() - t->held_since;
    if (t->hold == HOLD_EXCLUSIVE)
        t->cur->exclusive_s += held;
    else if (t->hold == HOLD_SHARED)
        t->cur->shared_s += held;
    if (t->hold != HOLD_NONE)
        gpu_queue_leave(&t->slot);
    t->hold = HOLD_NONE;
}

/* A "T": the judge's answer, once; from a "G" on, the turns are the tail's. */
static char judge_tail(gpu_turns_t *t)
{
    pthread_mutex_lock(&t->clock_lock); /* what gpu_turns_offer_tail set, seen whole */
    gpu_tail_t *tail = t->tail;
    gpu_tail_judge_fn judge = t->judge;
    void *judge_ctx = t->judge_ctx;
    pthread_mutex_unlock(&t->clock_lock);
    if (!tail || tail->asked)
        return 'N';
    tail->asked = 1;
    if (!judge(judge_ctx))
        return 'N';
    pthread_mutex_lock(&t->clock_lock);
    tail->began = now_seconds();
    tail->granted = 1;
    pthread_mutex_unlock(&t->clock_lock);
    t->cur = &tail->st;
    return 'G';
}

/* One request; 0 to go on listening, -1 to stop: a request out of order
 * (the hold then stays as it is until the program's end), or the program
 * gone while it waited (the hold ends). */
static int answer(gpu_turns_t *t, char c)
{
    char reply = 'G';
    if (c == 'S' && t->hold == HOLD_NONE) {
        enter(t, GPU_SHARED);
        t->cur->shares++;
    } else if (c == 'R' && t->hold != HOLD_EXCLUSIVE) {
        leave(t);
        enter(t, GPU_EXCLUSIVE);
        t->cur->turn_taken = 1;
    } else if (c == 'T' && t->hold == HOLD_NONE) {
        reply = judge_tail(t);
    } else if (c == 'D' && t->hold != HOLD_NONE) {
        leave(t);
        return 0;
    } else {
        return -1;
    }
    if (write(t->go[1], &reply, 1) == 1)
        return 0;
    leave(t); /* no reader: the program died waiting for its turn */
    return -1;
}

/* Reads requests until the program is gone (EOF: every copy of the pipe's
 * writing end closed, the grader's at hang_up), which ends its hold at once
 * even while the runner still waits on other programs. */
static void *keep_turns(void *arg)
{
    gpu_turns_t *t = arg;
    char c;
    ssize_t n;
    while ((n = read(t->ready[0], &c, 1)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 || answer(t, c) != 0)
            return NULL;
    }
    leave(t);
    return NULL;
}

/* The program was reaped (run_spec_t ended): the grader's copies of its ends
 * of the pipes close, so the keeper reads EOF once the program's own copies
 * are gone with it. Does not wait. */
static void hang_up(void *ctx)
{
    gpu_turns_t *t = ctx;
    for (int i = 0; i < 2; i++) {
        if (t->pass[i] >= 0)
            close(t->pass[i]);
        t->pass[i] = -1;
    }
}

gpu_turns_t *gpu_turns_open(const char *queue_dir, int gpu, gpu_turn_stats_t *stats)
{
    memset(stats, 0, sizeof *stats);
    gpu_turns_t *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->dir = queue_dir;
    t->gpu = gpu;
    t->stats = t->cur = stats;
    pthread_mutex_init(&t->clock_lock, NULL);
    t->opened = now_seconds(); /* the program starts without the GPU */
    t->pass[0] = t->pass[1] = -1;
    if (pipe2(t->ready, O_CLOEXEC) != 0) {
        free(t);
        return NULL;
    }
    if (pipe2(t->go, O_CLOEXEC) != 0) {
        close(t->ready[0]);
        close(t->ready[1]);
        free(t);
        return NULL;
    }
    signal(SIGPIPE, SIG_IGN); /* a "G" to a program that died is an error, not our death */
    if (pthread_create(&t->keeper, NULL, keep_turns, t) != 0) {
        for (int i = 0; i < 2; i++) {
            close(t->ready[i]);
            close(t->go[i]);
        }
        free(t);
        return NULL;
    }
    return t;
}

void gpu_turns_offer_tail(gpu_turns_t *t, gpu_tail_judge_fn judge, void *ctx, gpu_tail_t *tail)
{
    memset(tail, 0, sizeof *tail);
    pthread_mutex_lock(&t->clock_lock); /* the keeper, started already, reads them */
    t->judge = judge;
    t->judge_ctx = ctx;
    t->tail = tail;
    pthread_mutex_unlock(&t->clock_lock);
}

void gpu_turns_give(gpu_turns_t *t, run_spec_t *spec)
{
    int n = 0;
    t->callers_env = spec->extra_env;
    for (char *const *e = spec->extra_env; e && *e && n < 6; e++)
        t->env[n++] = *e;
    t->env[n++] = "CUGRADE_TURN_FDS=4,5"; /* RUN_PASS_FD, RUN_PASS_FD + 1 */
    t->env[n] = NULL;
    t->pass[0] = t->go[0];
    t->pass[1] = t->ready[1];
    spec->pass_fds = t->pass;
    spec->npass_fds = 2;
    spec->extra_env = t->env;
    spec->paused_s = paused_now; /* its waits in the queue are not its time */
    spec->paused_ctx = t;
    spec->ended = hang_up;
    spec->ended_ctx = t;
}

void gpu_turns_close(gpu_turns_t *t, run_spec_t *spec)
{
    hang_up(t); /* if the runner did not: every writer gone, the keeper reads EOF */
    pthread_join(t->keeper, NULL);
    leave(t);
    t->stats->paused_s = paused_now(t);
    t->stats->start_s = t->first_ask > 0 ? t->first_ask - t->opened : 0;
    if (t->tail && t->tail->granted)
        t->tail->tail_s = now_seconds() - t->tail->began;
    close(t->ready[0]);
    close(t->go[1]);
    spec->pass_fds = NULL;
    spec->npass_fds = 0;
    spec->extra_env = t->callers_env;
    spec->paused_s = NULL;
    spec->paused_ctx = NULL;
    spec->ended = NULL;
    spec->ended_ctx = NULL;
    pthread_mutex_destroy(&t->clock_lock);
    free(t);
}

int gpu_turn_run(const char *queue_dir, int gpu, run_spec_t *spec, run_result_t *result,
                 gpu_turn_stats_t *stats)
{
    gpu_turns_t *t = gpu_turns_open(queue_dir, gpu, stats);
    if (!t)
        return run_one(spec, result);
    gpu_turns_give(t, spec);
    int rc = run_one(spec, result);
    gpu_turns_close(t, spec);
    return rc;
}
