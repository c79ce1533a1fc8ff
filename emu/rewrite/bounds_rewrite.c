/* bounds_rewrite.c - makes a kernel's __launch_bounds__ hold in the emulator.
 * A GPU refuses to launch a kernel declared
 *   __global__ void __launch_bounds__(MAX, ...) k(...) { BODY }
 * with more than MAX threads per block (cudaErrorInvalidValue). The
 * emulator's launcher only sees a function pointer, so the rewriter puts
 * the check at the start of the body, where MAX is evaluated in the
 * kernel's own scope (template parameters and all):
 *   { if (__cugrade_launch_bounds_exceeded(MAX)) return; BODY }
 * The first thread that finds its block too large has the launch refused
 * (cugrade_device.h, launch.cpp): no thread does any work and the launch's
 * error is cudaErrorInvalidValue, as on a GPU. The attribute may stand
 * after `__global__` or before it; its other arguments (minimum blocks per
 * multiprocessor, cluster size) only tune the GPU's compiler and are left
 * alone. The inserted text has no line break: line numbers stay. */
#include "rewrite_forms.h"

#include "kernel_params.h"

/* Walking back from the ')' at close, its '('. */
static size_t open_of(const cu_tokens *t, size_t close)
{
    int depth = 0;
    for (size_t j = close; j != CU_NONE; j = cu_prev_code(t, j)) {
        depth += cu_is_punct(t, j, ')') - cu_is_punct(t, j, '(');
        if (depth == 0)
            return j;
    }
    return CU_NONE;
}

/* The `__launch_bounds__` token between `__global__` (g) and the '(' of
 * the parameter list, else one in the declaration's words before g
 * (`__launch_bounds__(256) __global__ void k()`), else CU_NONE. */
static size_t find_bounds(const cu_tokens *t, size_t g, size_t open)
{
    for (size_t i = cu_next_code(t, g); i != CU_NONE && i < open; i = cu_next_code(t, i))
        if (cu_is_ident(t, i, "__launch_bounds__"))
            return i;
    for (size_t i = cu_prev_code(t, g); i != CU_NONE;) {
        if (cu_is_punct(t, i, ')')) { /* an attribute's arguments: look at its name */
            size_t name = cu_prev_code(t, open_of(t, i));
            if (name == CU_NONE || t->toks[name].kind != CU_IDENT)
                return CU_NONE;
            if (cu_is_ident(t, name, "__launch_bounds__"))
                return name;
            i = cu_prev_code(t, name);
        } else if (t->toks[i].kind == CU_IDENT || t->toks[i].kind == CU_STRING) {
            i = cu_prev_code(t, i); /* static, inline, extern "C", another attribute's name */
        } else {
            return CU_NONE;
        }
    }
    return CU_NONE;
}

/* The code tokens of the first argument of the attribute at token bounds
 * into out: a blank first, then a single blank where the source had space or
 * a comment between two (none where they touched: `T::THREADS` stays one
 * name), no line break. */
static bool put_first_argument(rw_buf *out, const cu_tokens *t, size_t bounds)
{
    size_t open = cu_next_code(t, bounds), close = cu_match_close(t, open);
    if (!cu_is_punct(t, open, '(') || close == CU_NONE || cu_next_code(t, open) == close)
        return false;
    int depth = 0;
    size_t prev_end = (size_t)-1; /* a blank before the first */
    for (size_t i = cu_next_code(t, open); i != CU_NONE && i < close; i = cu_next_code(t, i)) {
        if (cu_is_punct(t, i, '(') || cu_is_punct(t, i, '[') || cu_is_punct(t, i, '{'))
            depth++;
        else if (cu_is_punct(t, i, ')') || cu_is_punct(t, i, ']') || cu_is_punct(t, i, '}'))
            depth--;
        else if (depth == 0 && cu_is_punct(t, i, ','))
            break;
        if (t->toks[i].start != prev_end)
            rw_putc(out, ' ');
        rw_putn(out, cu_text(t, i), t->toks[i].len);
        prev_end = t->toks[i].start + t->toks[i].len;
    }
    return true;
}

bool rewrite_launch_bounds(const cu_tokens *t, size_t g, rw_edit_list *edits)
{
    kernel_def k;
    if (!find_kernel_definition(t, g, &k))
        return false;
    size_t bounds = find_bounds(t, g, k.open);
    if (bounds == CU_NONE)
        return false;
    rw_buf text = {0};
    rw_puts(&text, " if (__cugrade_launch_bounds_exceeded(");
    if (!put_first_argument(&text, t, bounds)) {
        rw_free(&text);
        return false;
    }
    rw_puts(&text, " )) return;");
    rw_edit_add(edits, t->toks[k.body].start + 1, 0, rw_detach(&text));
    return true;
}
