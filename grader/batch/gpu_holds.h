/* gpu_holds.h - where a batch's GPU time went, read from its GPU queues'
 * logs (run/gpuqueue.h: RESULTS_DIR/.gpu-queue/gpu<N>.holds, a line a hold,
 * "REQUESTED GRANTED RELEASED S|X PID LABEL", LABEL the student id): per
 * GPU, the time held alone (timed runs) and by anyone, how long timed runs
 * waited, and how much of that behind shared holds longer than
 * GPU_HOLD_LONG_S (a driver's whole list, or a hung kernel running to its
 * time limit), with whose. The class summary prints it, summary.json and
 * class.html keep it. */
#ifndef CUGRADE_GPU_HOLDS_H
#define CUGRADE_GPU_HOLDS_H

#include <json-c/json.h>

#define GPU_HOLD_LONG_S 2.0
#define GPU_HOLDS_MAX_GPUS 16
#define GPU_HOLDS_MAX_NAMED 5 /* long holds named, the longest first */

typedef struct {
    char label[64];
    double seconds;
} gpu_long_hold_t;

typedef struct {
    int gpu;
    int shared, alone;     /* holds */
    double span_s;         /* the first request to the last release */
    double alone_s;        /* held alone (timed runs) */
    double busy_s;         /* some hold on */
    double waited_s;       /* timed runs' waits for the GPU */
    double behind_long_s;  /* the part of those waits while a long shared hold was on */
    int nlong;             /* shared holds longer than GPU_HOLD_LONG_S */
    gpu_long_hold_t longest[GPU_HOLDS_MAX_NAMED];
    int nnamed;
} gpu_queue_use_t;

typedef struct {
    gpu_queue_use_t gpus[GPU_HOLDS_MAX_GPUS];
    int n;
} gpu_holds_t;

/* Reads the logs in queue_dir (no folder or no log: n = 0). Lines that do
 * not parse are skipped. */
void gpu_holds_read(const char *queue_dir, gpu_holds_t *out);

/* One line a GPU ("GPU 0: 1210 holds (1076 shared, 134 alone) over ..."),
 * malloc'd; NULL when n = 0. */
char *gpu_holds_text(const gpu_holds_t *h);

/* summary.json's "gpu_queues" (NULL when n = 0). */
json_object *gpu_holds_json(const gpu_holds_t *h);

#endif
