/* kernel_params.h - the parameter names of the kernels a CUDA file defines.
 * The rewriter appends one registration per __global__ definition to the
 * rewritten file, so that the runtime's diagnostics can name a kernel's
 * arguments ("a read past the end of B") instead of showing addresses.
 * Private to emu/rewrite. */
#ifndef CUGRADE_KERNEL_PARAMS_H
#define CUGRADE_KERNEL_PARAMS_H

#include <stddef.h>

#include "cu_lexer.h"
#include "rewrite_text.h"

/* Appends to out, for the n-th __global__ function that t defines (one with
 * a body; declarations are skipped), the line
 *   static const int __cugrade_params_<n> =
 *       ::cugrade_register_kernel_params("<name>", "<p0>,<p1>,...");
 * (on one line, ending with '\n'). <name> is the plain name (no namespace,
 * no template arguments); <pK> the name of parameter K, "" when it has none;
 * an empty list for `()` or `(void)`. Returns the number of lines appended. */
size_t put_kernel_param_registrations(rw_buf *out, const cu_tokens *t);

#endif
