/* sanitizer.h - the GPU side of the checks: run the lab program under NVIDIA
 * compute-sanitizer (memcheck, racecheck, synccheck, initcheck) on a few
 * small datasets and turn its reports into the same findings the CPU
 * emulator produces (race, global-oob, uninit-global, barrier-divergence),
 * so they count against the same rubric checks. */
#ifndef CUGRADE_SANITIZER_H
#define CUGRADE_SANITIZER_H

#include "run/emureport.h"
#include "run/runs.h"

/* Parses one tool's output into findings (one per distinct source line),
 * appended to out. Returns the number added. */
int sanitizer_parse(const char *tool, const char *output, emu_report_t *out);

/* Runs the four tools on one prepared run (its program and inputs); the
 * findings go to out. Returns -1 when compute-sanitizer is not available. */
int sanitizer_check_run(const ds_run_t *run, double timeout_s, emu_report_t *out);

#endif
