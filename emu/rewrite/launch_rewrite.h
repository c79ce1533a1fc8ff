/* launch_rewrite.h - turns a CUDA source file into C++ that the host compiler
 * accepts with the emulator's headers: kernel launches `k<<<cfg>>>(args)`
 * become ::cugrade::kernel_launch(...) calls and `extern __shared__ T s[];`
 * becomes a pointer into the block's dynamic shared memory. Line numbers of
 * the student's file are preserved, so compiler messages point at it. */
#ifndef CUGRADE_LAUNCH_REWRITE_H
#define CUGRADE_LAUNCH_REWRITE_H

#include <stddef.h>

/* Rewrites len bytes of src. The result starts with `#line 1 "display_path"`
 * and has as many lines as src after that header.
 *
 *   EXPR<<<CFG>>>(ARGS)
 *     -> ::cugrade::kernel_launch(EXPR, "EXPR", __FILE__, __LINE__).config(CFG)(ARGS)
 *   extern __shared__ [align] TYPE NAME[];
 *     -> static TYPE *const NAME = (TYPE *)__cugrade_dynamic_smem;
 *
 * Returns a malloc'd NUL-terminated string, or NULL with err set to
 * "display_path:line: message" (e.g. "malformed kernel launch"). */
char *emu_rewrite(const char *src, size_t len, const char *display_path, char *err, size_t errlen);

#endif
