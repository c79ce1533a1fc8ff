/* build_ctx.h - what a build is asked to do and what it gives back, apart
 * from build.h so that the pieces build.c calls (build_rules.h) need not
 * include the build itself. */
#ifndef CUGRADE_BUILD_CTX_H
#define CUGRADE_BUILD_CTX_H

#include <limits.h>

#include "build/backend.h"
#include "course/lab.h"

typedef struct {
    const char *root;     /* the cugrade tree (labs/, bin/, build/) */
    backend_t backend;    /* EMU, GPU or VGPU (resolved) */
    const lab_t *lab;
    const char *scratch;  /* per-submission working folder */
    double timeout_s;     /* per compiler invocation */
    int checks;           /* emu only: instrument the student file (emucc --checks) */
} build_ctx_t;

typedef struct {
    int ok;               /* the program was built */
    int internal_error;   /* failed for a reason that is not the student's (exit 2) */
    char *log;            /* compiler and linker messages (malloc'd, may be "") */
    char program[PATH_MAX];
    char ptx[PATH_MAX];   /* vgpu: the PTX of the student's file, which the executor runs ("") */
    char cubin[PATH_MAX]; /* vgpu: the same compile's cubin, which a GPU replays ("": none kept) */
    char command[2048];   /* the command that failed ("" if none did) */
    char refused[1024];   /* the object check refused the submission: "FILE:LINE: refused:
                           * the submission calls fopen, ..." ("" if not) */
    char rule_broken[1024]; /* a rule of the lab (lab.json "rules", rules.h) is broken: "rule
                             * fp32-simt: the submission uses tensor cores (...)" ("" if not);
                             * the build goes on */
    double seconds;
} build_result_t;

#endif
