/* gpu_turn.h - run a timing program so that it holds its GPU alone only for
 * its timed part. The program starts outside the GPU's queue (its CUDA
 * context and cuBLAS made while other programs use the GPU), joins it as a
 * shared user for its setup (inputs and expected outputs, beside other
 * submissions' correctness runs), asks for its turn, and is given the GPU
 * alone until it says it is done (labs/common/timing.h's timing_share_gpu,
 * timing_wait_turn and timing_turn_done, over two pipes). So the exclusive
 * hold, the budget a batch on one GPU is counted in, is the timed reps and
 * nothing else. */
#ifndef CUGRADE_GPU_TURN_H
#define CUGRADE_GPU_TURN_H

#include "run/runner.h"

typedef struct {
    double waited_s;    /* in the queue, shared and exclusive together */
    double exclusive_s; /* holding the GPU alone */
    int turn_taken;     /* the program asked for its turn and got it */
} timed_run_stats_t;

/* Runs spec (its pass_fds are set here, and a variable added to its
 * extra_env, at most 6 of the caller's kept) on GPU gpu of the
 * queue in queue_dir (NULL or "": a lone run, no queue, the turn given at
 * once). Returns run_one's status. */
int timed_run(const char *queue_dir, int gpu, run_spec_t *spec, run_result_t *result,
              timed_run_stats_t *stats);

#endif
