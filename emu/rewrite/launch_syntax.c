/* launch_syntax.c - finds the parts of a kernel launch EXPR<<<CFG>>>(ARGS)
 * around its `<<<` token and rewrites it to
 *   ::cugrade::kernel_launch(EXPR, "EXPR", __FILE__, __LINE__).config(CFG)(ARGS)
 * by replacing only `<<<` and `>>>` and inserting before EXPR: everything
 * else, newlines included, stays where it was. */
#include "rewrite_forms.h"

#include <string.h>

/* Keywords that can precede a '(' or sit before `<<<` without being part of
 * the launched expression, e.g. `if (x) k<<<...` or `return (*fp)<<<...`. */
static bool is_keyword(const cu_tokens *t, size_t i)
{
    static const char *const words[] = {
        "if",     "while",  "for",    "switch",   "return",    "else",     "do",
        "case",   "sizeof", "alignof", "decltype", "throw",    "new",      "delete",
        "typeid", "goto",   "default", "operator", "co_await", "co_return", "co_yield",
    };
    for (size_t w = 0; w < sizeof words / sizeof *words; w++)
        if (cu_is_ident(t, i, words[w]))
            return true;
    return false;
}

/* An identifier that can name (part of) a kernel. */
static bool is_name(const cu_tokens *t, size_t i)
{
    return i != CU_NONE && i < t->count && t->toks[i].kind == CU_IDENT && !is_keyword(t, i);
}

/* Token i is the '>' of "->". */
static bool is_arrow_tip(const cu_tokens *t, size_t i)
{
    return i != CU_NONE && i > 0 && cu_is_punct(t, i, '>') && cu_is_punct(t, i - 1, '-');
}

/* Token i is the second ':' of "::". */
static bool is_scope_tail(const cu_tokens *t, size_t i)
{
    return i != CU_NONE && i > 0 && cu_is_punct(t, i, ':') && cu_is_punct(t, i - 1, ':');
}

/* Walking back from the closer at index close, the matching opener. */
static size_t match_back(const cu_tokens *t, size_t close, char open_c, char close_c)
{
    int depth = 0;
    for (size_t j = close; j != CU_NONE; j = cu_prev_code(t, j)) {
        if (cu_is_punct(t, j, close_c))
            depth++;
        else if (cu_is_punct(t, j, open_c) && --depth == 0)
            return j;
    }
    return CU_NONE;
}

/* Walking forward from the opener at index open, the matching closer. */
static size_t match_forward(const cu_tokens *t, size_t open, char open_c, char close_c)
{
    int depth = 0;
    for (size_t j = open; j != CU_NONE; j = cu_next_code(t, j)) {
        if (cu_is_punct(t, j, open_c))
            depth++;
        else if (cu_is_punct(t, j, close_c) && --depth == 0)
            return j;
    }
    return CU_NONE;
}

/* The '<' opening the template argument list whose '>' is at gt. Nested
 * lists count, `>>` closes two, parenthesised parts are skipped whole. */
static size_t match_template_open(const cu_tokens *t, size_t gt)
{
    int depth = 0;
    for (size_t j = gt; j != CU_NONE; j = cu_prev_code(t, j)) {
        if (cu_is_punct(t, j, ')'))
            j = match_back(t, j, '(', ')');
        else if (cu_is_punct(t, j, ']'))
            j = match_back(t, j, '[', ']');
        else if (cu_is_punct(t, j, '>') && !is_arrow_tip(t, j))
            depth++;
        else if (cu_is_punct(t, j, '<') && --depth == 0)
            return j;
        else if (cu_is_punct(t, j, ';') || cu_is_punct(t, j, '{') || cu_is_punct(t, j, '}'))
            return CU_NONE;
        if (j == CU_NONE)
            return CU_NONE;
    }
    return CU_NONE;
}

/* First token of one component of the callee ending at cur: a name, a
 * template-id `name<...>`, or a parenthesised expression. Sets *chained
 * (and returns the token to continue from) for the forms that are only
 * suffixes: a subscript `[...]` or a call `f(...)`. */
static size_t component_start(const cu_tokens *t, size_t cur, bool *chained)
{
    *chained = false;
    if (cu_is_punct(t, cur, ']')) {
        *chained = true;
        return cu_prev_code(t, match_back(t, cur, '[', ']'));
    }
    if (cu_is_punct(t, cur, ')')) {
        size_t open = match_back(t, cur, '(', ')');
        size_t before = cu_prev_code(t, open);
        bool template_call = cu_is_punct(t, before, '>') && !is_arrow_tip(t, before) &&
                             is_name(t, cu_prev_code(t, match_template_open(t, before)));
        if (open != CU_NONE && (is_name(t, before) || template_call)) {
            *chained = true; /* a call returning the kernel: f(x)<<<, cast<T>(p)<<< */
            return before;
        }
        return open;
    }
    if (cu_is_punct(t, cur, '>') && !is_arrow_tip(t, cur)) {
        size_t name = cu_prev_code(t, match_template_open(t, cur));
        return is_name(t, name) ? name : CU_NONE;
    }
    return is_name(t, cur) ? cur : CU_NONE;
}

/* First token of the launched expression whose last token is last: names
 * joined by `::`, `.` or `->`, template arguments, subscripts, calls, `(*fp)`. */
static size_t callee_start(const cu_tokens *t, size_t last)
{
    size_t cur = last;
    while (cur != CU_NONE) {
        bool chained;
        size_t head = component_start(t, cur, &chained);
        if (chained) {
            cur = head;
            continue;
        }
        if (head == CU_NONE)
            return CU_NONE;
        size_t before = cu_prev_code(t, head);
        if (is_scope_tail(t, before)) {
            size_t qualifier = cu_prev_code(t, before - 1);
            bool named = is_name(t, qualifier) || (cu_is_punct(t, qualifier, '>') && !is_arrow_tip(t, qualifier));
            if (!named)
                return before - 1; /* ::kernel */
            cur = qualifier;
        } else if (cu_is_punct(t, before, '.')) {
            cur = cu_prev_code(t, before);
        } else if (is_arrow_tip(t, before)) {
            cur = cu_prev_code(t, before - 1);
        } else {
            return head;
        }
    }
    return CU_NONE;
}

/* The first '>' of the `>>>` closing the configuration that starts after the
 * `<<<` at lt: the first one outside (), [] and {}. CU_NONE if a ';' or an
 * unbalanced closer comes first. */
static size_t config_end(const cu_tokens *t, size_t lt)
{
    int depth = 0;
    for (size_t j = lt + 3; j < t->count; j++) {
        if (cu_is_punct(t, j, '(') || cu_is_punct(t, j, '[') || cu_is_punct(t, j, '{'))
            depth++;
        else if (cu_is_punct(t, j, ')') || cu_is_punct(t, j, ']') || cu_is_punct(t, j, '}')) {
            if (--depth < 0)
                return CU_NONE;
        } else if (depth == 0 && cu_is_triple(t, j, '>'))
            return j;
        else if (depth == 0 && cu_is_punct(t, j, ';'))
            return CU_NONE;
    }
    return CU_NONE;
}

/* "EXPR": the callee's text with whitespace and comments collapsed to one
 * space, escaped for a string literal. */
static void put_callee_name(rw_buf *b, const cu_tokens *t, size_t first, size_t last)
{
    bool gap = false;
    for (size_t i = first; i <= last; i++) {
        if (cu_is_trivia(t, i)) {
            gap = true;
            continue;
        }
        if (gap)
            rw_putc(b, ' ');
        gap = false;
        rw_put_escaped(b, cu_text(t, i), t->toks[i].len);
    }
}

/* Where the replacement of `<<<` begins: right after the callee when only
 * blanks separate them (so `k <<<` reads `k, "k"`), else at `<<<` itself. */
static size_t launch_open_start(const cu_tokens *t, size_t last, size_t lt)
{
    for (size_t i = last + 1; i < lt; i++)
        if (t->toks[i].kind != CU_SPACE)
            return t->toks[lt].start;
    return t->toks[last].start + t->toks[last].len;
}

int rewrite_launch(const cu_tokens *t, size_t lt, rw_edit_list *edits, size_t *resume)
{
    size_t last = cu_prev_code(t, lt);
    size_t first = callee_start(t, last);
    size_t gt = config_end(t, lt);
    if (first == CU_NONE || gt == CU_NONE)
        return -1;
    size_t args_open = cu_next_code(t, gt + 2);
    if (!cu_is_punct(t, args_open, '(') || match_forward(t, args_open, '(', ')') == CU_NONE)
        return -1;

    size_t at = t->toks[first].start;
    bool after_colon = at > 0 && t->src[at - 1] == ':'; /* `x ? a :k<<<` must not read `:::` */
    rw_edit_add_copy(edits, at, 0, after_colon ? " ::cugrade::kernel_launch(" : "::cugrade::kernel_launch(");

    rw_buf open = {0};
    rw_puts(&open, ", \"");
    put_callee_name(&open, t, first, last);
    rw_puts(&open, "\", __FILE__, __LINE__).config(");
    size_t open_at = launch_open_start(t, last, lt);
    rw_edit_add(edits, open_at, t->toks[lt].start + 3 - open_at, rw_detach(&open));

    rw_edit_add_copy(edits, t->toks[gt].start, 3, ")");
    *resume = args_open;
    return 0;
}
