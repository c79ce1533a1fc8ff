/* rewrite_text.h - the rewriter's text plumbing: a growable string and a list
 * of edits (replace `remove` bytes at offset `at` with new text) that are
 * applied to the source in one pass. Private to emu/rewrite. */
#ifndef CUGRADE_REWRITE_TEXT_H
#define CUGRADE_REWRITE_TEXT_H

#include <stddef.h>

/* A growable NUL-terminated string; zero-initialise before use. Running out
 * of memory aborts, so appends cannot fail. */
typedef struct {
    char *buf;
    size_t len;
    size_t cap;
} rw_buf;

void rw_putn(rw_buf *b, const char *s, size_t n);
void rw_puts(rw_buf *b, const char *s);
void rw_putc(rw_buf *b, char c);
/* Appends s[0..n) with `"` and `\` escaped, for use inside a string literal. */
void rw_put_escaped(rw_buf *b, const char *s, size_t n);
char *rw_detach(rw_buf *b); /* caller frees; never NULL; b is reset */
void rw_free(rw_buf *b);

typedef struct {
    size_t at;     /* offset in the source */
    size_t remove; /* bytes of source replaced */
    char *text;    /* owned replacement */
    size_t seq;    /* insertion order, breaks ties between edits at one offset */
} rw_edit;

typedef struct {
    rw_edit *items;
    size_t count;
    size_t cap;
} rw_edit_list;

/* Adds an edit; takes ownership of text (a malloc'd string). */
void rw_edit_add(rw_edit_list *edits, size_t at, size_t remove, char *text);
/* Adds an edit whose text is copied from s. */
void rw_edit_add_copy(rw_edit_list *edits, size_t at, size_t remove, const char *s);
void rw_edits_free(rw_edit_list *edits);

/* header + src with the edits applied (they must not overlap). Sorts edits. */
char *rw_edits_apply(rw_edit_list *edits, const char *src, size_t len, const char *header);

#endif
