/* vgpu_replay.h - bin/cugrade-vgpu --replay: a launch record done again on
 * the executor with no program at all (grader/replay/replay.h), the check
 * that a record holds everything its output came from: replayed, it must
 * give the same output (emu/tests/test_vgpu.cpp). */
#ifndef CUGRADE_VGPU_REPLAY_H
#define CUGRADE_VGPU_REPLAY_H

#include "ptx.h"

/* The record at trace_path (and trace_path.bytes) on d, the dataset's
 * inputs from inputs_dir (may be null), the output written to out_path.
 * 0; 1 when a kernel failed; 2 when the record, a file or the device
 * failed (a message on stderr either way). */
int vgpu_replay(ptx_device_t *d, const char *trace_path, const char *inputs_dir, const char *out_path);

#endif
