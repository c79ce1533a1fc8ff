/* harness_flags.h - what the build of a lab's own programs (its driver,
 * its timing program: build.c, build_timing.c) shares: the nvcc target,
 * the flags the lab's manifest gives every compile of the harness
 * (-DCUGRADE_LAUNCH=<launch>, and -DCUGRADE_LAUNCH_MNK for lab.json
 * "launch_args": "m-n-k"; an array lab's call is a header, since nvcc
 * splits a -D value at its commas: harness_array_header), and when the
 * cached objects must be rebuilt. */
#ifndef CUGRADE_HARNESS_FLAGS_H
#define CUGRADE_HARNESS_FLAGS_H

#include "course/lab.h"
#include "util/util.h"

#define HARNESS_MAX_FLAGS 2
#define HARNESS_FLAG_LEN 128

/* nvcc's -arch: $CUGRADE_NVCC_ARCH, else "native". */
const char *build_nvcc_arch(void);
/* The vgpu backend's target: $CUGRADE_NVCC_ARCH unless it is "native" (the
 * executor needs no GPU), else the first visible GPU's (sm_80 on an A100:
 * the cubin of the same compile is what a GPU replays), else sm_90; its
 * PTX is what the executor runs. */
const char *build_vgpu_arch(void);

/* The modification time of path in seconds, -1 when it is not there. */
double build_mtime(const char *path);

#define BUILD_CACHE_NO_DIR (-2) /* build_cache_lock: the object's folder cannot be made */

/* Makes the folder of the cached object obj and waits for the right to make
 * obj (file_lock), so that one grader at a time compiles it and the others
 * find it made: the lock, for file_unlock (-1: none to be had, go on
 * without), or BUILD_CACHE_NO_DIR, said on log after prefix. */
int build_cache_lock(const char *obj, const char *prefix, strbuf_t *log);

/* The lab's flags for every compile of its driver and timing program;
 * returns how many (at most HARNESS_MAX_FLAGS). */
int harness_flags(const lab_t *lab, char flags[HARNESS_MAX_FLAGS][HARNESS_FLAG_LEN]);

/* An array lab's call, as the header its drivers are built with (-include):
 * the launch function's prototype from lab.json's signature,
 * CUGRADE_ARRAY_CALL(v) (the call of the driver's values v[i], each a
 * device address or a param, cast to the signature's types),
 * CUGRADE_ARRAY_NARGS, and the executor's CUGRADE_ARRAY_ARGS
 * ("in0,in1,out,n0") and CUGRADE_ARRAY_OUT ("1,n0") that the GPU's driver
 * reads too. */
void harness_array_header(const lab_t *lab, strbuf_t *out);
/* That header written to path (atomically; left alone when it holds the
 * same text, so that what it builds stays up to date). 0, or -1 on log. */
int harness_array_header_write(const lab_t *lab, const char *path, strbuf_t *log);

/* The newest modification time of the files every lab's harness shares
 * (<root>/labs/common: harness.h, harness_crash.h, timing.h, ...), which a
 * cached harness object depends on, whichever of them it includes. */
double harness_common_mtime(const char *root);

/* The newest modification time among what a cached harness object of the
 * lab depends on besides its source and the common headers: the lab's
 * lab.json (its flags) and every file beside the driver and the timing
 * program (labs/kinds/<kind>/: launch.h, ...). */
double harness_lab_mtime(const lab_t *lab);

#endif
