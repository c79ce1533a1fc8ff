/* gpuqueue.h - one timing queue per GPU, shared by every `cugrade run` of a
 * batch (separate processes): a reader-writer lock per GPU made of two
 * flock(2)ed files in a folder.
 *
 *   correctness runs  -> gpu_queue_enter(..., GPU_SHARED):    may overlap
 *   timed runs        -> gpu_queue_enter(..., GPU_EXCLUSIVE): alone on the GPU
 *
 * Timed runs go first: once one waits, new correctness runs wait behind it
 * (the "gate" file), so a steady stream of correctness runs cannot starve the
 * timing queue. Behind a correctness run that holds on past a second (a
 * kernel spinning to its time limit), which it must wait for anyway, a
 * waiting timed run lets newcomers through for a moment now and then, so
 * the GPU's other users go on beside that hold instead of stopping for it. The kernel drops a flock when its holder dies, so a killed
 * grader never leaves the queue locked.
 *
 * Every hold that ends is logged, one line appended to <dir>/gpu<N>.holds:
 *   REQUESTED GRANTED RELEASED S|X PID LABEL
 * (now_seconds(), the machine's monotonic clock, so the lines of every
 * process compare; LABEL is $CUGRADE_QUEUE_LABEL, the batch's student id,
 * else "-"): where a batch's GPU time went, which holds timed runs waited
 * behind (batch/gpu_holds.h reads it for the class summary). */
#ifndef CUGRADE_GPUQUEUE_H
#define CUGRADE_GPUQUEUE_H

#include <stddef.h>

typedef enum { GPU_SHARED, GPU_EXCLUSIVE } gpu_use_t;

typedef struct {
    int gate_fd, lock_fd; /* -1 when not held */
    double waited_s;      /* how long entering took */
    /* the hold, for the queue's log: when asked for and granted (now_seconds();
     * 0: not held), how, and where its line goes at the leave (-1: nowhere) */
    double requested, granted;
    gpu_use_t use;
    int log_fd;
} gpu_slot_t;

/* Enters GPU gpu's queue kept in dir (created if missing); blocks until the
 * use is allowed. With dir NULL or "" it is a no-op that always succeeds (a
 * lone `cugrade run`). Returns 0, or -1 with err set. */
int gpu_queue_enter(const char *dir, int gpu, gpu_use_t use, gpu_slot_t *slot, char *err,
                    size_t errlen);
/* Like gpu_queue_enter, but gives up at once: 1 entered, 0 busy, -1 error. */
int gpu_queue_try(const char *dir, int gpu, gpu_use_t use, gpu_slot_t *slot, char *err,
                  size_t errlen);
void gpu_queue_leave(gpu_slot_t *slot);
/* gpu_queue_enter for a grading, which goes on without the queue when it
 * cannot be used (said on stderr); a no-op without dir (outside a batch). */
void gpu_queue_join(const char *dir, int gpu, gpu_use_t use, gpu_slot_t *slot);

#endif
