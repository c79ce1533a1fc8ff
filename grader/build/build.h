/* build.h - turn a student's source file into a runnable lab program on a
 * backend: the lab driver (host harness) is compiled once per backend and
 * cached under build/; only the student's file is compiled per submission,
 * then both are linked. */
#ifndef CUGRADE_BUILD_H
#define CUGRADE_BUILD_H

#include <limits.h>

#include "build/backend.h"
#include "course/lab.h"

typedef struct {
    const char *root;     /* the cugrade tree (labs/, bin/, build/) */
    backend_t backend;    /* EMU or GPU (resolved) */
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
    char command[2048];   /* the command that failed ("" if none did) */
    char refused[1024];   /* the object check refused the submission: "FILE:LINE: refused:
                           * the submission calls fopen, ..." ("" if not) */
    char rule_broken[1024]; /* a rule of the lab (lab.json "rules", rules.h) is broken: "rule
                             * fp32-simt: the submission uses tensor cores (...)" ("" if not);
                             * the build goes on */
    double seconds;
} build_result_t;

int build_submission(const build_ctx_t *ctx, const char *student_src, build_result_t *out);
void build_result_free(build_result_t *r);

/* The backend's compiler: <root>/bin/emucc, or nvcc ($CUGRADE_NVCC, else
 * found in PATH or /usr/local/cuda/bin). 0 if it is there and executable. */
int build_compiler_path(const char *root, backend_t backend, char *out, size_t outlen);

/* GPU only: links the lab's timing program (lab->timing_*) with the
 * student's object (from build_submission, in ctx->scratch) and the
 * reference and baseline kernels under renamed symbols, plus cuBLAS. The
 * timing program and the renamed kernels are built once and cached. */
int build_timing_program(const build_ctx_t *ctx, build_result_t *out);

/* Builds a standalone program (e.g. tools/devquery.cu) for a backend into
 * <root>/build/<backend>/<name>, unless an up-to-date one is there. The
 * program path goes into out; compiler messages into *log (malloc'd). */
int build_tool(const char *root, backend_t backend, const char *src_rel, char *out, size_t outlen,
               char **log);
#endif
