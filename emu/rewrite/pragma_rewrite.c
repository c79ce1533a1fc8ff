/* pragma_rewrite.c - CUDA's `#pragma unroll` for g++, which does not know
 * it (-Wunknown-pragmas): the directive
 *   #pragma unroll N      (N a decimal number, the loop keyword next)
 * becomes `__cugrade_unroll(N)`, which cuda_runtime.h turns into g++'s
 * _Pragma("GCC unroll N") (not in a checked build, where each access keeps
 * one instruction); any other `#pragma unroll` (no count, a count that is
 * an expression, no loop after it) is dropped: nvcc fully unrolls only loops
 * with a constant trip count, which g++ -O2 does by itself when they are
 * small, and g++ cannot take an expression or a template parameter there.
 * Only the directive's text changes; its line break stays, so the lines
 * after it keep their numbers. */
#include "rewrite_forms.h"


/* Token i is the first code token of its line. */
static bool starts_line(const cu_tokens *t, size_t i)
{
    size_t prev = i;
    while (prev > 0) {
        prev--;
        cu_kind k = t->toks[prev].kind;
        if (k == CU_NEWLINE)
            return true;
        if (k != CU_SPACE && k != CU_COMMENT)
            return false;
    }
    return true;
}

/* The token after the last one of the directive line starting at hash (its
 * newline, or the end); splices continue the line. */
static size_t directive_end(const cu_tokens *t, size_t hash)
{
    size_t i = hash;
    while (i < t->count && t->toks[i].kind != CU_NEWLINE)
        i++;
    return i;
}

/* A count g++ takes: decimal digits, below 65535. */
static bool is_plain_count(const cu_tokens *t, size_t i)
{
    if (i == CU_NONE || t->toks[i].kind != CU_NUMBER || t->toks[i].len > 5)
        return false;
    const char *s = cu_text(t, i);
    unsigned long v = 0;
    for (size_t k = 0; k < t->toks[i].len; k++) {
        if (s[k] < '0' || s[k] > '9' || (k == 0 && s[k] == '0' && t->toks[i].len > 1))
            return false;
        v = v * 10 + (unsigned long)(s[k] - '0');
    }
    return v < 65535;
}

static bool is_loop_keyword(const cu_tokens *t, size_t i)
{
    return cu_is_ident(t, i, "for") || cu_is_ident(t, i, "while") || cu_is_ident(t, i, "do");
}

size_t rewrite_pragma_unroll(const cu_tokens *t, size_t hash, rw_edit_list *edits)
{
    size_t pragma = cu_next_code(t, hash), unroll = cu_next_code(t, pragma);
    if (!cu_is_punct(t, hash, '#') || !cu_is_ident(t, pragma, "pragma") || !cu_is_ident(t, unroll, "unroll") ||
        !starts_line(t, hash))
        return CU_NONE;
    size_t end = directive_end(t, hash);
    if (t->toks[pragma].line != t->toks[hash].line || t->toks[unroll].line != t->toks[pragma].line)
        return CU_NONE; /* `#` alone on a line, or a splice between the words: not ours */
    size_t count = cu_next_code(t, unroll);
    if (count != CU_NONE && count >= end)
        count = CU_NONE;
    size_t after = count == CU_NONE ? unroll : count;
    bool plain = count != CU_NONE && is_plain_count(t, count) && cu_next_code(t, count) >= end;
    rw_buf text = {0};
    if (plain && is_loop_keyword(t, cu_next_code(t, after))) {
        rw_puts(&text, "__cugrade_unroll(");
        rw_putn(&text, cu_text(t, count), t->toks[count].len);
        rw_putc(&text, ')');
    }
    for (size_t i = hash; i < end; i++) /* the line breaks of splices and comments stay */
        for (size_t k = 0; k < t->toks[i].len; k++)
            if ((t->toks[i].kind == CU_SPLICE || t->toks[i].kind == CU_COMMENT) && cu_text(t, i)[k] == '\n')
                rw_putc(&text, '\n');
    size_t start = t->toks[hash].start;
    size_t stop = end < t->count ? t->toks[end].start : t->srclen;
    rw_edit_add(edits, start, stop - start, rw_detach(&text));
    return end;
}
