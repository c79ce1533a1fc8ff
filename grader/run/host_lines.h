/* host_lines.h - the source line of a host call the executor named by its
 * address in the program: "cudaMemcpy at program address 0x1a2b copied
 * ..." (the executor's runtime in the program reports where it was called
 * from; emu/tools/vgpu_findings.cpp) becomes "cudaMemcpy at matmul.cu:42
 * copied ...". addr2line reads the submission's program, so it runs in the
 * sandbox, as a tool; the program is built with host line tables for the
 * executor (build.c: -g). An address addr2line knows nothing of stays an
 * address. */
#ifndef CUGRADE_HOST_LINES_H
#define CUGRADE_HOST_LINES_H

#include "run/ds_run.h"

/* Rewrites run r's report (its diag_path, through a temporary file and a
 * rename) with each program address of program turned into FILE:LINE. */
void host_lines_resolve(const ds_run_t *r, const char *program);

/* The same on text (what host_lines_resolve does to the report), with the
 * answers addr2line gave, one line per address in the order they appear
 * ("matmul.cu:42" or a path, "??:0" for none): a new string, or NULL when
 * text names no address. For the tests. */
char *host_lines_apply(const char *text, const char *answers);

#endif
