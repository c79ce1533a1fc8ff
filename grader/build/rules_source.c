/* rules_source.c - the source stage of a lab's rules (rules.h): the
 * submission's text, lexed as the compiler reads it (srclex.h: comments
 * blanked, literals and header names marked), is searched for what breaks
 * fp32-simt: the headers it includes, the names it uses (identifiers of
 * code only: a name in a comment or a message is no use of it) and what
 * its string literals (inline assembly) say. Then the files of its own
 * folder that it includes by a quoted name, the same way. */
#include "build/rules.h"
#include "build/srclex.h"
#include "util/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 32  /* of the submission's own, walked from its file */
#define MAX_DEPTH 8

typedef enum { CAT_TENSOR, CAT_TF32, CAT_HALF, CAT_LIBRARY } category_t;

/* What each category says the submission does. */
static const char *const category_what[] = {
    "uses tensor cores", "uses TF32 (tensor cores at reduced precision)",
    "uses reduced precision (FP16, BF16 or FP8 types)", "uses %s, a library",
};

typedef enum { M_EXACT, M_PREFIX, M_SCOPE, M_CONTAINS_CI } match_t;

typedef struct {
    const char *text;
    match_t how;          /* identifiers: the whole name, its start, the name followed by
                           * "::", or anywhere in it whatever the case */
    category_t cat;
    const char *library;  /* CAT_LIBRARY: its name */
} pattern_t;

/* Header names: the whole base name (M_EXACT), its start (M_PREFIX), or
 * the path's start (M_SCOPE, "cutlass/"). */
static const pattern_t headers[] = {
    {"mma.h", M_EXACT, CAT_TENSOR, NULL},
    {"cublas", M_PREFIX, CAT_LIBRARY, "cuBLAS"},
    {"cudnn", M_PREFIX, CAT_LIBRARY, "cuDNN"},
    {"nvblas", M_PREFIX, CAT_LIBRARY, "NVBLAS"},
    {"cutlass/", M_SCOPE, CAT_LIBRARY, "CUTLASS"},
    {"cute/", M_SCOPE, CAT_LIBRARY, "CUTLASS (CuTe)"},
    {"thrust/", M_SCOPE, CAT_LIBRARY, "Thrust"},
    {"cuda_fp16", M_PREFIX, CAT_HALF, NULL},
    {"cuda_bf16", M_PREFIX, CAT_HALF, NULL},
    {"cuda_fp8", M_PREFIX, CAT_HALF, NULL},
    {"cuda_fp6", M_PREFIX, CAT_HALF, NULL},
    {"cuda_fp4", M_PREFIX, CAT_HALF, NULL},
    {NULL, M_EXACT, CAT_TENSOR, NULL},
};

/* Identifiers of code. ("half" alone is not here: it is a common variable
 * name; the type's own name is __half, and <cuda_fp16.h> is above.) */
static const pattern_t names[] = {
    {"wmma", M_EXACT, CAT_TENSOR, NULL},
    {"nvcuda", M_EXACT, CAT_TENSOR, NULL},
    {"__hmma", M_PREFIX, CAT_TENSOR, NULL}, /* nvcc's built-ins behind <mma.h> */
    {"__imma", M_PREFIX, CAT_TENSOR, NULL},
    {"__bmma", M_PREFIX, CAT_TENSOR, NULL},
    {"__dmma", M_PREFIX, CAT_TENSOR, NULL},
    {"__mma_", M_PREFIX, CAT_TENSOR, NULL},
    {"tf32", M_CONTAINS_CI, CAT_TF32, NULL},
    {"cublas", M_PREFIX, CAT_LIBRARY, "cuBLAS"},
    {"CUBLAS", M_PREFIX, CAT_LIBRARY, "cuBLAS"},
    {"cudnn", M_PREFIX, CAT_LIBRARY, "cuDNN"},
    {"CUDNN", M_PREFIX, CAT_LIBRARY, "cuDNN"},
    {"nvblas", M_PREFIX, CAT_LIBRARY, "NVBLAS"},
    {"cutlass", M_PREFIX, CAT_LIBRARY, "CUTLASS"},
    {"cute", M_SCOPE, CAT_LIBRARY, "CUTLASS (CuTe)"},
    {"thrust", M_SCOPE, CAT_LIBRARY, "Thrust"},
    {"__half", M_PREFIX, CAT_HALF, NULL},
    {"__nv_bfloat", M_PREFIX, CAT_HALF, NULL},
    {"nv_bfloat16", M_PREFIX, CAT_HALF, NULL},
    {"__nv_fp8", M_PREFIX, CAT_HALF, NULL},
    {"__nv_fp6", M_PREFIX, CAT_HALF, NULL},
    {"__nv_fp4", M_PREFIX, CAT_HALF, NULL},
    {"__float2half", M_PREFIX, CAT_HALF, NULL},
    {"__float2bfloat16", M_PREFIX, CAT_HALF, NULL},
    {"__bfloat16", M_PREFIX, CAT_HALF, NULL},
    {"__hfma", M_PREFIX, CAT_HALF, NULL},
    {"__hmul", M_PREFIX, CAT_HALF, NULL},
    {NULL, M_EXACT, CAT_TENSOR, NULL},
};

/* Inline assembly (string literals, joined and lower-cased): PTX that uses
 * the tensor cores or a reduced-precision type. */
static const pattern_t asm_texts[] = {
    {"mma.sync", M_CONTAINS_CI, CAT_TENSOR, NULL},
    {"mma.sp", M_CONTAINS_CI, CAT_TENSOR, NULL},
    {"wmma.", M_CONTAINS_CI, CAT_TENSOR, NULL},
    {"wgmma", M_CONTAINS_CI, CAT_TENSOR, NULL},
    {"tcgen05", M_CONTAINS_CI, CAT_TENSOR, NULL},
    {"tf32", M_CONTAINS_CI, CAT_TF32, NULL},
    {".f16", M_CONTAINS_CI, CAT_HALF, NULL},
    {".bf16", M_CONTAINS_CI, CAT_HALF, NULL},
    {".e4m3", M_CONTAINS_CI, CAT_HALF, NULL},
    {".e5m2", M_CONTAINS_CI, CAT_HALF, NULL},
    {NULL, M_EXACT, CAT_TENSOR, NULL},
};

static void found(rule_finding_t *f, const pattern_t *p, const char *file, int line,
                  const char *fmt, const char *shown)
{
    memset(f, 0, sizeof *f);
    f->rule = RULE_FP32_SIMT;
    snprintf(f->what, sizeof f->what, category_what[p->cat], p->library ? p->library : "");
    snprintf(f->evidence, sizeof f->evidence, fmt, shown);
    snprintf(f->file, sizeof f->file, "%s", file);
    f->line = line;
}

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return 1;
    return 0;
}

/* An identifier (followed by "::" when scope) against the name patterns. */
static const pattern_t *match_name(const char *id, int scope)
{
    for (const pattern_t *p = names; p->text; p++) {
        size_t n = strlen(p->text);
        if ((p->how == M_EXACT && strcmp(id, p->text) == 0) ||
            (p->how == M_PREFIX && strncmp(id, p->text, n) == 0) ||
            (p->how == M_SCOPE && scope && strcmp(id, p->text) == 0) ||
            (p->how == M_CONTAINS_CI && contains_ci(id, p->text)))
            return p;
    }
    return NULL;
}

static const pattern_t *match_header(const char *name)
{
    const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
    for (const pattern_t *p = headers; p->text; p++) {
        size_t n = strlen(p->text);
        if ((p->how == M_EXACT && strcmp(base, p->text) == 0) ||
            (p->how == M_PREFIX && strncmp(base, p->text, n) == 0) ||
            (p->how == M_SCOPE && strncmp(name, p->text, n) == 0))
            return p;
    }
    return NULL;
}

static size_t skip_blanks(const lex_text_t *t, size_t i, size_t end)
{
    while (i < end && t->c[i] && strchr(" \t\r\f\v", t->c[i]))
        i++;
    return i;
}

/* The operand of the #include-like directive on the logical line [i, end):
 * its name into name (quoted set for "name"); 0 when the line is none. */
static int include_operand(const lex_text_t *t, size_t i, size_t end, char *name, size_t len,
                           int *quoted)
{
    i = skip_blanks(t, i, end);
    if (i < end && t->kind[i] == LEX_CODE && t->c[i] == '#')
        i++;
    else if (i + 1 < end && t->kind[i] == LEX_CODE && t->c[i] == '%' && t->c[i + 1] == ':')
        i += 2;
    else
        return 0;
    i = skip_blanks(t, i, end);
    size_t k = i;
    while (k < end && lex_is_ident(t->c[k]))
        k++;
    static const char *const directives[] = {"include", "include_next", "import", NULL};
    int known = 0;
    for (int d = 0; directives[d]; d++)
        known |= k - i == strlen(directives[d]) && strncmp(t->c + i, directives[d], k - i) == 0;
    i = skip_blanks(t, k, end);
    if (!known || i >= end || (t->c[i] != '<' && t->c[i] != '"'))
        return 0;
    char close = t->c[i] == '<' ? '>' : '"';
    const char *stop = i + 1 < end ? memchr(t->c + i + 1, close, end - i - 1) : NULL;
    if (!stop)
        return 0;
    *quoted = close == '"';
    snprintf(name, len, "%.*s", (int)(stop - t->c - (long)i - 1), t->c + i + 1);
    return 1;
}

/* The includes of t: a banned header (1, f filled); the quoted names onto
 * quoted (one per line) for the walk. */
static int scan_includes(const lex_text_t *t, const char *file, rule_finding_t *f,
                         strbuf_t *quoted_names)
{
    for (size_t i = 0, end; i < t->n; i = end + 1) {
        end = lex_line_end(t, i);
        char name[512], shown[520];
        int quoted = 0;
        if (!include_operand(t, i, end, name, sizeof name, &quoted))
            continue;
        const pattern_t *p = match_header(name);
        snprintf(shown, sizeof shown, "%c%s%c", quoted ? '"' : '<', name, quoted ? '"' : '>');
        if (p) {
            found(f, p, file, t->line[skip_blanks(t, i, end)], "#include %s", shown);
            return 1;
        }
        if (quoted && quoted_names)
            sb_appendf(quoted_names, "%s\n", name);
    }
    return 0;
}

/* Identifiers of code (not a number's letters). */
static int scan_names(const lex_text_t *t, const char *file, rule_finding_t *f)
{
    for (size_t i = 0; i < t->n;) {
        if (t->kind[i] != LEX_CODE || !lex_is_ident(t->c[i])) {
            i++;
            continue;
        }
        size_t k = i;
        while (k < t->n && t->kind[k] == LEX_CODE && lex_is_ident(t->c[k]))
            k++;
        int number = isdigit((unsigned char)t->c[i]);
        size_t after = skip_blanks(t, k, t->n);
        int scope = after + 1 < t->n && t->c[after] == ':' && t->c[after + 1] == ':';
        char id[128];
        snprintf(id, sizeof id, "%.*s", (int)(k - i), t->c + i);
        const pattern_t *p = number ? NULL : match_name(id, scope);
        if (p) {
            found(f, p, file, t->line[i], scope ? "%s::" : "%s", id);
            return 1;
        }
        i = k;
    }
    return 0;
}

/* String literals, adjacent ones joined (asm("mma" ".sync ...")). */
static int scan_literals(const lex_text_t *t, const char *file, rule_finding_t *f)
{
    strbuf_t sb = {0};
    int hit = 0;
    for (size_t i = 0, end = 0; i < t->n && !hit; i = end > i ? end : i + 1) {
        end = 0;
        if (t->kind[i] != LEX_START)
            continue;
        sb.len = 0;
        for (size_t at = i; at;)
            at = lex_append_literal(t, at, &sb, &end);
        for (const pattern_t *p = asm_texts; p->text && !hit; p++)
            if (contains_ci(sb_str(&sb), p->text)) {
                found(f, p, file, t->line[i], "\"%s\" in a string literal (inline PTX)", p->text);
                hit = 1;
            }
    }
    sb_free(&sb);
    return hit;
}

static int scan_lexed(unsigned mask, const lex_text_t *t, const char *file, rule_finding_t *f,
                      strbuf_t *quoted_names)
{
    if (!(mask & RULE_BIT(RULE_FP32_SIMT)))
        return 0;
    return scan_includes(t, file, f, quoted_names) || scan_names(t, file, f) ||
           scan_literals(t, file, f);
}

int rules_scan_source(unsigned mask, const char *text, size_t len, const char *file,
                      rule_finding_t *f)
{
    lex_text_t t;
    if (lex_source(text, len, &t) != 0)
        return 0;
    int rc = scan_lexed(mask, &t, file, f, NULL);
    lex_free(&t);
    return rc;
}

/* ---- the walk over the submission's own files ------------------------------------ */

typedef struct {
    unsigned mask;
    char folder[PATH_MAX];
    char *seen[MAX_FILES];
    int nseen;
    rule_finding_t *f;
    char *err;
    size_t errlen;
} walk_t;

static int scan_file(walk_t *w, const char *path, int depth);

/* The quoted includes of path found in the submission's folder (inside it,
 * as the source check requires), each scanned in turn. */
static int scan_quoted(walk_t *w, const char *path, const char *list, int depth)
{
    char dir[PATH_MAX], cand[PATH_MAX], real[PATH_MAX];
    path_dir(path, dir, sizeof dir);
    for (const char *p = list; *p;) {
        const char *nl = strchr(p, '\n');
        char name[512];
        snprintf(name, sizeof name, "%.*s", (int)(nl - p), p);
        p = nl + 1;
        size_t n = strlen(w->folder);
        if (name[0] == '/' || strstr(name, "..") || path_join(cand, sizeof cand, dir, name) != 0 ||
            !realpath(cand, real) || strncmp(real, w->folder, n) != 0 || real[n] != '/' ||
            !is_file(real))
            continue; /* not the submission's: the lab's headers, or refused by the source check */
        int rc = scan_file(w, real, depth + 1);
        if (rc)
            return rc;
    }
    return 0;
}

static int scan_file(walk_t *w, const char *path, int depth)
{
    for (int i = 0; i < w->nseen; i++)
        if (strcmp(w->seen[i], path) == 0)
            return 0;
    if (w->nseen == MAX_FILES || depth > MAX_DEPTH)
        return 0; /* the source check refuses more files than that */
    w->seen[w->nseen++] = strdup(path);
    size_t len = 0;
    char why[256];
    char *text = read_file(path, &len, why, sizeof why);
    lex_text_t t;
    if (!text || lex_source(text, len, &t) != 0) {
        snprintf(w->err, w->errlen, "cannot read %.600s to check the lab's rules: %s", path,
                 text ? "out of memory" : why);
        free(text);
        return -1;
    }
    free(text);
    strbuf_t quoted = {0};
    int rc = scan_lexed(w->mask, &t, path, w->f, &quoted);
    lex_free(&t);
    if (rc == 0)
        rc = scan_quoted(w, path, sb_str(&quoted), depth);
    sb_free(&quoted);
    return rc;
}

int rules_check_source(unsigned mask, const char *src, rule_finding_t *f, char *err,
                       size_t errlen)
{
    walk_t w = {.mask = mask, .f = f, .err = err, .errlen = errlen};
    char real[PATH_MAX], dir[PATH_MAX];
    if (!mask)
        return 0;
    if (!realpath(src, real)) {
        snprintf(err, errlen, "cannot read %.600s to check the lab's rules", src);
        return -1;
    }
    path_dir(real, dir, sizeof dir);
    snprintf(w.folder, sizeof w.folder, "%s", dir);
    int rc = scan_file(&w, real, 0);
    if (rc == 1 && strcmp(f->file, real) == 0) /* name the file as the student gave it */
        snprintf(f->file, sizeof f->file, "%s", src);
    for (int i = 0; i < w.nseen; i++)
        free(w.seen[i]);
    return rc;
}
