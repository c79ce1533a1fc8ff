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
} replay_device_t;

/* The record t (its byte file's bytes in blob), with the inputs of the
 * dataset folder inputs_dir (NULL: the record loads none), on dev: the
 * output into out (its data malloc'd). 0; 1 when a kernel failed (err
 * names it and says how); 2 with err when the record, the inputs or
 * the device failed. */
int replay_run(const trace_t *t, const uint8_t *blob, const char *inputs_dir, const replay_device_t *dev,
               matrix_t *out, char *err, size_t errlen);

#endif
