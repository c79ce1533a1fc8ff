/* kernel_params.c - finds the __global__ functions a CUDA file defines and
 * the names of their parameters (see kernel_params.h). It reads declarations
 * the way a person would, not the way a compiler must: the function name is
 * the identifier before the first '(' after `__global__` (attributes such as
 * __launch_bounds__(256) skipped), and a parameter's name is the last
 * identifier of its declarator once default arguments, array bounds,
 * qualifiers and attributes are set aside. */
#include "kernel_params.h"

#include <stdio.h>
#include <string.h>

#define MAX_PARAM_TOKENS 128

/* The code tokens of one parameter declaration, up to its default argument. */
typedef struct {
    size_t idx[MAX_PARAM_TOKENS];
    size_t n;
    bool overflow; /* longer than MAX_PARAM_TOKENS: treated as unnamed */
} param_tokens;

static bool is_one_of(const cu_tokens *t, size_t i, const char *const *words, size_t count)
{
    for (size_t k = 0; k < count; k++)
        if (cu_is_ident(t, i, words[k]))
            return true;
    return false;
}

#define IS_ONE_OF(t, i, words) is_one_of(t, i, words, sizeof words / sizeof *words)

/* Words followed by a parenthesised argument that are no part of a name. */
static bool is_attribute_word(const cu_tokens *t, size_t i)
{
    static const char *const words[] = {
        "__launch_bounds__", "__attribute__", "__declspec", "__maxnreg__", "__cluster_dims__", "alignas", "__align__",
    };
    return IS_ONE_OF(t, i, words);
}

/* Qualifiers that may follow or precede a parameter's type. */
static bool is_qualifier(const cu_tokens *t, size_t i)
{
    static const char *const words[] = {
        "const", "volatile", "__restrict__", "__restrict", "restrict", "__grid_constant__", "register",
    };
    return IS_ONE_OF(t, i, words);
}

/* Keywords that can end a parameter's type but never name it. */
static bool is_type_keyword(const cu_tokens *t, size_t i)
{
    static const char *const words[] = {
        "void",   "bool",     "char", "wchar_t", "char8_t", "char16_t", "char32_t", "short",    "int",   "long",
        "signed", "unsigned", "float", "double", "auto",    "__int128", "struct",   "class",    "union", "enum",
        "typename",
    };
    return IS_ONE_OF(t, i, words) || is_qualifier(t, i);
}

/* If token i starts an attribute, WORD(...) or [[...]], the first token after
 * it; else i. */
static size_t skip_attribute(const cu_tokens *t, size_t i)
{
    size_t next = cu_next_code(t, i);
    if (is_attribute_word(t, i) && cu_is_punct(t, next, '('))
        return cu_next_code(t, cu_match_close(t, next));
    if (cu_is_punct(t, i, '[') && cu_is_punct(t, next, '['))
        return cu_next_code(t, cu_match_close(t, i));
    return i;
}

/* Token i lies on a preprocessor directive line (`#define KERNEL __global__`). */
static bool in_directive(const cu_tokens *t, size_t i)
{
    size_t j = i;
    while (j > 0 && t->toks[j - 1].kind != CU_NEWLINE)
        j--;
    while (j < i && cu_is_trivia(t, j))
        j++;
    return cu_is_punct(t, j, '#');
}

/* The name token of a function whose parameter list follows token last:
 * `name` or `name<args>` (an explicit specialisation). */
static size_t function_name(const cu_tokens *t, size_t last)
{
    if (cu_is_punct(t, last, '>')) {
        int depth = 0;
        for (; last != CU_NONE; last = cu_prev_code(t, last)) {
            depth += cu_is_punct(t, last, '>') - cu_is_punct(t, last, '<');
            if (depth == 0)
                break;
        }
        last = cu_prev_code(t, last);
    }
    bool named = last != CU_NONE && t->toks[last].kind == CU_IDENT && !is_type_keyword(t, last);
    return named ? last : CU_NONE;
}

/* The '(' of the parameter list of the function declared after the
 * `__global__` at g, with its name in *name; CU_NONE if there is none. */
static size_t find_parameter_list(const cu_tokens *t, size_t g, size_t *name)
{
    size_t i = cu_next_code(t, g);
    while (i != CU_NONE) {
        size_t after = skip_attribute(t, i);
        if (after != i) {
            i = after;
            continue;
        }
        if (cu_is_punct(t, i, '(')) {
            *name = function_name(t, cu_prev_code(t, i));
            return *name == CU_NONE ? CU_NONE : i;
        }
        if (cu_is_punct(t, i, ';') || cu_is_punct(t, i, '{') || cu_is_punct(t, i, '}') || cu_is_punct(t, i, '='))
            return CU_NONE;
        i = cu_next_code(t, i);
    }
    return CU_NONE;
}

/* After the ')' closing a parameter list: the '{' of the body that follows
 * (through trailing return types, noexcept(...) and attributes), or CU_NONE
 * for a ';' or `= delete`. */
static size_t body_of(const cu_tokens *t, size_t close)
{
    for (size_t i = cu_next_code(t, close); i != CU_NONE; i = cu_next_code(t, i)) {
        if (cu_is_punct(t, i, '{'))
            return i;
        if (cu_is_punct(t, i, ';') || cu_is_punct(t, i, '=') || cu_is_punct(t, i, ',') || cu_is_punct(t, i, '}'))
            return CU_NONE;
        if (cu_is_punct(t, i, '(') || cu_is_punct(t, i, '['))
            i = cu_match_close(t, i);
    }
    return CU_NONE;
}

bool find_kernel_definition(const cu_tokens *t, size_t g, kernel_def *k)
{
    if (!cu_is_ident(t, g, "__global__") || in_directive(t, g))
        return false;
    k->open = find_parameter_list(t, g, &k->name);
    k->close = cu_match_close(t, k->open);
    if (k->open == CU_NONE || k->close == CU_NONE)
        return false;
    k->body = body_of(t, k->close);
    return k->body != CU_NONE;
}

/* ---- one parameter ------------------------------------------------------------ */

/* Index in p of the opener matching the closer at p->idx[hi - 1], or lo. */
static size_t group_start(const cu_tokens *t, const param_tokens *p, size_t lo, size_t hi)
{
    char close = cu_text(t, p->idx[hi - 1])[0], open = close == ')' ? '(' : '[';
    int depth = 0;
    for (size_t k = hi; k-- > lo;) {
        depth += cu_is_punct(t, p->idx[k], close) - cu_is_punct(t, p->idx[k], open);
        if (depth == 0)
            return k;
    }
    return lo;
}

/* The token naming the parameter p, or CU_NONE if it is unnamed. Array
 * bounds and function parameter lists are stripped from the end; a
 * parenthesised declarator such as (*fp) or (&a) is looked into. Outside
 * one, the last identifier is a name only if a type comes before it. */
static size_t parameter_name(const cu_tokens *t, const param_tokens *p)
{
    size_t lo = 0, hi = p->n;
    bool grouped = false;
    while (hi > lo) {
        size_t last = p->idx[hi - 1];
        if (is_qualifier(t, last)) {
            hi--;
            continue;
        }
        if (!cu_is_punct(t, last, ']') && !cu_is_punct(t, last, ')'))
            break;
        size_t open = group_start(t, p, lo, hi);
        size_t inner = open + 1 < hi - 1 ? p->idx[open + 1] : CU_NONE;
        if (cu_is_punct(t, last, ')') && (cu_is_punct(t, inner, '*') || cu_is_punct(t, inner, '&'))) {
            lo = open + 1; /* (*name)(...) or (&name)[N]: the name is inside */
            hi--;
            grouped = true;
        } else {
            hi = open; /* [N] or a function's (params) */
        }
    }
    if (p->overflow || hi == lo || t->toks[p->idx[hi - 1]].kind != CU_IDENT || is_type_keyword(t, p->idx[hi - 1]))
        return CU_NONE;
    size_t name = p->idx[hi - 1];
    if (grouped)
        return name;
    if (hi - 1 == lo || cu_is_punct(t, p->idx[hi - 2], ':'))
        return CU_NONE; /* a lone type, or a qualified one: T, std::size_t */
    for (size_t k = lo; k < hi - 1; k++)
        if (!is_qualifier(t, p->idx[k]))
            return name;
    return CU_NONE; /* const T */
}

/* ---- the parameter list ------------------------------------------------------- */

typedef struct {
    rw_buf *out;
    const cu_tokens *t;
    size_t count; /* parameters written so far */
} name_writer;

static void write_name(name_writer *w, const param_tokens *p)
{
    if (w->count++ > 0)
        rw_putc(w->out, ',');
    size_t name = parameter_name(w->t, p);
    if (name != CU_NONE)
        rw_putn(w->out, cu_text(w->t, name), w->t->toks[name].len);
}

/* `()` or `(void)`: no parameters. */
static bool is_empty_list(const cu_tokens *t, size_t open, size_t close)
{
    size_t first = cu_next_code(t, open);
    return first == close || (cu_is_ident(t, first, "void") && cu_next_code(t, first) == close);
}

/* Depth change of token i: +1 for an opener, -1 for a closer. Angle brackets
 * count only in a declaration (`array<int, 3> a`), where `<` follows a name. */
static int depth_change(const cu_tokens *t, size_t i, bool in_default, int angle)
{
    if (cu_is_punct(t, i, '(') || cu_is_punct(t, i, '[') || cu_is_punct(t, i, '{'))
        return 1;
    if (cu_is_punct(t, i, ')') || cu_is_punct(t, i, ']') || cu_is_punct(t, i, '}'))
        return -1;
    if (in_default)
        return 0;
    size_t prev = cu_prev_code(t, i);
    if (cu_is_punct(t, i, '<') && prev != CU_NONE && t->toks[prev].kind == CU_IDENT)
        return 1;
    return cu_is_punct(t, i, '>') && angle > 0 ? -1 : 0;
}

/* Writes the comma-separated names of the parameters between open and close. */
static void put_parameter_names(rw_buf *out, const cu_tokens *t, size_t open, size_t close)
{
    if (is_empty_list(t, open, close))
        return;
    name_writer w = { .out = out, .t = t };
    param_tokens p = { .n = 0 };
    bool in_default = false;
    int depth = 0, angle = 0;
    size_t i = cu_next_code(t, open);
    while (i != CU_NONE && i < close) {
        if (depth == 0 && angle == 0 && (cu_is_punct(t, i, ',') || cu_is_punct(t, i, '='))) {
            if (cu_is_punct(t, i, ',')) {
                write_name(&w, &p);
                p = (param_tokens){ .n = 0 };
            }
            in_default = cu_is_punct(t, i, '=');
            i = cu_next_code(t, i);
            continue;
        }
        size_t after = in_default ? i : skip_attribute(t, i);
        if (after != i) {
            i = after;
            continue;
        }
        int change = depth_change(t, i, in_default, angle);
        if (cu_is_punct(t, i, '<') || cu_is_punct(t, i, '>'))
            angle += change;
        else
            depth += change;
        if (!in_default && p.n < MAX_PARAM_TOKENS)
            p.idx[p.n++] = i;
        else if (!in_default)
            p.overflow = true;
        i = cu_next_code(t, i);
    }
    write_name(&w, &p);
}

/* ---- the registrations ------------------------------------------------------- */

static void put_registration(rw_buf *out, const cu_tokens *t, size_t n, size_t name, size_t open, size_t close)
{
    char head[96];
    snprintf(head, sizeof head, "static const int __cugrade_params_%zu = ::cugrade_register_kernel_params(\"", n);
    rw_puts(out, head);
    rw_putn(out, cu_text(t, name), t->toks[name].len);
    rw_puts(out, "\", \"");
    put_parameter_names(out, t, open, close);
    rw_puts(out, "\");\n");
}

size_t put_kernel_param_registrations(rw_buf *out, const cu_tokens *t)
{
    size_t count = 0;
    kernel_def k;
    for (size_t g = 0; g < t->count; g++)
        if (find_kernel_definition(t, g, &k))
            put_registration(out, t, count++, k.name, k.open, k.close);
    return count;
}
