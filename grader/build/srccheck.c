/* srccheck.c - the source check (srccheck.h): each of the submission's
 * files lexed (srclex.c), its include directives and string literals
 * looked at, the includes it reaches in its folder followed; then the
 * compiler's preprocessed output, with its line markers. */
#include "build/srccheck.h"
#include "build/srclex.h"
#include "util/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILES 64
#define MAX_DEPTH 32
#define MAX_SOURCE_BYTES (16u << 20)
#define MAX_DIRS 16

/* What no string literal may spell (decoded, lower case), and why. */
static const char *const needles[][2] = {
    {"incbin", "the assembler directive .incbin, which reads a file into the program while it "
               "is compiled"},
    {".include", "the assembler directive .include, which reads a file while it is compiled"},
    {".macro", "an assembler macro (.macro), which can spell a directive that reads a file"},
    {".irp", "an assembler loop (.irp), which can spell a directive that reads a file"},
};
#define NNEEDLES (sizeof needles / sizeof needles[0])
#define NEEDLE_MAX 8 /* the longest */

typedef struct {
    char folder[PATH_MAX]; /* the submission's folder, resolved */
    const char *const *header_dirs;
    char *seen[MAX_FILES]; /* the files checked, resolved */
    int nseen;
    srccheck_result_t *r;
} walk_t;

static int refuse(srccheck_result_t *r, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int refuse(srccheck_result_t *r, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    snprintf(r->file, sizeof r->file, "%s", file);
    r->line = line;
    va_start(ap, fmt);
    vsnprintf(r->what, sizeof r->what, fmt, ap);
    va_end(ap);
    return 1;
}

/* path is dir or inside it (both resolved). */
static int inside(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    while (n > 0 && dir[n - 1] == '/')
        n--;
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static int has_dotdot(const char *name)
{
    for (const char *p = name; (p = strstr(p, "..")); p++)
        if ((p == name || p[-1] == '/') && (p[2] == '/' || p[2] == '\0'))
            return 1;
    return 0;
}

static size_t skip_blanks(const lex_text_t *t, size_t i, size_t end)
{
    while (i < end && strchr(" \t\r\f\v", t->c[i]) && t->c[i])
        i++;
    return i;
}

/* The first run of joined string literals in t that spells a needle: the
 * offset of the literal that completes it (-1 if none), and which needle. */
static long find_needle(const lex_text_t *t, size_t *which)
{
    strbuf_t sb = {0};
    long hit = -1;
    for (size_t i = 0, end = 0; i < t->n && hit < 0; i = end > i ? end : i + 1) {
        end = 0;
        if (t->kind[i] != LEX_START)
            continue;
        sb.len = 0;
        for (size_t at = i; at && hit < 0;) {
            /* what the literal appended next can complete */
            size_t from = sb.len > NEEDLE_MAX ? sb.len - NEEDLE_MAX : 0;
            size_t next = lex_append_literal(t, at, &sb, &end);
            for (size_t k = 0; k < NNEEDLES && hit < 0; k++)
                if (strstr(sb_str(&sb) + from, needles[k][0]))
                    *which = k, hit = (long)at;
            at = next;
        }
    }
    sb_free(&sb);
    return hit;
}

static int check_file(walk_t *w, const char *path, int depth);

/* A name that is not found in the submission's folder is the compiler's to
 * find on its include path: the system's, CUDA's or the lab's headers. A
 * quoted one must be one of the lab's (or the emulator's, or CUDA's). */
static int check_name(walk_t *w, const char *from, int line, const char *name, int quoted,
                      int depth)
{
    char shown[320], dir[PATH_MAX], cand[PATH_MAX], real[PATH_MAX];
    snprintf(shown, sizeof shown, "%c%.300s%c", quoted ? '"' : '<', name, quoted ? '"' : '>');
    if (name[0] == '/')
        return refuse(w->r, from, line, "includes %s by an absolute path", shown);
    if (has_dotdot(name))
        return refuse(w->r, from, line, "includes %s by a path with \"..\"", shown);
    path_dir(from, dir, sizeof dir);
    const char *dirs[] = {quoted ? dir : w->folder, w->folder};
    for (int i = 0; i < 2; i++) {
        if (path_join(cand, sizeof cand, dirs[i], name) != 0 || access(cand, F_OK) != 0)
            continue;
        if (!realpath(cand, real) || !inside(real, w->folder))
            return refuse(w->r, from, line, "includes %s, a link that leads out of the "
                          "submission's folder", shown);
        return is_file(real) && depth < MAX_DEPTH ? check_file(w, cand, depth + 1) : 0;
    }
    for (const char *const *d = w->header_dirs; quoted && d && *d; d++)
        if (path_join(cand, sizeof cand, *d, name) == 0 && is_file(cand))
            return 0;
    if (!quoted)
        return 0;
    return refuse(w->r, from, line, "includes %s, which is neither in the submission's folder "
                  "nor one of the lab's headers (a system header is written <%.300s>)",
                  shown, name);
}

/* The include-like directive whose operand starts at j (line end at end). */
static int check_include(walk_t *w, const char *path, const lex_text_t *t, const char *directive,
                         size_t j, size_t end, int line, int depth)
{
    if (strcmp(directive, "embed") == 0)
        return refuse(w->r, path, line, "embeds a file's bytes (#embed)");
    char open = j < end ? t->c[j] : 0, close = open == '"' ? '"' : open == '<' ? '>' : 0;
    const char *stop = close && j + 1 < end ? memchr(t->c + j + 1, close, end - j - 1) : NULL;
    if (!stop) {
        int n = (int)(end - j < 80 ? end - j : 80);
        return refuse(w->r, path, line, "includes a computed name (#%s %.*s): only #%s \"file\" "
                      "or #%s <file> is allowed", directive, n, t->c + j, directive, directive);
    }
    char name[PATH_MAX];
    snprintf(name, sizeof name, "%.*s", (int)(stop - t->c - (long)j - 1), t->c + j + 1);
    return name[0] ? check_name(w, path, line, name, open == '"', depth) : 0;
}

/* #include, #include_next, #import and #embed lines ('#' or "%:"). */
static int check_directives(walk_t *w, const char *path, const lex_text_t *t, int depth)
{
    for (size_t i = 0, end; i < t->n; i = end + 1) {
        end = lex_line_end(t, i);
        size_t j = skip_blanks(t, i, end), hash = j;
        if (j >= end || t->kind[j] != LEX_CODE)
            continue;
        if (t->c[j] == '#')
            j++;
        else if (j + 1 < end && t->c[j] == '%' && t->c[j + 1] == ':')
            j += 2;
        else
            continue;
        j = skip_blanks(t, j, end);
        char name[16];
        size_t k = 0;
        while (j < end && k < sizeof name - 1 && lex_is_ident(t->c[j]))
            name[k++] = t->c[j++];
        name[k] = '\0';
        if ((j < end && lex_is_ident(t->c[j])) ||
            (strcmp(name, "include") && strcmp(name, "include_next") && strcmp(name, "import") &&
             strcmp(name, "embed")))
            continue;
        int rc = check_include(w, path, t, name, skip_blanks(t, j, end), end, t->line[hash], depth);
        if (rc)
            return rc;
    }
    return 0;
}

/* The identifier at i is word (whole, in code). */
static int word_at(const lex_text_t *t, size_t i, const char *word)
{
    size_t n = strlen(word);
    if (t->kind[i] != LEX_CODE || (i > 0 && lex_is_ident(t->c[i - 1])) || i + n > t->n ||
        strncmp(t->c + i, word, n) != 0)
        return 0;
    return !(i + n < t->n && lex_is_ident(t->c[i + n]));
}

/* The operand of a __has_include probe at i, after its name, on the same
 * line: ("file") or (<file>), the name neither absolute nor with "..",
 * followed when it is in the submission's folder; a name the probe does not
 * find is no read. */
static int check_probe(walk_t *w, const char *path, const lex_text_t *t, const char *probe,
                       size_t i, int depth)
{
    int line = t->line[i];
    size_t j = skip_blanks(t, i + strlen(probe), t->n);
    char open = 0, close = 0;
    if (j < t->n && t->c[j] == '(') {
        j = skip_blanks(t, j + 1, t->n);
        open = j < t->n ? t->c[j] : 0;
        close = open == '"' ? '"' : open == '<' ? '>' : 0;
    }
    const char *stop = close ? memchr(t->c + j + 1, close, t->n - j - 1) : NULL;
    size_t after = stop ? skip_blanks(t, (size_t)(stop - t->c) + 1, t->n) : t->n;
    if (!stop || memchr(t->c + j, '\n', (size_t)(stop - t->c) - j) || after >= t->n ||
        t->c[after] != ')')
        return refuse(w->r, path, line, "uses %s other than as %s(\"file\") or %s(<file>): the "
                      "name it probes must be written out", probe, probe, probe);
    char name[PATH_MAX], shown[320];
    snprintf(name, sizeof name, "%.*s", (int)(stop - t->c - (long)j - 1), t->c + j + 1);
    snprintf(shown, sizeof shown, "%c%.300s%c", open, name, close);
    if (name[0] == '/')
        return refuse(w->r, path, line, "probes %s by an absolute path (%s)", shown, probe);
    if (has_dotdot(name))
        return refuse(w->r, path, line, "probes %s by a path with \"..\" (%s)", shown, probe);
    char dir[PATH_MAX], cand[PATH_MAX], real[PATH_MAX];
    path_dir(path, dir, sizeof dir);
    if (path_join(cand, sizeof cand, open == '"' ? dir : w->folder, name) != 0 ||
        access(cand, F_OK) != 0)
        return 0;
    if (!realpath(cand, real) || !inside(real, w->folder))
        return refuse(w->r, path, line, "probes %s, a link that leads out of the submission's "
                      "folder (%s)", shown, probe);
    return is_file(real) && depth < MAX_DEPTH ? check_file(w, cand, depth + 1) : 0;
}

/* The word that ends just before i, blanks (and one '(' with for_paren)
 * skipped, is word. */
static int word_before(const lex_text_t *t, size_t i, const char *word, int for_paren)
{
    while (i > 0 && strchr(" \t\r\f\v", t->c[i - 1]))
        i--;
    if (for_paren && i > 0 && t->c[i - 1] == '(')
        for (i--; i > 0 && strchr(" \t\r\f\v", t->c[i - 1]);)
            i--;
    size_t n = strlen(word);
    return i >= n && t->kind[i - n] == LEX_CODE && strncmp(t->c + i - n, word, n) == 0 &&
           !(i > n && lex_is_ident(t->c[i - n - 1]));
}

/* `defined __has_include`, `defined(__has_include)`, `#ifdef __has_include`:
 * whether the compiler has it, no probe. */
static int asks_if_defined(const lex_text_t *t, size_t i)
{
    return word_before(t, i, "defined", 1) || word_before(t, i, "ifdef", 0) ||
           word_before(t, i, "ifndef", 0);
}

/* __has_include and __has_include_next, anywhere in code: what a file's
 * existence could tell at compile time is the submission's own folder's. */
static int check_probes(walk_t *w, const char *path, const lex_text_t *t, int depth)
{
    static const char *const probes[] = {"__has_include_next", "__has_include"};
    for (size_t i = 0; i < t->n; i++)
        for (size_t k = 0; k < 2; k++)
            if (word_at(t, i, probes[k])) {
                size_t next = skip_blanks(t, i + strlen(probes[k]), t->n);
                int only_asks = asks_if_defined(t, i) && !(next < t->n && t->c[next] == '(');
                int rc = only_asks ? 0 : check_probe(w, path, t, probes[k], i, depth);
                if (rc)
                    return rc;
                break;
            }
    return 0;
}

static int check_file(walk_t *w, const char *path, int depth)
{
    char real[PATH_MAX], err[300];
    struct stat st;
    if (!realpath(path, real) || stat(real, &st) != 0) {
        snprintf(w->r->what, sizeof w->r->what, "cannot read %.600s", path);
        return -1;
    }
    for (int i = 0; i < w->nseen; i++)
        if (strcmp(w->seen[i], real) == 0)
            return 0;
    if (w->nseen == MAX_FILES)
        return refuse(w->r, path, 0, "includes more than %d files of its own", MAX_FILES);
    w->seen[w->nseen++] = strdup(real);
    if ((size_t)st.st_size > MAX_SOURCE_BYTES)
        return refuse(w->r, path, 0, "has a source file larger than %u MiB",
                      MAX_SOURCE_BYTES >> 20);
    size_t len = 0;
    char *text = read_file(real, &len, err, sizeof err);
    lex_text_t t;
    if (!text || lex_source(text, len, &t) != 0) {
        snprintf(w->r->what, sizeof w->r->what, "cannot read %.400s: %s", path,
                 text ? "out of memory" : err);
        free(text);
        return -1;
    }
    free(text);
    size_t which = 0;
    int rc = check_directives(w, path, &t, depth);
    if (!rc)
        rc = check_probes(w, path, &t, depth);
    long hit = rc ? -1 : find_needle(&t, &which);
    if (hit >= 0)
        rc = refuse(w->r, path, t.line[hit], "has %s, in a string literal (\"%s\" once adjacent "
                    "literals are joined)", needles[which][1], needles[which][0]);
    lex_free(&t);
    return rc;
}

int srccheck_source(const char *src, const char *const *header_dirs, srccheck_result_t *r)
{
    memset(r, 0, sizeof *r);
    walk_t w = {.header_dirs = header_dirs, .r = r};
    char dir[PATH_MAX];
    path_dir(src, dir, sizeof dir);
    if (!realpath(dir, w.folder)) {
        snprintf(r->what, sizeof r->what, "cannot resolve the folder %.600s", dir);
        return -1;
    }
    int rc = check_file(&w, src, 0);
    for (int i = 0; i < w.nseen; i++)
        free(w.seen[i]);
    return rc;
}

/* ---- the preprocessed output -------------------------------------------- */

#define MAX_NAMES 4096

typedef struct {
    size_t at; /* the output line of the marker */
    int line;  /* the source line of the output line after it */
    int file;  /* index into names */
} marker_t;

typedef struct {
    char *names[MAX_NAMES]; /* the files the markers name */
    char ok[MAX_NAMES];     /* each may be read */
    int nnames;
    marker_t *m;
    size_t nm, cap;
    char *dirs[3][MAX_DIRS + 1]; /* allowed, root, system: resolved */
} markers_t;

/* A line marker, "# 12 \"file\" 1 3" (or "#line 12 \"file\""), from s to
 * end: its line and file; 0 if it is not one. */
static int parse_marker(const char *s, const char *end, int *line, char *file, size_t filelen)
{
    if (*s++ != '#')
        return 0;
    if (strncmp(s, "line", 4) == 0)
        s += 4;
    char *after;
    long n = strtol(s, &after, 10);
    if (after == s || after + 1 >= end || after[0] != ' ' || after[1] != '"')
        return 0;
    size_t k = 0;
    for (s = after + 2; s < end && *s != '"' && k + 1 < filelen; s++) {
        if (*s == '\\' && s + 3 < end && s[1] >= '0' && s[1] <= '3') { /* \ooo */
            file[k++] = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
            s += 3;
        } else {
            file[k++] = *s == '\\' && s + 1 < end ? *++s : *s;
        }
    }
    file[k] = '\0';
    *line = (int)n;
    return 1;
}

static int file_allowed(const markers_t *ms, const char *name)
{
    char real[PATH_MAX];
    size_t n = strlen(name);
    /* <built-in>; "/cwd//", the working directory (-g); a compiler's temporary, gone */
    if (name[0] == '<' || (n > 2 && strcmp(name + n - 2, "//") == 0) || !realpath(name, real))
        return 1;
    for (int i = 0; ms->dirs[0][i]; i++)
        if (inside(real, ms->dirs[0][i]))
            return 1;
    if (ms->dirs[1][0] && inside(real, ms->dirs[1][0]))
        return 0;
    for (int i = 0; ms->dirs[2][i]; i++)
        if (inside(real, ms->dirs[2][i]))
            return 1;
    return 0;
}

/* The index of name in ms->names (added, and judged, if new); -1 if full. */
static int intern(markers_t *ms, const char *name)
{
    for (int i = ms->nnames - 1; i >= 0; i--)
        if (strcmp(ms->names[i], name) == 0)
            return i;
    if (ms->nnames == MAX_NAMES || !(ms->names[ms->nnames] = strdup(name)))
        return -1;
    ms->ok[ms->nnames] = (char)file_allowed(ms, name);
    return ms->nnames++;
}

/* The file and line output line out came from. */
static void source_of(const markers_t *ms, size_t out, const char **file, int *line)
{
    size_t lo = 0, hi = ms->nm; /* the last marker before out */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ms->m[mid].at < out)
            lo = mid + 1;
        else
            hi = mid;
    }
    *file = lo ? ms->names[ms->m[lo - 1].file] : "(preprocessed submission)";
    *line = lo ? ms->m[lo - 1].line + (int)(out - ms->m[lo - 1].at - 1) : (int)out;
}

static int add_marker(markers_t *ms, size_t at, int line, int file)
{
    if (ms->nm == ms->cap) {
        size_t cap = ms->cap ? 2 * ms->cap : 1024;
        marker_t *m = realloc(ms->m, cap * sizeof *m);
        if (!m)
            return -1;
        ms->m = m;
        ms->cap = cap;
    }
    ms->m[ms->nm++] = (marker_t){at, line, file};
    return 0;
}

/* Reads the line markers of text (and blanks them, so that literals on
 * either side stay adjacent); refuses the first file that may not be read. */
static int read_markers(markers_t *ms, char *text, size_t len, srccheck_result_t *r)
{
    char file[PATH_MAX];
    size_t out = 1;
    for (char *p = text, *end; p < text + len; p = end + 1, out++) {
        end = memchr(p, '\n', (size_t)(text + len - p));
        end = end ? end : text + len;
        int line, id;
        if (*p != '#' || !parse_marker(p, end, &line, file, sizeof file))
            continue;
        if ((id = intern(ms, file)) < 0)
            return -1;
        if (!ms->ok[id]) { /* refused where the directive was: the line before this marker */
            const char *from;
            source_of(ms, out, &from, &line);
            return refuse(r, from, line, "includes %.600s, which is neither in its folder nor "
                          "one of the lab's, the toolchain's or the system's headers", file);
        }
        if (add_marker(ms, out, line, id) != 0)
            return -1;
        memset(p, ' ', (size_t)(end - p));
    }
    return 0;
}

static void resolve_dirs(markers_t *ms, const srccheck_dirs_t *d)
{
    const char *root[] = {d->root, NULL};
    const char *const *lists[3] = {d->allowed, root, d->system};
    for (int l = 0; l < 3; l++)
        for (int i = 0, k = 0; lists[l] && lists[l][i] && k < MAX_DIRS; i++)
            if ((ms->dirs[l][k] = realpath(lists[l][i], NULL)))
                k++;
}

static void markers_free(markers_t *ms)
{
    for (int i = 0; i < ms->nnames; i++)
        free(ms->names[i]);
    for (int l = 0; l < 3; l++)
        for (int i = 0; ms->dirs[l][i]; i++)
            free(ms->dirs[l][i]);
    free(ms->m);
    free(ms);
}

int srccheck_expanded(const char *text, size_t len, const srccheck_dirs_t *dirs,
                      srccheck_result_t *r)
{
    memset(r, 0, sizeof *r);
    markers_t *ms = calloc(1, sizeof *ms);
    char *copy = ms ? malloc(len + 1) : NULL;
    if (!copy) {
        free(ms);
        return -1;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    resolve_dirs(ms, dirs);
    int rc = read_markers(ms, copy, len, r), lexed = 0;
    lex_text_t t;
    if (rc == 0 && !(lexed = lex_source(copy, len, &t) == 0))
        rc = -1;
    size_t which = 0;
    long hit = lexed ? find_needle(&t, &which) : -1;
    if (hit >= 0) {
        const char *file;
        int line;
        source_of(ms, (size_t)t.line[hit], &file, &line);
        rc = refuse(r, file, line, "has %s, in a string literal once macros are expanded (\"%s\")",
                    needles[which][1], needles[which][0]);
    }
    if (lexed)
        lex_free(&t);
    free(copy);
    markers_free(ms);
    if (rc < 0)
        snprintf(r->what, sizeof r->what, "out of memory checking the preprocessed submission");
    return rc;
}
