/* verdict.h - what one dataset run means for the student: passed or not,
 * and a message that says why (the comparison and its hint, the CUDA error,
 * the crash or the time limit, the emulator's findings, the program's own
 * output, cut to its cap). */
#ifndef CUGRADE_VERDICT_H
#define CUGRADE_VERDICT_H

#include "build/backend.h"
#include "course/lab.h"
#include "run/runs.h"
#include "util/util.h"

/* Appends the message to msg; returns 1 if the dataset passed. When the
 * output was compared and is wrong, the error map goes to the next test the
 * caller adds (grade_attach_error_map): add the dataset's test right after.
 * failure gets a short key of how a failing dataset failed, the same for
 * datasets that fail the same way ("hypothesis:b-transposed",
 * "grid-too-small", "timeout", "cuda-error:invalid-configuration", ...): the
 * terminal report groups datasets by it. "" when the dataset passed. A run
 * whose report channel was refused (run/emureport.h: more there than the
 * emulator ever writes) fails, "report-refused", whatever its output. */
int verdict_dataset(const ds_run_t *run, const lab_t *lab, backend_t backend, strbuf_t *msg,
                    char *failure, size_t failure_len);

/* Whether run's output file is there and right (the comparison alone: no
 * message, no error map), for a run that exited 0. Safe to call while the
 * program still runs (a timed driver's "T", run/ds_run.h), off the main
 * thread: it touches no global state. */
int verdict_output_passes(const ds_run_t *run, const lab_t *lab);

#endif
