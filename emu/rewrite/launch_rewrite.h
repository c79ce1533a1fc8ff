/* launch_rewrite.h - turns a CUDA source file into C++ that the host compiler
 * accepts with the emulator's headers: kernel launches `k<<<cfg>>>(args)`
 * become ::cugrade::kernel_launch(...) calls, `extern __shared__ T s[];`
 * becomes a pointer into the block's dynamic shared memory, `#pragma unroll`
 * becomes g++'s, a kernel's __launch_bounds__ is checked first in its body,
 * and the kernels' parameter names are registered with the runtime after
 * the last line. Line
 * numbers of the student's file are preserved, so compiler messages point
 * at it. */
#ifndef CUGRADE_LAUNCH_REWRITE_H
#define CUGRADE_LAUNCH_REWRITE_H

#include <stddef.h>

/* Rewrites len bytes of src. The result starts with `#line 1 "display_path"`
 * and has as many lines as src after that header, then (only if the file
 * defines kernels) one line per __global__ definition, in order,
 *   static const int __cugrade_params_N = ::cugrade_register_kernel_params("K", "a,b,c");
 * naming kernel K (plain name) and its parameters ("" for an unnamed one);
 * the runtime declares that function.
 *
 *   EXPR<<<CFG>>>(ARGS)
 *     -> ::cugrade::kernel_launch(EXPR, "EXPR", __FILE__, __LINE__).config(CFG)(ARGS)
 *   extern __shared__ [align] TYPE NAME[];
 *     -> static TYPE *const NAME = (TYPE *)__cugrade_dynamic_smem;
 *   #pragma unroll N      (N a number, a loop next; any other form: dropped)
 *     -> __cugrade_unroll(N)
 *   __global__ void __launch_bounds__(MAX, ...) k(...) { BODY
 *     -> __global__ void __launch_bounds__(MAX, ...) k(...) { if (__cugrade_launch_bounds_exceeded( MAX )) return; BODY
 *
 * Returns a malloc'd NUL-terminated string, or NULL with err set to
 * "display_path:line: message" (e.g. "malformed kernel launch"). */
char *emu_rewrite(const char *src, size_t len, const char *display_path, char *err, size_t errlen);

#endif
