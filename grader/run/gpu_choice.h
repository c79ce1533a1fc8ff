/* gpu_choice.h - which of a batch's GPUs a submission's runs go to, chosen
 * by the submission itself when it first needs one (after its build): the
 * GPU with the fewest submissions on it now. A batch on several GPUs with
 * $CUGRADE_GPU_CHOICE=fewest hands each child every GPU (cugrade run
 * --gpu-choice, one per GPU); a child
 * "sits" on the GPU it takes (a flock on one of <queue>/gpu<N>.seat<K>,
 * held until it exits), so the count is of the submissions between their
 * first dataset run and their end: those waiting behind a kernel that spins
 * to its time limit included. Join-the-shortest-queue where the queue is,
 * instead of a worker's fixed GPU (worker w -> GPU w % n, the default). On
 * two H200s it made both GPUs end together but graded no faster
 * (docs/benchmarks.md), so it is not the default.
 *
 * A seat's flock drops when its holder dies, so a killed child frees its
 * seat; the seat files are opened close-on-exec, so no run of the
 * submission's code inherits one. */
#ifndef CUGRADE_GPU_CHOICE_H
#define CUGRADE_GPU_CHOICE_H

#include <limits.h>
#include <stddef.h>

#define GPU_CHOICES_MAX 16
#define GPU_SEATS_MAX 64 /* a GPU's seats; a count stops there */
#define GPU_CHOICE_TEXT (PATH_MAX + 256) /* room for one gpu_choice_format */

/* One GPU a child may take: its queue index, what CUDA_VISIBLE_DEVICES
 * names it as, its device file for the sandbox ("": none), and the batch's
 * baseline timing on it ("": none). */
typedef struct {
    int index;
    char visible[160];
    char node[64];
    char baseline[PATH_MAX];
} gpu_choice_t;

/* Parses "INDEX:VISIBLE:NODE:BASELINE" (the baseline last: a path may hold
 * colons; VISIBLE is a number or a GPU/MIG UUID, NODE a /dev path or "").
 * 0, or -1 with err set. */
int gpu_choice_parse(const char *spec, gpu_choice_t *c, char *err, size_t errlen);

/* Writes c as gpu_choice_parse reads it; -1 when it does not fit or would
 * not read back (a colon in VISIBLE or NODE). */
int gpu_choice_format(const gpu_choice_t *c, char *out, size_t outlen);

/* How many submissions sit on GPU gpu of the queue in dir now. */
int gpu_seats_taken(const char *dir, int gpu);

/* Takes the choice with the fewest seats taken (ties: the first from the
 * one whose index is home, then the next in c ...; c[0] when none is),
 * sits on it until the process exits, and returns its position in c; -1 if
 * n is 0. A queue folder that cannot be used still gives an answer
 * (home's). */
int gpu_choose(const char *dir, const gpu_choice_t *c, int n, int home);

/* Points this process's later runs at the choice: $CUDA_VISIBLE_DEVICES and
 * $CUGRADE_GPU_NODE (unset when it has none). */
void gpu_choice_apply(const gpu_choice_t *c);

#endif
