/* queue_scaling.c - the per-GPU timing queues (grader/run/gpuqueue.h) under a
 * batch's load, without a GPU: W worker threads grade J pretend submissions,
 * worker w on queue w mod G as `cugrade batch` gives them out; each
 * submission works on the CPU (no hold), holds its GPU shared (its dataset
 * runs), works again, then holds it alone (its timed part). The times are
 * scaled-down shares of a lab 3 grading measured on an H100 (docs/benchmarks.md).
 * It checks what the queue promises, that no hold overlaps an exclusive one
 * on the same GPU, and prints submissions a minute for G queues: how a batch
 * scales with GPUs when the GPU's queue is what limits it.
 *
 *     queue_scaling GPUS WORKERS JOBS CPU_MS SHARED_MS EXCLUSIVE_MS [HUNG_EVERY HUNG_MS]
 *
 * With HUNG_EVERY = N, every Nth submission is a hung kernel: instead of its
 * shared hold it makes HUNG_HOLDS shared holds of HUNG_MS each (a dataset
 * run to its time limit, again and again until the budget is used up): how
 * much the hung kernels' GPU limits cost the whole batch.
 *
 * Exit 0 with one line "gpus G workers W jobs J: S s, R submissions/minute,
 * exclusive overlaps 0"; 1 when a hold overlapped an exclusive one or a
 * queue call failed; 2 bad usage. */
#include "run/gpuqueue.h"
#include "util/util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_GPUS 16

#define HUNG_HOLDS 3

static int gpus, workers, jobs, hung_every;
static double cpu_ms, shared_ms, excl_ms, hung_ms;
static char dir[64];
static atomic_int next_job, failures, overlaps;
static atomic_int shared_in[MAX_GPUS], excl_in[MAX_GPUS];

static void pause_ms(double ms)
{
    struct timespec t = {(time_t)(ms / 1000), (long)((ms - 1000 * (long)(ms / 1000)) * 1e6)};
    while (nanosleep(&t, &t) != 0)
        ;
}

static void hold(int gpu, gpu_use_t use, double ms)
{
    gpu_slot_t slot;
    char err[256];
    if (gpu_queue_enter(dir, gpu, use, &slot, err, sizeof err) != 0) {
        fprintf(stderr, "queue_scaling: %s\n", err);
        atomic_fetch_add(&failures, 1);
        return;
    }
    atomic_int *mine = use == GPU_EXCLUSIVE ? &excl_in[gpu] : &shared_in[gpu];
    int before = atomic_fetch_add(mine, 1);
    if (atomic_load(&excl_in[gpu]) > (use == GPU_EXCLUSIVE) ||
        (use == GPU_EXCLUSIVE && (before > 0 || atomic_load(&shared_in[gpu]) > 0)))
        atomic_fetch_add(&overlaps, 1);
    pause_ms(ms);
    atomic_fetch_sub(mine, 1);
    gpu_queue_leave(&slot);
}

static void *worker(void *arg)
{
    int gpu = (int)(long)arg % gpus;
    int job;
    while ((job = atomic_fetch_add(&next_job, 1)) < jobs) {
        pause_ms(cpu_ms / 2); /* build */
        if (hung_every > 0 && job % hung_every == hung_every - 1)
            for (int i = 0; i < HUNG_HOLDS; i++)
                hold(gpu, GPU_SHARED, hung_ms);
        else
            hold(gpu, GPU_SHARED, shared_ms);
        pause_ms(cpu_ms / 2); /* emulator checks, timing program start */
        hold(gpu, GPU_EXCLUSIVE, excl_ms);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if ((argc != 7 && argc != 9) || (gpus = atoi(argv[1])) < 1 || gpus > MAX_GPUS ||
        (workers = atoi(argv[2])) < 1 || (jobs = atoi(argv[3])) < 1 ||
        (argc == 9 && (hung_every = atoi(argv[7])) < 1)) {
        fprintf(stderr, "usage: queue_scaling GPUS WORKERS JOBS CPU_MS SHARED_MS EXCLUSIVE_MS "
                        "[HUNG_EVERY HUNG_MS]\n");
        return 2;
    }
    cpu_ms = atof(argv[4]), shared_ms = atof(argv[5]), excl_ms = atof(argv[6]);
    hung_ms = argc == 9 ? atof(argv[8]) : 0;
    snprintf(dir, sizeof dir, "/tmp/cugrade-qscale-XXXXXX");
    if (!mkdtemp(dir))
        return 2;
    pthread_t *t = calloc((size_t)workers, sizeof *t);
    double t0 = now_seconds();
    for (long w = 0; w < workers; w++)
        pthread_create(&t[w], NULL, worker, (void *)w);
    for (int w = 0; w < workers; w++)
        pthread_join(t[w], NULL);
    double s = now_seconds() - t0;
    rm_rf(dir);
    free(t);
    printf("gpus %d workers %d jobs %d: %.2f s, %.1f submissions/minute, exclusive overlaps %d\n",
           gpus, workers, jobs, s, jobs * 60 / s, atomic_load(&overlaps));
    return atomic_load(&failures) || atomic_load(&overlaps) ? 1 : 0;
}
