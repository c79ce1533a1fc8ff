/* shared_rewrite.c - rewrites the dynamic shared memory declaration
 *   extern __shared__ [alignment] TYPE NAME[];
 * into a pointer to the block's dynamic shared memory,
 *   static TYPE *const NAME = (TYPE *)__cugrade_dynamic_smem;
 * The alignment may be __align__(N), alignas(N) or __attribute__((...)),
 * before or after the type; it is dropped (the runtime aligns the buffer).
 * Comments and line breaks inside the declaration follow it, so the line
 * count stays the same. */
#include "rewrite_forms.h"

#include <string.h>

#define MAX_DECL_TOKENS 64

/* The code tokens of a declaration, from after `extern` up to its ';'. */
typedef struct {
    size_t idx[MAX_DECL_TOKENS];
    size_t n;
    size_t semicolon;
} decl_tokens;

/* Collects the code tokens of the declaration after token ext. Fails on a
 * brace, an initializer or a declaration too long to be ours. */
static bool collect_declaration(const cu_tokens *t, size_t ext, decl_tokens *d)
{
    d->n = 0;
    int depth = 0;
    for (size_t i = cu_next_code(t, ext); i != CU_NONE; i = cu_next_code(t, i)) {
        if (depth == 0 && cu_is_punct(t, i, ';')) {
            d->semicolon = i;
            return true;
        }
        if (cu_is_punct(t, i, '{') || cu_is_punct(t, i, '}') || cu_is_punct(t, i, '=') || cu_is_punct(t, i, '#'))
            return false;
        if (cu_is_punct(t, i, '('))
            depth++;
        else if (cu_is_punct(t, i, ')') && --depth < 0)
            return false;
        if (d->n == MAX_DECL_TOKENS)
            return false;
        d->idx[d->n++] = i;
    }
    return false;
}

static bool is_alignment_word(const cu_tokens *t, size_t i)
{
    return cu_is_ident(t, i, "__align__") || cu_is_ident(t, i, "alignas") || cu_is_ident(t, i, "__attribute__");
}

/* Drops `__shared__` and alignment specifiers with their parenthesised
 * argument from d. Returns whether `__shared__` was there. */
static bool strip_qualifiers(const cu_tokens *t, decl_tokens *d)
{
    bool shared = false;
    size_t kept = 0;
    for (size_t k = 0; k < d->n; k++) {
        size_t i = d->idx[k];
        if (cu_is_ident(t, i, "__shared__")) {
            shared = true;
            continue;
        }
        if (is_alignment_word(t, i) && k + 1 < d->n && cu_is_punct(t, d->idx[k + 1], '(')) {
            int depth = 0;
            for (k++; k < d->n; k++) {
                depth += cu_is_punct(t, d->idx[k], '(') - cu_is_punct(t, d->idx[k], ')');
                if (depth == 0)
                    break;
            }
            continue;
        }
        d->idx[kept++] = d->idx[k];
    }
    d->n = kept;
    return shared;
}

/* What is left must be TYPE NAME [ ] with a type free of brackets, parens
 * and initializers (so `a[], b[]` or `s[256]` are not ours). */
static bool is_unsized_array(const cu_tokens *t, const decl_tokens *d)
{
    if (d->n < 4)
        return false;
    size_t name = d->idx[d->n - 3];
    if (t->toks[name].kind != CU_IDENT || !cu_is_punct(t, d->idx[d->n - 2], '[') ||
        !cu_is_punct(t, d->idx[d->n - 1], ']'))
        return false;
    for (size_t k = 0; k < d->n - 3; k++) {
        size_t i = d->idx[k];
        if (cu_is_punct(t, i, '[') || cu_is_punct(t, i, ']') || cu_is_punct(t, i, '(') || cu_is_punct(t, i, ')'))
            return false;
    }
    return true;
}

/* TYPE: the kept type tokens, one space where the source had a gap. */
static void put_type(rw_buf *b, const cu_tokens *t, const decl_tokens *d)
{
    size_t ntype = d->n - 3;
    for (size_t k = 0; k < ntype; k++) {
        size_t i = d->idx[k];
        if (k > 0 && d->idx[k - 1] + 1 != i)
            rw_putc(b, ' ');
        rw_putn(b, cu_text(t, i), t->toks[i].len);
    }
}

/* The comments and line breaks of tokens [from, to], verbatim. */
static void put_line_material(rw_buf *b, const cu_tokens *t, size_t from, size_t to)
{
    for (size_t i = from; i <= to; i++) {
        cu_kind k = t->toks[i].kind;
        if (k == CU_COMMENT || k == CU_NEWLINE || k == CU_SPLICE)
            rw_putn(b, cu_text(t, i), t->toks[i].len);
    }
}

size_t rewrite_extern_shared(const cu_tokens *t, size_t ext, rw_edit_list *edits)
{
    decl_tokens d;
    if (!collect_declaration(t, ext, &d) || !strip_qualifiers(t, &d) || !is_unsized_array(t, &d))
        return CU_NONE;
    size_t name = d.idx[d.n - 3];

    rw_buf b = {0};
    rw_puts(&b, "static ");
    put_type(&b, t, &d);
    rw_puts(&b, " *const ");
    rw_putn(&b, cu_text(t, name), t->toks[name].len);
    rw_puts(&b, " = (");
    put_type(&b, t, &d);
    rw_puts(&b, " *)__cugrade_dynamic_smem;");
    put_line_material(&b, t, ext, d.semicolon);

    size_t start = t->toks[ext].start;
    rw_edit_add(edits, start, t->toks[d.semicolon].start + 1 - start, rw_detach(&b));
    return d.semicolon + 1;
}
