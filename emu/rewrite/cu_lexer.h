/* cu_lexer.h - a light C++/CUDA tokenizer for the launch rewriter. It only
 * needs to know what is code and what is not: comments, string and character
 * literals (raw strings included) and line continuations become single
 * tokens, so `<<<` inside them is never mistaken for a launch. Punctuation is
 * one token per character; `<<<` is three adjacent '<' tokens. The tokens
 * cover the source exactly, in order. Private to emu/rewrite. */
#ifndef CUGRADE_CU_LEXER_H
#define CUGRADE_CU_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    CU_IDENT,   /* identifier or keyword */
    CU_NUMBER,  /* preprocessing number, digit separators included */
    CU_STRING,  /* "..." or R"d(...)d", with any encoding prefix of a raw string */
    CU_CHAR,    /* '...' */
    CU_PUNCT,   /* any other single character */
    CU_SPACE,   /* blanks, tabs, form feeds, a lone \r */
    CU_NEWLINE, /* "\n" or "\r\n" */
    CU_SPLICE,  /* backslash-newline */
    CU_COMMENT, /* // ... or / * ... * / */
} cu_kind;

typedef struct {
    cu_kind kind;
    size_t start; /* offset in the source */
    size_t len;
    int line;     /* 1-based line of the first byte */
} cu_token;

typedef struct {
    const char *src;
    size_t srclen;
    cu_token *toks;
    size_t count;
} cu_tokens;

#define CU_NONE SIZE_MAX

/* Splits src into tokens. Never fails (running out of memory aborts). */
void cu_tokenize(const char *src, size_t len, cu_tokens *out);
void cu_tokens_free(cu_tokens *t);

/* Whitespace, newlines, splices and comments: what sits between code. */
bool cu_is_trivia(const cu_tokens *t, size_t i);
/* Token i exists and is the punctuation character c / the identifier word. */
bool cu_is_punct(const cu_tokens *t, size_t i, char c);
bool cu_is_ident(const cu_tokens *t, size_t i, const char *word);
/* Tokens i, i+1, i+2 are all the punctuation c (so "<<<" or ">>>"). */
bool cu_is_triple(const cu_tokens *t, size_t i, char c);
/* Index of the next / previous non-trivia token, or CU_NONE. */
size_t cu_next_code(const cu_tokens *t, size_t i);
size_t cu_prev_code(const cu_tokens *t, size_t i);
/* Pointer to token i's text. */
const char *cu_text(const cu_tokens *t, size_t i);
/* The token closing the '(', '[' or '{' at index open (nested pairs of the
 * same kind count), or CU_NONE if it is not an opener or never closed. */
size_t cu_match_close(const cu_tokens *t, size_t open);

#endif
