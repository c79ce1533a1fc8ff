/* rewrite_forms.h - the source forms the rewriter changes, each given the
 * token where it starts and recording its changes as edits: launches,
 * `extern __shared__`, `#pragma unroll` and __launch_bounds__. Private to
 * emu/rewrite; emu_rewrite() in launch_rewrite.c drives them. */
#ifndef CUGRADE_REWRITE_FORMS_H
#define CUGRADE_REWRITE_FORMS_H

#include "cu_lexer.h"
#include "rewrite_text.h"

/* Rewrites the launch whose `<<<` starts at token lt. On success returns 0
 * and sets *resume to the token where scanning continues (the '(' of the
 * arguments, so launches inside them are found too). Returns -1 if the
 * launch is malformed: no callee, no matching `>>>`, or no `( ... )`. */
int rewrite_launch(const cu_tokens *t, size_t lt, rw_edit_list *edits, size_t *resume);

/* If token ext starts `extern __shared__ ... NAME[];`, rewrites it and returns
 * the token after its ';'. Returns CU_NONE (and changes nothing) otherwise. */
size_t rewrite_extern_shared(const cu_tokens *t, size_t ext, rw_edit_list *edits);

/* If token hash starts a `#pragma unroll` line, rewrites it for g++
 * (pragma_rewrite.c) and returns the token that ends the line. Returns
 * CU_NONE (and changes nothing) otherwise. */
size_t rewrite_pragma_unroll(const cu_tokens *t, size_t hash, rw_edit_list *edits);

/* If token g is the `__global__` of a kernel definition with
 * __launch_bounds__, puts the check of its block size first in its body
 * (bounds_rewrite.c) and returns true. */
bool rewrite_launch_bounds(const cu_tokens *t, size_t g, rw_edit_list *edits);

#endif
