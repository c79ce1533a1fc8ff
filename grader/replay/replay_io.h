/* replay_io.h - a dataset's inputs in and an output out, for whoever puts
 * a lab's arrays on a device outside the student's process: the
 * executor's lab driver (emu/tools/vgpu_calls.cpp), its --replay, and the
 * GPU's trusted runner (replay/cugrade_replay.c). One reading of
 * inputN.bin (the grader's matbin) or inputN.raw (libwb's), one writing
 * of an output (a .bin path: matbin; else libwb .raw). */
#ifndef CUGRADE_REPLAY_IO_H
#define CUGRADE_REPLAY_IO_H

#include "dataset/rawio.h"

#include <stddef.h>

/* Input i of the dataset folder dir into m. 0; -1 with err (naming the
 * file) when neither inputI.bin nor inputI.raw reads. */
int replay_read_input(const char *dir, int i, matrix_t *m, char *err, size_t errlen);

/* m to path. 0; -1 with err. */
int replay_write_output(const char *path, const matrix_t *m, char *err, size_t errlen);

#endif
