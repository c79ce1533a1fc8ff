/* srclex.h - C/C++ source as the preprocessor's first phases see it, for
 * srccheck.c: trigraphs replaced, backslash-newlines (blanks allowed before
 * the newline) joined, comments turned into a blank, string and character
 * literals (prefixes and raw strings included) and #include's <header
 * names> marked, each character with the line it came from. Nothing is
 * expanded: macros are the compiler's (srccheck_expanded looks at its -E
 * output). */
#ifndef CUGRADE_SRCLEX_H
#define CUGRADE_SRCLEX_H

#include <stddef.h>

#include "util/util.h"

enum {
    LEX_CODE = 0,  /* code (a comment is one blank) */
    LEX_STR = 1,   /* inside a string literal or a <header name> */
    LEX_START = 2, /* the first character of a string literal (its prefix or quote) */
    LEX_CHAR = 3,  /* a character literal */
};

typedef struct {
    char *c;     /* the characters, NUL-terminated */
    char *kind;  /* LEX_* of each */
    int *line;   /* the source line each came from (1-based) */
    size_t n, cap;
} lex_text_t;

/* Lexes n bytes of s. 0, or -1 when out of memory. */
int lex_source(const char *s, size_t n, lex_text_t *t);
void lex_free(lex_text_t *t);

/* A character of an identifier (UTF-8 bytes included). */
int lex_is_ident(int c);

/* The logical line starting at offset i (a code '\n' ends it): its end. */
size_t lex_line_end(const lex_text_t *t, size_t i);

/* Decodes the string literal at offset i (a LEX_START) onto out: escapes
 * (\x62, \142, \u0062) decoded, raw strings taken as written, letters in
 * lower case, NULs and non-ASCII as '?'. Returns the offset of the next
 * literal, when only blanks separate them (translation phase 6 joins them:
 * "a" "b" is "ab"), else 0; *end is the offset after this one. */
size_t lex_append_literal(const lex_text_t *t, size_t i, strbuf_t *out, size_t *end);

#endif
