/* rewrite_text.c - growable strings and the edit list the rewriter fills in
 * while it scans, applied to the source in offset order at the end. */
#include "rewrite_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *checked_realloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q) {
        fputs("cugrade rewrite: out of memory\n", stderr);
        abort();
    }
    return q;
}

static void rw_reserve(rw_buf *b, size_t extra)
{
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    b->buf = checked_realloc(b->buf, cap);
    b->cap = cap;
}

void rw_putn(rw_buf *b, const char *s, size_t n)
{
    rw_reserve(b, n);
    if (n)
        memcpy(b->buf + b->len, s, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

void rw_puts(rw_buf *b, const char *s) { rw_putn(b, s, strlen(s)); }

void rw_putc(rw_buf *b, char c) { rw_putn(b, &c, 1); }

void rw_put_escaped(rw_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"' || s[i] == '\\')
            rw_putc(b, '\\');
        rw_putc(b, s[i]);
    }
}

char *rw_detach(rw_buf *b)
{
    char *p = b->buf;
    if (!p) {
        p = checked_realloc(NULL, 1);
        p[0] = '\0';
    }
    b->buf = NULL;
    b->len = b->cap = 0;
    return p;
}

void rw_free(rw_buf *b)
{
    free(b->buf);
    b->buf = NULL;
    b->len = b->cap = 0;
}

void rw_edit_add(rw_edit_list *edits, size_t at, size_t remove, char *text)
{
    if (edits->count == edits->cap) {
        edits->cap = edits->cap ? edits->cap * 2 : 16;
        edits->items = checked_realloc(edits->items, edits->cap * sizeof *edits->items);
    }
    edits->items[edits->count] = (rw_edit){ .at = at, .remove = remove, .text = text, .seq = edits->count };
    edits->count++;
}

void rw_edit_add_copy(rw_edit_list *edits, size_t at, size_t remove, const char *s)
{
    rw_buf b = {0};
    rw_puts(&b, s);
    rw_edit_add(edits, at, remove, rw_detach(&b));
}

void rw_edits_free(rw_edit_list *edits)
{
    for (size_t i = 0; i < edits->count; i++)
        free(edits->items[i].text);
    free(edits->items);
    edits->items = NULL;
    edits->count = edits->cap = 0;
}

static int edit_order(const void *a, const void *b)
{
    const rw_edit *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

char *rw_edits_apply(rw_edit_list *edits, const char *src, size_t len, const char *header)
{
    if (edits->count > 1)
        qsort(edits->items, edits->count, sizeof *edits->items, edit_order);
    rw_buf out = {0};
    rw_puts(&out, header);
    size_t copied = 0; /* source bytes before this offset are already handled */
    for (size_t i = 0; i < edits->count; i++) {
        const rw_edit *e = &edits->items[i];
        if (e->at > copied)
            rw_putn(&out, src + copied, e->at - copied);
        rw_puts(&out, e->text);
        if (e->at + e->remove > copied)
            copied = e->at + e->remove;
    }
    if (len > copied)
        rw_putn(&out, src + copied, len - copied);
    return rw_detach(&out);
}
