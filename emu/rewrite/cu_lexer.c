/* cu_lexer.c - splits CUDA source into the coarse tokens the rewriter needs;
 * see cu_lexer.h. Unterminated literals end at the end of their line and an
 * unterminated block comment at the end of the file: the tokenizer never
 * fails, the host compiler reports such errors with the right line. */
#include "cu_lexer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s;
    size_t len;
    size_t pos;
} scanner;

static char peek(const scanner *sc, size_t ahead)
{
    return sc->pos + ahead < sc->len ? sc->s[sc->pos + ahead] : '\0';
}

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
           (unsigned char)c >= 0x80;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

/* Length of the line break at the scanner ("\n" or "\r\n"), 0 if none. */
static size_t newline_len(const scanner *sc, size_t ahead)
{
    if (peek(sc, ahead) == '\n')
        return 1;
    if (peek(sc, ahead) == '\r' && peek(sc, ahead + 1) == '\n')
        return 2;
    return 0;
}

/* Length of a backslash-newline at the scanner, 0 if none. */
static size_t splice_len(const scanner *sc)
{
    if (peek(sc, 0) != '\\')
        return 0;
    size_t nl = newline_len(sc, 1);
    return nl ? 1 + nl : 0;
}

static void scan_line_comment(scanner *sc)
{
    while (sc->pos < sc->len && !newline_len(sc, 0)) {
        size_t splice = splice_len(sc);
        sc->pos += splice ? splice : 1; /* a trailing backslash continues the comment */
    }
}

static void scan_block_comment(scanner *sc)
{
    sc->pos += 2;
    while (sc->pos < sc->len && !(peek(sc, 0) == '*' && peek(sc, 1) == '/'))
        sc->pos++;
    sc->pos = sc->pos < sc->len ? sc->pos + 2 : sc->len;
}

/* A quoted literal: the scanner is on the opening quote. */
static void scan_quoted(scanner *sc, char quote)
{
    sc->pos++;
    while (sc->pos < sc->len) {
        char c = peek(sc, 0);
        if (c == quote) {
            sc->pos++;
            return;
        }
        if (newline_len(sc, 0))
            return; /* unterminated: stop at the end of the line */
        if (c == '\\') {
            size_t splice = splice_len(sc);
            sc->pos += splice ? splice : 2;
            continue;
        }
        sc->pos++;
    }
    if (sc->pos > sc->len)
        sc->pos = sc->len;
}

/* R"delim( ... )delim": the scanner is on the quote after the prefix.
 * Returns false (scanner unchanged) if the delimiter is not valid. */
static bool scan_raw_string(scanner *sc)
{
    size_t open = sc->pos + 1, d = open;
    while (d < sc->len && d - open <= 16 && sc->s[d] != '(') {
        char c = sc->s[d];
        if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\n' || c == '\r' || c == '"')
            return false;
        d++;
    }
    if (d >= sc->len || sc->s[d] != '(' || d - open > 16)
        return false;
    size_t delim_len = d - open;
    for (size_t p = d + 1; p + 1 + delim_len < sc->len; p++) {
        bool closes = sc->s[p] == ')' && memcmp(sc->s + p + 1, sc->s + open, delim_len) == 0 &&
                      sc->s[p + 1 + delim_len] == '"';
        if (closes) {
            sc->pos = p + delim_len + 2;
            return true;
        }
    }
    sc->pos = sc->len; /* unterminated raw string runs to the end */
    return true;
}

static bool is_raw_prefix(const char *s, size_t n)
{
    static const char *const prefixes[] = { "R", "LR", "uR", "UR", "u8R" };
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (strlen(prefixes[i]) == n && memcmp(prefixes[i], s, n) == 0)
            return true;
    return false;
}

/* An identifier, or a raw string literal if the identifier is its prefix. */
static cu_kind scan_word(scanner *sc)
{
    size_t start = sc->pos;
    while (sc->pos < sc->len && is_ident_char(peek(sc, 0)))
        sc->pos++;
    if (peek(sc, 0) == '"' && is_raw_prefix(sc->s + start, sc->pos - start) && scan_raw_string(sc))
        return CU_STRING;
    return CU_IDENT;
}

/* A preprocessing number: digits, letters, '.', exponent signs and digit
 * separators (1'000'000 is one number, not a character literal). */
static void scan_number(scanner *sc)
{
    sc->pos++;
    while (sc->pos < sc->len) {
        char c = peek(sc, 0);
        if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (peek(sc, 1) == '+' || peek(sc, 1) == '-'))
            sc->pos += 2;
        else if (c == '\'' && is_ident_char(peek(sc, 1)))
            sc->pos += 2;
        else if (is_ident_char(c) || c == '.')
            sc->pos++;
        else
            break;
    }
}

static void scan_space(scanner *sc)
{
    while (sc->pos < sc->len) {
        char c = peek(sc, 0);
        bool blank = c == ' ' || c == '\t' || c == '\f' || c == '\v' || (c == '\r' && !newline_len(sc, 0));
        if (!blank)
            break;
        sc->pos++;
    }
}

/* Scans one token starting at sc->pos and returns its kind. */
static cu_kind scan_token(scanner *sc)
{
    char c = peek(sc, 0), next = peek(sc, 1);
    size_t n;
    if ((n = newline_len(sc, 0))) {
        sc->pos += n;
        return CU_NEWLINE;
    }
    if ((n = splice_len(sc))) {
        sc->pos += n;
        return CU_SPLICE;
    }
    if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r') {
        scan_space(sc);
        return CU_SPACE;
    }
    if (c == '/' && next == '/') {
        scan_line_comment(sc);
        return CU_COMMENT;
    }
    if (c == '/' && next == '*') {
        scan_block_comment(sc);
        return CU_COMMENT;
    }
    if (c == '"' || c == '\'') {
        scan_quoted(sc, c);
        return c == '"' ? CU_STRING : CU_CHAR;
    }
    if (is_digit(c) || (c == '.' && is_digit(next))) {
        scan_number(sc);
        return CU_NUMBER;
    }
    if (is_ident_start(c))
        return scan_word(sc);
    sc->pos++;
    return CU_PUNCT;
}

static int count_newlines(const char *s, size_t n)
{
    int lines = 0;
    for (size_t i = 0; i < n; i++)
        lines += s[i] == '\n';
    return lines;
}

static void push_token(cu_tokens *t, size_t *cap, cu_token tok)
{
    if (t->count == *cap) {
        *cap = *cap ? *cap * 2 : 1024;
        cu_token *grown = realloc(t->toks, *cap * sizeof *grown);
        if (!grown) {
            fputs("cugrade rewrite: out of memory\n", stderr);
            abort();
        }
        t->toks = grown;
    }
    t->toks[t->count++] = tok;
}

void cu_tokenize(const char *src, size_t len, cu_tokens *out)
{
    *out = (cu_tokens){ .src = src, .srclen = len };
    size_t cap = 0;
    scanner sc = { .s = src, .len = len, .pos = 0 };
    int line = 1;
    while (sc.pos < len) {
        size_t start = sc.pos;
        cu_kind kind = scan_token(&sc);
        push_token(out, &cap, (cu_token){ .kind = kind, .start = start, .len = sc.pos - start, .line = line });
        line += count_newlines(src + start, sc.pos - start);
    }
}

void cu_tokens_free(cu_tokens *t)
{
    free(t->toks);
    t->toks = NULL;
    t->count = 0;
}

bool cu_is_trivia(const cu_tokens *t, size_t i)
{
    if (i >= t->count)
        return false;
    cu_kind k = t->toks[i].kind;
    return k == CU_SPACE || k == CU_NEWLINE || k == CU_SPLICE || k == CU_COMMENT;
}

bool cu_is_punct(const cu_tokens *t, size_t i, char c)
{
    return i < t->count && t->toks[i].kind == CU_PUNCT && t->src[t->toks[i].start] == c;
}

bool cu_is_ident(const cu_tokens *t, size_t i, const char *word)
{
    if (i >= t->count || t->toks[i].kind != CU_IDENT)
        return false;
    size_t n = strlen(word);
    return t->toks[i].len == n && memcmp(t->src + t->toks[i].start, word, n) == 0;
}

bool cu_is_triple(const cu_tokens *t, size_t i, char c)
{
    return cu_is_punct(t, i, c) && cu_is_punct(t, i + 1, c) && cu_is_punct(t, i + 2, c);
}

size_t cu_next_code(const cu_tokens *t, size_t i)
{
    if (i == CU_NONE)
        return CU_NONE;
    for (size_t j = i + 1; j < t->count; j++)
        if (!cu_is_trivia(t, j))
            return j;
    return CU_NONE;
}

size_t cu_prev_code(const cu_tokens *t, size_t i)
{
    if (i == CU_NONE)
        return CU_NONE;
    for (size_t j = i; j-- > 0;)
        if (!cu_is_trivia(t, j))
            return j;
    return CU_NONE;
}

const char *cu_text(const cu_tokens *t, size_t i) { return t->src + t->toks[i].start; }

size_t cu_match_close(const cu_tokens *t, size_t open)
{
    static const char pairs[][2] = { { '(', ')' }, { '[', ']' }, { '{', '}' } };
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++) {
        if (!cu_is_punct(t, open, pairs[k][0]))
            continue;
        int depth = 0;
        for (size_t j = open; j != CU_NONE; j = cu_next_code(t, j)) {
            if (cu_is_punct(t, j, pairs[k][0]))
                depth++;
            else if (cu_is_punct(t, j, pairs[k][1]) && --depth == 0)
                return j;
        }
        return CU_NONE;
    }
    return CU_NONE;
}
