/* gpu_turn.h - a program's turns on its GPU, asked by the program itself,
 * so that it holds the GPU's queue (gpuqueue.h) only while it uses the GPU:
 *
 *   "S"  it is about to use the GPU beside others (a dataset's copies and
 *        kernels; a timing program's inputs): it waits for "G", then
 *        holds the GPU shared;
 *   "R"  its timed part: it waits for "G", then holds the GPU alone;
 *   "D"  done with it for now: the hold ends.
 *   "T"  (a timed driver, once its datasets have ended, holding nothing) may
 *        it time the submission now, in this process? The grader's judge
 *        (gpu_turns_offer_tail) answers "G" or "N"; after a "G", the
 *        program's turns (a timing program's "S", "R", "D") count as the
 *        tail's, and the budget's clock stands still.
 *
 * Over two pipes the program gets as descriptors 4 and 5, named in
 * $CUGRADE_TURN_FDS="4,5" (labs/common/harness.h harness_gpu_share,
 * harness_gpu_done; timing.h timing_wait_turn). A keeper thread of the
 * grader answers; the program's end (EOF) ends any hold. So a lab driver
 * run on every dataset in one process holds nothing while it starts (its
 * CUDA context) or reads and writes files, and a timing program holds the
 * GPU alone for its timed reps only: the exclusive hold, the budget a batch
 * on one GPU is counted in. Only harness code asks: the submission's code,
 * which cannot make system calls (objcheck.h), cannot write to the pipes. */
#ifndef CUGRADE_GPU_TURN_H
#define CUGRADE_GPU_TURN_H

#include "run/runner.h"

typedef struct {
    double waited_s;    /* in the queue, shared and exclusive together */
    double exclusive_s; /* holding the GPU alone */
    double shared_s;    /* holding it beside others */
    int turn_taken;     /* the program asked for its turn alone ("R") and got it */
    int shares;         /* "S" granted */
    double start_s;     /* its start until its first request: exec, the CUDA driver and
                         * context (a timing program's cuBLAS too); 0 if it never asked */
    double paused_s;    /* the budget's clock stood still: before the first turn and in the
                         * queue (run_spec_t paused_s; set at the close) */
} gpu_turn_stats_t;

typedef struct gpu_turns gpu_turns_t;

/* The timing tail of a list-mode process (labs/common/harness.h): whether
 * it asked ("T") and was let time, its turns and waits from then on, and
 * how long it ran from the "G" to the program's end. */
typedef struct {
    int asked, granted;
    gpu_turn_stats_t st;
    double began; /* now_seconds() of the "G" */
    double tail_s;
} gpu_tail_t;

/* Judges a "T": 1 to let the program time now, 0 not. Runs on the keeper's
 * thread while the program waits for the answer. */
typedef int (*gpu_tail_judge_fn)(void *ctx);

/* Turns on GPU gpu of the queue in queue_dir (NULL or "": no queue, every
 * turn given at once); stats (zeroed here) are filled until the close.
 * NULL when the pipes or the thread cannot be made. */
gpu_turns_t *gpu_turns_open(const char *queue_dir, int gpu, gpu_turn_stats_t *stats);

/* Gives spec the pipes (pass_fds) and $CUGRADE_TURN_FDS (extra_env: the
 * caller's entries kept, at most 6); run it, then close. */
void gpu_turns_give(gpu_turns_t *t, run_spec_t *spec);

/* Before gpu_turns_give: answer the program's "T" with judge(ctx); tail
 * (zeroed here) gets what happened. Without it every "T" is answered "N". */
void gpu_turns_offer_tail(gpu_turns_t *t, gpu_tail_judge_fn judge, void *ctx, gpu_tail_t *tail);

/* After the program ended: waits for the keeper, ends any hold, frees t and
 * gives spec back its own extra_env. */
void gpu_turns_close(gpu_turns_t *t, run_spec_t *spec);

/* run_one(spec) with turns (open, give, close); without them when they
 * cannot be made (a timing program then never gets its turn, and fails). */
int gpu_turn_run(const char *queue_dir, int gpu, run_spec_t *spec, run_result_t *result,
                 gpu_turn_stats_t *stats);

#endif
