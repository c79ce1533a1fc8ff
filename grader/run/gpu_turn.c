/* gpu_turn.c - a timing program's turn on the GPU (gpu_turn.h): a keeper
 * thread listens on the program's READY pipe and joins the GPU's queue as a
 * shared user at "S", moves to exclusive at "R" and out at "D"; the
 * program's end (EOF on the pipe) ends the hold in any case. */
#include "run/gpu_turn.h"
#include "run/gpuqueue.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef enum { HOLD_NONE, HOLD_SHARED, HOLD_EXCLUSIVE } hold_t;

typedef struct {
    const char *dir;
    int gpu;
    int ready_fd, go_fd; /* our ends: read "R"/"D", write "G" */
    gpu_slot_t slot;
    hold_t hold;
    double held_since;
    timed_run_stats_t *stats;
} turn_t;

static int enter(turn_t *t, gpu_use_t use)
{
    char err[512];
    if (gpu_queue_enter(t->dir, t->gpu, use, &t->slot, err, sizeof err) != 0) {
        fprintf(stderr, "cugrade: %s (timing without the GPU queue)\n", err);
        t->slot.waited_s = 0;
    }
    t->stats->waited_s += t->slot.waited_s;
    t->hold = use == GPU_EXCLUSIVE ? HOLD_EXCLUSIVE : HOLD_SHARED;
    t->held_since = now_seconds();
    return 0;
}

static void leave(turn_t *t)
{
    if (t->hold == HOLD_EXCLUSIVE)
        t->stats->exclusive_s += now_seconds() - t->held_since;
    if (t->hold != HOLD_NONE)
        gpu_queue_leave(&t->slot);
    t->hold = HOLD_NONE;
}

/* "S" (shared use wanted), "R" (its turn alone), "D" (done), in that
 * order, "S" optional; anything else ends the listening, and the hold stays
 * as it is until the program ends. */
static void *keep_turn(void *arg)
{
    turn_t *t = arg;
    char c;
    ssize_t n;
    while ((n = read(t->ready_fd, &c, 1)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        if ((c == 'S' && t->hold == HOLD_NONE && !t->stats->turn_taken) ||
            (c == 'R' && t->hold != HOLD_EXCLUSIVE && !t->stats->turn_taken)) {
            leave(t);
            enter(t, c == 'S' ? GPU_SHARED : GPU_EXCLUSIVE);
            t->stats->turn_taken |= c == 'R';
            if (write(t->go_fd, "G", 1) != 1)
                break; /* the program is gone */
        } else if (c == 'D' && t->hold == HOLD_EXCLUSIVE) {
            leave(t);
        } else {
            break;
        }
    }
    return NULL;
}

int timed_run(const char *queue_dir, int gpu, run_spec_t *spec, run_result_t *result,
              timed_run_stats_t *stats)
{
    char *env[8];
    int nenv = 0;
    char *const *callers = spec->extra_env;
    for (char *const *e = callers; e && *e && nenv < 6; e++)
        env[nenv++] = *e;
    env[nenv++] = "CUGRADE_TURN_FDS=4,5"; /* RUN_PASS_FD, RUN_PASS_FD + 1 */
    env[nenv] = NULL;
    memset(stats, 0, sizeof *stats);
    int ready[2], go[2];
    if (pipe2(ready, O_CLOEXEC) != 0)
        return run_one(spec, result); /* no pipes: the turn is never given, as a lone run */
    if (pipe2(go, O_CLOEXEC) != 0) {
        close(ready[0]);
        close(ready[1]);
        return run_one(spec, result);
    }
    signal(SIGPIPE, SIG_IGN); /* a "G" to a program that died is an error, not our death */
    turn_t t = {.dir = queue_dir, .gpu = gpu, .ready_fd = ready[0], .go_fd = go[1],
                .stats = stats}; /* nothing held until the program asks */
    pthread_t keeper;
    int keeping = pthread_create(&keeper, NULL, keep_turn, &t) == 0;
    int pass[2] = {go[0], ready[1]};
    spec->pass_fds = pass;
    spec->npass_fds = 2;
    spec->extra_env = env;
    int rc = run_one(spec, result);
    close(ready[1]); /* every writer gone: the keeper reads EOF */
    close(go[0]);
    if (keeping)
        pthread_join(keeper, NULL);
    leave(&t);
    close(ready[0]);
    close(go[1]);
    spec->pass_fds = NULL;
    spec->npass_fds = 0;
    spec->extra_env = callers;
    return rc;
}
