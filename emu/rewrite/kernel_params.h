/* kernel_params.h - the kernels a CUDA file defines and their parameter
 * names.
 * The rewriter appends one registration per __global__ definition to the
 * rewritten file, so that the runtime's diagnostics can name a kernel's
 * arguments ("a read past the end of B") instead of showing addresses.
 * Private to emu/rewrite. */
#ifndef CUGRADE_KERNEL_PARAMS_H
#define CUGRADE_KERNEL_PARAMS_H

#include <stddef.h>

#include "cu_lexer.h"
#include "rewrite_text.h"

/* A __global__ function definition: the token of its name, the '(' and ')'
 * of its parameter list and the '{' of its body. */
typedef struct {
    size_t name, open, close, body;
} kernel_def;

/* Whether the token g is the `__global__` of a kernel definition (one with
 * a body, not on a preprocessor line); if so fills k. */
bool find_kernel_definition(const cu_tokens *t, size_t g, kernel_def *k);

/* Appends to out, for the n-th __global__ function that t defines (one with
 * a body; declarations are skipped), the line
 *   static const int __cugrade_params_<n> =
 *       ::cugrade_register_kernel_params("<name>", "<p0>,<p1>,...");
 * (on one line, ending with '\n'). <name> is the plain name (no namespace,
 * no template arguments); <pK> the name of parameter K, "" when it has none;
 * an empty list for `()` or `(void)`. Returns the number of lines appended. */
size_t put_kernel_param_registrations(rw_buf *out, const cu_tokens *t);

#endif
