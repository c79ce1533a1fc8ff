/* replay.h - a launch record (trace.h) done again on a device, with no
 * student code present (issue 39, item 5): the steps in order, the
 * dataset's inputs read afresh from its folder, every allocation poisoned
 * (0xFF) as the executor's are, the kernels' pointer arguments made the
 * device's own addresses, and the output captured where the record says.
 * The device is a table of functions: the GPU's driver API in
 * bin/cugrade-replay (replay/cugrade_replay.c), the executor itself in
 * bin/cugrade-vgpu --replay (emu/tools/vgpu_replay.cpp). */
#ifndef CUGRADE_REPLAY_H
#define CUGRADE_REPLAY_H

#include "dataset/rawio.h"
#include "replay/trace.h"

#include <stddef.h>
#include <stdint.h>

/* A device's side. Each returns 0, or -1 with err filled; launch returns 1
 * when the kernel itself failed (an illegal address: the submission's
 * doing, not the device's), with err saying how. */
typedef struct {
    void *self;
    int (*alloc)(void *self, uint64_t bytes, uint64_t *addr, char *err, size_t errlen);
    int (*release)(void *self, uint64_t addr, char *err, size_t errlen);
    int (*to_device)(void *self, uint64_t addr, const void *src, uint64_t n, char *err, size_t errlen);
    int (*from_device)(void *self, void *dst, uint64_t addr, uint64_t n, char *err, size_t errlen);
    int (*fill)(void *self, uint64_t addr, int value, uint64_t n, char *err, size_t errlen);
    int (*launch)(void *self, const trace_op_t *launch, void **args, char *err, size_t errlen);
    /* The kernels' time of the last replay_run, in ms (the GPU's events);
     * NULL: the device does not time. */
    double (*run_ms)(void *self);
    /* The address of the loaded module's variable name, of at least bytes
     * (a record's "global" line); NULL: the device has none to give. */
    int (*global)(void *self, const char *name, uint64_t bytes, uint64_t *addr, char *err, size_t errlen);
} replay_device_t;

/* One implementation to time: a record (t, its byte file's bytes blob)
 * with the inputs of the dataset folder inputs_dir on dev; or, with run
 * set, a baseline of the runner's own (cuBLAS), which run does on those
 * inputs: its output into out (malloc'd), its time into ms; 0, or 2 with
 * err. who names it in messages ("the reference's record"). */
typedef struct {
    const trace_t *t;
    const uint8_t *blob;
    const char *inputs_dir;
    const replay_device_t *dev;
    int (*run)(void *self, const char *inputs_dir, matrix_t *out, double *ms, char *err, size_t errlen);
    void *self;
    const char *who;
} replay_side_t;

/* What replay_time measured of one side. */
typedef struct {
    double median_ms, q1_ms, mean_ms, rse; /* rse: the median's relative standard error, estimated
                                            * from the mean's (stddev / sqrt(reps) / mean) */
    int reps;
    long wrong;      /* the most wrong elements of one replay's output (against the other side's) */
    int wrong_reps;  /* replays whose output had a wrong element */
} replay_times_t;

/* The record t (its byte file's bytes in blob), with the inputs of the
 * dataset folder inputs_dir (NULL: the record loads none), on dev: the
 * output into out (its data malloc'd). 0; 1 when a kernel failed (err
 * names it and says how); 2 with err when the record, the inputs or
 * the device failed. */
int replay_run(const trace_t *t, const uint8_t *blob, const char *inputs_dir, const replay_device_t *dev,
               matrix_t *out, char *err, size_t errlen);

/* How a's outputs are checked against b's: element by element
 * (|a - b| <= atol + rtol |b|, NaN never within), or their sums (a
 * reduction's partial sums, as many as each chose: |sum a - sum b| <= atol
 * + rtol |sum b|; one wrong "element" when not). */
typedef enum { REPLAY_COMPARE_ELEMENTS = 0, REPLAY_COMPARE_SUM } replay_compare_t;

/* Times sides[0] (the submission's record) against the others on the
 * same dataset: sides[1] the reference's record, sides[2..] baselines
 * (n: 1 to REPLAY_MAX_SIDES). One untimed run of each, then reps of each,
 * interleaved (the others, then the submission), every one from fresh
 * inputs and poisoned memory, timed as its side says. Every output of
 * every other side is compared with the reference's first (as compare
 * says, with rtol and atol): times[k].wrong and times[k].wrong_reps. 0;
 * 1 a kernel of the submission's failed; 2 the record or a device
 * failed, or any other side (err says which and why). */
#define REPLAY_MAX_SIDES 4
int replay_time(const replay_side_t *sides, int n, int reps, replay_compare_t compare, double rtol, double atol,
                replay_times_t *times, char *err, size_t errlen);

#endif
