/* build.h - turn a student's source file into a runnable lab program on a
 * backend: the lab driver (host harness) is compiled once per backend and
 * cached under build/; only the student's file is compiled per submission,
 * then both are linked. */
#ifndef CUGRADE_BUILD_H
#define CUGRADE_BUILD_H

#include "build/build_ctx.h"
#include "util/util.h"

#include <stddef.h>

/* Where a build's outputs go: <scratch>/build (made 0700 if need be), the
 * compile jail's only writable folder, so that the scratch folder itself,
 * where the runs' report files lie, stays the grader's (run/sandbox.h).
 * 0, or -1 (errno). */
int build_out_dir(const build_ctx_t *ctx, char *dir, size_t len);


int build_submission(const build_ctx_t *ctx, const char *student_src, build_result_t *out);
void build_result_free(build_result_t *r);


/* GPU only: links the lab's timing program (lab->timing_*) with the
 * student's object (from build_submission, in build_out_dir) and the
 * reference and baseline kernels under renamed symbols, plus cuBLAS. The
 * timing program and the renamed kernels are built once and cached. */
int build_timing_program(const build_ctx_t *ctx, build_result_t *out);

/* GPU only, kernel labs: the lab's driver with the list mode's timing tail
 * (labs/common/harness.h, --each LIST --time ARG...), linked as the timing
 * program is, into <scratch>/program-timed: the datasets and, when their
 * outputs pass, the timing in one process and one CUDA context. */
int build_timed_driver(const build_ctx_t *ctx, build_result_t *out);

/* GPU only: makes the cached objects of both (the timing program's and the
 * timed driver's), side by side, unless they are made: a batch does it
 * while its canary runs, so that its first children do not wait for them.
 * Nothing is said of a failure; each build that needs the object says it. */
void build_timing_caches(const build_ctx_t *ctx);

/* Compiles src with nvcc (cc) into the cached object obj, unless it is newer
 * than src, cc and the lab's and labs/common's files, with the given extra
 * flags, one grader at a time: the others wait and find it made. 0, or -1
 * with the compiler's messages on log and the command in failed. */
int build_gpu_object_cached(const build_ctx_t *ctx, const char *cc, const char *src, char *const *flags, int nflags,
                            const char *obj, strbuf_t *log, char *failed, size_t failedlen);

/* GPU only, an array lab with a library baseline (lab.json array.baseline):
 * labs/kinds/array/library_timer.cu with the lab's reference and baseline
 * under renamed launch functions, each called through the lab's call header,
 * cached under <root>/build/gpu-<arch>/labs/<lab>/library/timer. The lab's
 * own code: 0 with its path in exe, or -1 with why on log. */
int build_library_timer(const build_ctx_t *ctx, char *exe, size_t len, strbuf_t *log);

/* Builds a standalone program (e.g. tools/devquery.cu) for a backend into
 * <root>/build/<backend>/<name>, unless an up-to-date one is there. The
 * program path goes into out; compiler messages into *log (malloc'd). */
int build_tool(const char *root, backend_t backend, const char *src_rel, char *out, size_t outlen,
               char **log);
#endif
