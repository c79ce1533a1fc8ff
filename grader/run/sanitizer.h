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
 * appended to out, in time linear in its lines (the program shares the
 * tool's output and may print reports of its own). A repeated message is
 * told from out's findings; a repeated source line only within this call
 * (sanitizer_check_run tells them across its tools). Returns the number
 * added. */
int sanitizer_parse(const char *tool, const char *output, emu_report_t *out);

/* The tools, as bits of a set. */
enum {
    SANITIZER_MEMCHECK = 1,
    SANITIZER_RACECHECK = 2,
    SANITIZER_SYNCCHECK = 4,
    SANITIZER_INITCHECK = 8,
    SANITIZER_ALL = 15
};

/* Runs the tools of the set (at once) on one prepared run (its program and
 * inputs); the findings go to out. Returns -1 when compute-sanitizer is not
 * available. */
int sanitizer_check_run(const ds_run_t *run, double timeout_s, unsigned tools,
                        emu_report_t *out);

/* The same on a trusted program's command line (the GPU's replay runner,
 * bin/cugrade-replay, which holds no student host code: not sandboxed),
 * run in cwd. */
int sanitizer_check_command(char *const *argv, const char *cwd, double timeout_s, unsigned tools,
                            emu_report_t *out);

/* "memcheck", "memcheck and racecheck", ... : the tools of a set, for a report. */
void sanitizer_tools_named(unsigned tools, char *buf, size_t buflen);

#endif
