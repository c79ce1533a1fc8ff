/* srclex.c - the lexing srccheck.c needs (srclex.h): one linear pass with a
 * cursor that reads the bytes as translation phases 1 and 2 do (except in
 * raw strings, which C++ reads as written), tracking just enough of the
 * current token and directive to tell a digit separator from a character
 * literal, a literal's prefix from an identifier, and #include's <name>
 * from a comparison. */
#include "build/srclex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RAW_DELIM_MAX 16

enum { TOK_NONE, TOK_IDENT, TOK_NUMBER, TOK_DOT };
enum { D_NONE, D_BOL, D_PERCENT, D_HASH, D_NAME, D_OPERAND };

typedef struct {
    const char *s;
    size_t i, n;
    int line;
} cursor_t;

typedef struct {
    cursor_t k;
    lex_text_t *t;
    int tok;          /* TOK_* of the code token being read */
    size_t tok_start; /* where an identifier began */
    int dir;          /* D_*: how far into "# include <" the line is */
    char name[16];    /* the directive's name so far */
    size_t nlen;
    int oom;
} lexer_t;

int lex_is_ident(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c >= 0x80;
}

static int is_blank(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

static int trigraph(int c)
{
    static const char from[] = "=/'()!<>-", to[] = "#\\^[]|{}~";
    const char *p = c ? strchr(from, c) : NULL;
    return p ? to[p - from] : 0;
}

/* The next character as phases 1-2 see it, -1 at the end; *line is its line. */
static int next_char(cursor_t *k, int *line)
{
    for (;;) {
        if (k->i >= k->n)
            return -1;
        int c = (unsigned char)k->s[k->i++];
        if (c == '?' && k->i + 1 < k->n && k->s[k->i] == '?' && trigraph(k->s[k->i + 1])) {
            c = trigraph(k->s[k->i + 1]);
            k->i += 2;
        }
        if (c == '\\') { /* backslash, blanks, newline: the line goes on */
            size_t j = k->i;
            while (j < k->n && is_blank(k->s[j]))
                j++;
            if (j < k->n && k->s[j] == '\n') {
                k->i = j + 1;
                k->line++;
                continue;
            }
        }
        *line = k->line;
        k->line += c == '\n';
        return c;
    }
}

static int peek_char(const cursor_t *k)
{
    cursor_t copy = *k;
    int line;
    return next_char(&copy, &line);
}

static void emit(lexer_t *x, int c, int kind, int line)
{
    lex_text_t *t = x->t;
    if (x->oom)
        return;
    if (t->n + 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096;
        char *c2 = realloc(t->c, cap);
        t->c = c2 ? c2 : t->c;
        char *k2 = c2 ? realloc(t->kind, cap) : NULL;
        t->kind = k2 ? k2 : t->kind;
        int *l2 = k2 ? realloc(t->line, cap * sizeof *l2) : NULL;
        t->line = l2 ? l2 : t->line;
        if (!l2) {
            x->oom = 1;
            return;
        }
        t->cap = cap;
    }
    t->c[t->n] = (char)c;
    t->kind[t->n] = (char)kind;
    t->line[t->n++] = line;
    t->c[t->n] = '\0';
}

static int is_include_name(const char *name)
{
    return strcmp(name, "include") == 0 || strcmp(name, "include_next") == 0 ||
           strcmp(name, "import") == 0 || strcmp(name, "embed") == 0;
}

/* Follows "# include" (or "%: include") at the start of a line. */
static void track_directive(lexer_t *x, int c)
{
    int blank = is_blank(c);
    switch (x->dir) {
    case D_BOL:
        x->dir = blank ? D_BOL : c == '#' ? D_HASH : c == '%' ? D_PERCENT : D_NONE;
        break;
    case D_PERCENT:
        x->dir = c == ':' ? D_HASH : D_NONE;
        break;
    case D_HASH:
        x->nlen = 0;
        x->dir = blank ? D_HASH : lex_is_ident(c) ? D_NAME : D_NONE;
        break;
    case D_OPERAND:
        x->dir = blank ? D_OPERAND : D_NONE;
        break;
    }
    if (x->dir == D_NAME) {
        if (lex_is_ident(c)) {
            if (x->nlen < sizeof x->name - 1)
                x->name[x->nlen++] = (char)c;
            else
                x->name[0] = '?'; /* too long for one of ours */
            x->name[x->nlen] = '\0';
        } else {
            x->dir = blank && is_include_name(x->name) ? D_OPERAND : D_NONE;
        }
    }
    if (c == '\n')
        x->dir = D_BOL;
}

/* Follows the code token: identifier (and where it began), number, other. */
static void track_token(lexer_t *x, int c)
{
    size_t at = x->t->n;
    int prev = at > 0 ? x->t->c[at - 1] : 0;
    if (x->tok == TOK_NUMBER && (lex_is_ident(c) || c == '.' || c == '\'' ||
                                 ((c == '+' || c == '-') && prev && strchr("eEpP", prev))))
        return;
    if (x->tok == TOK_IDENT && lex_is_ident(c))
        return;
    if (c >= '0' && c <= '9')
        x->tok = TOK_NUMBER;
    else if (c == '.')
        x->tok = TOK_DOT;
    else if (lex_is_ident(c))
        x->tok = TOK_IDENT, x->tok_start = at;
    else
        x->tok = TOK_NONE;
}

static void code(lexer_t *x, int c, int line)
{
    track_token(x, c);
    track_directive(x, c);
    emit(x, c, LEX_CODE, line);
}

/* The identifier just read is a literal's prefix (u8"", LR"", L'')? */
static int is_prefix(const char *s, size_t len, int quote)
{
    static const char *const str[] = {"L", "u", "U", "u8", "R", "LR", "uR", "UR", "u8R", NULL};
    for (int i = 0; str[i] && (quote == '"' || i < 4); i++)
        if (strlen(str[i]) == len && strncmp(s, str[i], len) == 0)
            return 1;
    return 0;
}

/* An ordinary literal's rest, up to its closing quote or the line's end. */
static void quoted(lexer_t *x, int quote, int kind)
{
    int c, line;
    while ((c = next_char(&x->k, &line)) >= 0) {
        if (c == '\n') {
            code(x, c, line);
            return;
        }
        emit(x, c, kind, line);
        if (c == quote)
            return;
        if (c == '\\' && peek_char(&x->k) >= 0 && peek_char(&x->k) != '\n') {
            c = next_char(&x->k, &line);
            emit(x, c, kind, line);
        }
    }
}

/* A raw string's rest, read as written: delimiter, '(', text, ')delimiter"'.
 * 0 (nothing read) when the delimiter is not valid. */
static int raw_string(lexer_t *x)
{
    cursor_t *k = &x->k;
    size_t d = k->i;
    while (d < k->n && d - k->i <= RAW_DELIM_MAX && !strchr(" ()\\\t\v\f\n", k->s[d]))
        d++;
    if (d >= k->n || k->s[d] != '(' || d - k->i > RAW_DELIM_MAX)
        return 0;
    char close[RAW_DELIM_MAX + 3];
    size_t clen = (size_t)snprintf(close, sizeof close, ")%.*s\"", (int)(d - k->i), k->s + k->i);
    size_t end = k->n;
    const char *hit = memmem(k->s + d, k->n - d, close, clen);
    if (hit)
        end = (size_t)(hit - k->s) + clen;
    for (; k->i < end; k->i++) {
        emit(x, k->s[k->i], LEX_STR, k->line);
        k->line += k->s[k->i] == '\n';
    }
    return 1;
}

static void literal(lexer_t *x, int quote, int line)
{
    lex_text_t *t = x->t;
    size_t start = t->n;
    if (x->tok == TOK_IDENT && is_prefix(t->c + x->tok_start, t->n - x->tok_start, quote))
        start = x->tok_start;
    int raw = quote == '"' && start < t->n && t->c[t->n - 1] == 'R';
    int kind = quote == '"' ? LEX_STR : LEX_CHAR;
    emit(x, quote, kind, line);
    for (size_t i = start; i < t->n && !x->oom; i++)
        t->kind[i] = (char)kind;
    if (!x->oom && quote == '"')
        t->kind[start] = LEX_START;
    if (!raw || !raw_string(x))
        quoted(x, quote, kind);
    x->tok = TOK_NONE;
}

/* #include's <name>: read as it is written, no comment in it. */
static void header_name(lexer_t *x, int line)
{
    int c;
    code(x, '<', line);
    while ((c = next_char(&x->k, &line)) >= 0) {
        if (c == '\n') {
            code(x, c, line);
            break;
        }
        emit(x, c, LEX_STR, line);
        if (c == '>')
            break;
    }
    x->tok = TOK_NONE;
    x->dir = D_NONE;
}

static void skip_comment(lexer_t *x, int block)
{
    int c, line;
    if (block)
        next_char(&x->k, &line); /* the '*' */
    while ((c = peek_char(&x->k)) >= 0) {
        if (!block && c == '\n')
            return;
        next_char(&x->k, &line);
        if (block && c == '*' && peek_char(&x->k) == '/') {
            next_char(&x->k, &line);
            return;
        }
    }
}

int lex_source(const char *s, size_t n, lex_text_t *t)
{
    memset(t, 0, sizeof *t);
    lexer_t x = {.k = {s, 0, n, 1}, .t = t, .dir = D_BOL};
    int c, line;
    emit(&x, ' ', LEX_CODE, 1); /* never empty: c is a string even for an empty file */
    t->n = 0;
    while ((c = next_char(&x.k, &line)) >= 0) {
        int p = peek_char(&x.k);
        if (c == '/' && (p == '/' || p == '*')) {
            skip_comment(&x, p == '*');
            code(&x, ' ', line);
        } else if (c == '<' && (x.dir == D_OPERAND || (x.dir == D_NAME && is_include_name(x.name)))) {
            header_name(&x, line);
        } else if (c == '"' || (c == '\'' && x.tok != TOK_NUMBER)) {
            literal(&x, c, line);
        } else {
            code(&x, c, line);
        }
    }
    if (x.oom)
        lex_free(t);
    return x.oom ? -1 : 0;
}

void lex_free(lex_text_t *t)
{
    free(t->c);
    free(t->kind);
    free(t->line);
    memset(t, 0, sizeof *t);
}

size_t lex_line_end(const lex_text_t *t, size_t i)
{
    while (i < t->n && !(t->c[i] == '\n' && t->kind[i] == LEX_CODE))
        i++;
    return i;
}

static void put(strbuf_t *out, unsigned long v)
{
    char ch = v == 0 || v > 127 ? '?' : (char)v;
    if (ch >= 'A' && ch <= 'Z')
        ch = (char)(ch - 'A' + 'a');
    sb_appendn(out, &ch, 1);
}

/* The value of the escape at s (after its backslash), its length in *len:
 * \n, \x62, \142, \u0062, \U00000062, and C++23's \x{62}, \o{142}, \u{62}. */
static unsigned long escape(const char *s, size_t n, size_t *len)
{
    static const char simple[] = "abfnrtv", value[] = "\a\b\f\n\r\t\v";
    *len = n > 0;
    if (n == 0)
        return 0;
    const char *hit = strchr(simple, s[0]);
    if (hit && *hit)
        return (unsigned char)value[hit - simple];
    int octal = s[0] >= '0' && s[0] <= '7';
    int base = octal || s[0] == 'o' ? 8 : strchr("xuU", s[0]) && s[0] ? 16 : 0;
    if (!base)
        return (unsigned char)s[0]; /* \\ \" \' \? and what is not an escape */
    size_t i = octal ? 0 : 1;
    int braces = i < n && s[i] == '{';
    size_t max = braces || s[0] == 'x' ? (size_t)-1 : octal ? 3 : s[0] == 'u' ? 4 : 8;
    unsigned long v = 0;
    for (i += (size_t)braces; i < n && max-- > 0; i++) {
        int c = s[i], d = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : 99;
        if (d >= base)
            break;
        v = v > 0xffffffUL ? v : v * (unsigned long)base + (unsigned long)d;
    }
    *len = i + (braces && i < n && s[i] == '}');
    return v;
}

/* One literal (prefix and quotes included) decoded into out. */
static void decode_literal(const char *s, size_t n, strbuf_t *out)
{
    const char *q = memchr(s, '"', n);
    if (!q)
        return;
    size_t i = (size_t)(q - s) + 1;
    if (q > s && q[-1] == 'R') { /* R"delim( text )delim" */
        const char *open = memchr(q, '(', n - (size_t)(q - s));
        size_t delim = open ? (size_t)(open - q) - 1 : 0, end = n >= delim + 2 ? n - delim - 2 : 0;
        for (i = open ? (size_t)(open - s) + 1 : n; i < end; i++)
            put(out, (unsigned char)s[i]);
        return;
    }
    size_t end = n > i && s[n - 1] == '"' ? n - 1 : n;
    while (i < end) {
        size_t len = 1;
        unsigned long v = (unsigned char)s[i];
        if (v == '\\')
            v = escape(s + i + 1, end - i - 1, &len), len++;
        put(out, v);
        i += len;
    }
}

size_t lex_append_literal(const lex_text_t *t, size_t i, strbuf_t *out, size_t *end)
{
    size_t e = i + 1;
    while (e < t->n && t->kind[e] == LEX_STR)
        e++;
    decode_literal(t->c + i, e - i, out);
    *end = e;
    while (e < t->n && t->kind[e] == LEX_CODE && (is_blank(t->c[e]) || t->c[e] == '\n'))
        e++;
    return e < t->n && t->kind[e] == LEX_START ? e : 0;
}
