/* ptxas.h - the resource usage nvcc's assembler reports with -Xptxas -v:
 * per kernel, registers, static shared memory, stack frame and spills. */
#ifndef CUGRADE_PTXAS_H
#define CUGRADE_PTXAS_H

#include "util/util.h"

/* Appends one line per kernel found in a compiler log ("kernel K: 32
 * registers, 2048 B static shared memory, 0 B stack, no spills") to out;
 * returns how many kernels it found. */
int ptxas_summarise(const char *log, strbuf_t *out);

/* Copies log to out without the "ptxas info" lines and their indented
 * continuation lines. */
void ptxas_strip(const char *log, strbuf_t *out);

#endif
