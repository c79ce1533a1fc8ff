/* launch_rewrite.c - emu_rewrite(): tokenizes a CUDA file, rewrites kernel
 * launches, dynamic shared memory declarations, `#pragma unroll` and
 * __launch_bounds__ (launch_syntax.c, shared_rewrite.c, pragma_rewrite.c,
 * bounds_rewrite.c), prefixes a #line directive naming the student's file,
 * so the host compiler's messages point at the original lines, and appends
 * the registrations of the kernels' parameter names (kernel_params.c). */
#include "launch_rewrite.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "kernel_params.h"
#include "rewrite_forms.h"

/* `#line 1 "path"` and a newline, the path escaped for a string literal. */
static char *line_header(const char *display_path)
{
    rw_buf b = {0};
    rw_puts(&b, "#line 1 \"");
    for (const char *p = display_path; *p; p++) {
        if (*p == '\n')
            rw_puts(&b, "\\n");
        else
            rw_put_escaped(&b, p, 1);
    }
    rw_puts(&b, "\"\n");
    return rw_detach(&b);
}

/* `operator<<<T>` declares a templated operator<<, it is not a launch. */
static bool is_operator_shift(const cu_tokens *t, size_t lt)
{
    return cu_is_ident(t, cu_prev_code(t, lt), "operator");
}

/* Walks the tokens once, recording edits. Returns the 1-based line of a
 * malformed launch, or 0 when all went well. */
static int collect_edits(const cu_tokens *t, rw_edit_list *edits)
{
    size_t i = 0;
    while (i < t->count) {
        if (cu_is_triple(t, i, '<')) {
            if (is_operator_shift(t, i)) {
                i += 3;
                continue;
            }
            size_t resume;
            if (rewrite_launch(t, i, edits, &resume) != 0)
                return t->toks[i].line;
            i = resume;
            continue;
        }
        if (cu_is_ident(t, i, "extern")) {
            size_t resume = rewrite_extern_shared(t, i, edits);
            if (resume != CU_NONE) {
                i = resume;
                continue;
            }
        }
        if (cu_is_punct(t, i, '#')) {
            size_t resume = rewrite_pragma_unroll(t, i, edits);
            if (resume != CU_NONE) {
                i = resume;
                continue;
            }
        }
        if (cu_is_ident(t, i, "__global__"))
            rewrite_launch_bounds(t, i, edits);
        i++;
    }
    return 0;
}

/* Appends the parameter registrations after the last line of the source,
 * starting a new line if the source does not end with one. */
static void add_registrations(const cu_tokens *t, const char *src, size_t len, rw_edit_list *edits)
{
    rw_buf lines = {0};
    if (put_kernel_param_registrations(&lines, t) == 0) {
        rw_free(&lines);
        return;
    }
    rw_buf text = {0};
    if (len > 0 && src[len - 1] != '\n')
        rw_putc(&text, '\n');
    rw_putn(&text, lines.buf, lines.len);
    rw_free(&lines);
    rw_edit_add(edits, len, 0, rw_detach(&text));
}

char *emu_rewrite(const char *src, size_t len, const char *display_path, char *err, size_t errlen)
{
    if (!display_path)
        display_path = "<input>";
    if (!src)
        len = 0;
    /* a UTF-8 byte-order mark: the compilers skip it at a file's start only,
     * and after the #line header it would be a stray character */
    if (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0) {
        src += 3;
        len -= 3;
    }
    cu_tokens toks;
    cu_tokenize(src ? src : "", len, &toks);
    rw_edit_list edits = {0};
    char *out = NULL;
    int bad_line = collect_edits(&toks, &edits);
    if (bad_line) {
        if (err && errlen)
            snprintf(err, errlen, "%s:%d: malformed kernel launch", display_path, bad_line);
    } else {
        add_registrations(&toks, src ? src : "", len, &edits);
        char *header = line_header(display_path);
        out = rw_edits_apply(&edits, src ? src : "", len, header);
        free(header);
    }
    rw_edits_free(&edits);
    cu_tokens_free(&toks);
    return out;
}
