/* trace.c - reads and checks a launch record (trace.h): every id alive
 * where it is used, every range inside its allocation and the byte file,
 * so that a runner can do the record's steps without checking them again. */
#include "replay/trace.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_IDS 1000000u
#define MAX_OPS 4000000
#define MAX_LINE (2 * TRACE_MAX_ARG_BYTES + 64 * 32 + 256)

typedef struct {
    const char *path;
    int line;
    char *err;
    size_t errlen;
    uint64_t *sizes; /* by id; 0: never allocated */
    uint8_t *alive;  /* by id */
    uint32_t cap;
} reader_t;

__attribute__((format(printf, 2, 3))) static int bad(reader_t *r, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(r->err, r->errlen, "%s:%d: %s", r->path, r->line, what);
    return -1;
}

/* The next space-separated word of *s as an unsigned number at most max. */
static int number(char **s, uint64_t max, uint64_t *v)
{
    char *p = *s;
    while (*p == ' ')
        p++;
    if (!isdigit((unsigned char)*p))
        return -1;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(p, &end, 10);
    if (errno || x > max || (*end != ' ' && *end != '\0' && *end != '=' && *end != '+'))
        return -1;
    *v = x;
    *s = end;
    return 0;
}

static int numbers(reader_t *r, char **s, int n, const uint64_t *max, uint64_t *out, const char *what)
{
    for (int i = 0; i < n; i++)
        if (number(s, max[i], &out[i]) != 0)
            return bad(r, "%s: number %d is missing or out of range", what, i + 1);
    return 0;
}

static int word(char **s, char *out, size_t cap)
{
    char *p = *s;
    while (*p == ' ')
        p++;
    size_t n = strcspn(p, " ");
    if (n == 0 || n >= cap)
        return -1;
    memcpy(out, p, n);
    out[n] = '\0';
    *s = p + n;
    return 0;
}

static int at_end(char *s)
{
    while (*s == ' ')
        s++;
    return *s == '\0';
}

/* id must name an allocation alive now, and [offset, offset + n) lie in it. */
static int inside(reader_t *r, uint64_t id, uint64_t offset, uint64_t n, const char *what)
{
    if (id == 0 || id >= r->cap || !r->alive[id])
        return bad(r, "%s names allocation %llu, which is not allocated", what, (unsigned long long)id);
    if (offset > r->sizes[id] || n > r->sizes[id] - offset)
        return bad(r, "%s: %llu bytes at offset %llu lie outside allocation %llu (%llu bytes)", what,
                    (unsigned long long)n, (unsigned long long)offset, (unsigned long long)id,
                    (unsigned long long)r->sizes[id]);
    return 0;
}

static int grow_ids(reader_t *r, uint64_t id)
{
    if (id < r->cap)
        return 0;
    uint32_t cap = r->cap ? r->cap : 64;
    while (cap <= id)
        cap *= 2;
    uint64_t *s = realloc(r->sizes, cap * sizeof *s);
    if (s)
        r->sizes = s;
    uint8_t *a = realloc(r->alive, cap);
    if (a)
        r->alive = a;
    if (!s || !a)
        return bad(r, "out of memory");
    memset(r->sizes + r->cap, 0, (cap - r->cap) * sizeof *s);
    memset(r->alive + r->cap, 0, cap - r->cap);
    r->cap = cap;
    return 0;
}

static int hex_byte(const char *p)
{
    int v = 0;
    for (int i = 0; i < 2; i++) {
        int c = (unsigned char)p[i], d = isdigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* "arg SIZE HEX [AT=ID+OFFSET ...]" into a. */
static int parse_arg(reader_t *r, char *s, trace_arg_t *a)
{
    uint64_t size;
    if (strncmp(s, "arg ", 4) != 0)
        return bad(r, "a launch's argument line (arg SIZE HEX ...) expected");
    s += 4;
    if (number(&s, TRACE_MAX_ARG_BYTES, &size) != 0 || size == 0)
        return bad(r, "arg: its size is missing or above %d bytes", TRACE_MAX_ARG_BYTES);
    while (*s == ' ')
        s++;
    a->size = (uint32_t)size;
    a->bytes = malloc(size);
    if (!a->bytes)
        return bad(r, "out of memory");
    for (uint64_t i = 0; i < size; i++) {
        int b = hex_byte(s + 2 * i);
        if (b < 0)
            return bad(r, "arg: %llu bytes of lowercase hex expected", (unsigned long long)size);
        a->bytes[i] = (uint8_t)b;
    }
    s += 2 * size;
    while (!at_end(s)) {
        uint64_t at, id, off;
        if (number(&s, size, &at) != 0 || *s++ != '=' || number(&s, MAX_IDS, &id) != 0 || *s++ != '+' ||
            number(&s, UINT64_MAX, &off) != 0 || at % 8 || at + 8 > size)
            return bad(r, "arg: a pointer (AT=ID+OFFSET, AT a multiple of 8 inside the argument) expected");
        if (inside(r, id, off, 0, "arg") != 0)
            return -1;
        trace_reloc_t *rl = realloc(a->relocs, (size_t)(a->nrelocs + 1) * sizeof *rl);
        if (!rl)
            return bad(r, "out of memory");
        a->relocs = rl;
        a->relocs[a->nrelocs++] = (trace_reloc_t){(uint32_t)at, (uint32_t)id, off};
    }
    return 0;
}

static int valid_kernel_name(const char *k)
{
    for (; *k; k++)
        if (!isalnum((unsigned char)*k) && *k != '_' && *k != '$' && *k != '.')
            return 0;
    return 1;
}

/* One step's line (its first word already read into verb) into op. */
static int parse_op(reader_t *r, trace_t *t, const char *verb, char *s, uint64_t blob_size, trace_op_t *op)
{
    uint64_t v[9];
    static const uint64_t big[5] = {MAX_IDS, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX};
    memset(op, 0, sizeof *op);
    op->line = r->line;
    if (strcmp(verb, "alloc") == 0) {
        if (numbers(r, &s, 2, big, v, verb) != 0)
            return -1;
        if (v[0] == 0 || v[0] <= t->max_id)
            return bad(r, "alloc: allocation %llu is not the next number", (unsigned long long)v[0]);
        if (v[1] == 0 || v[1] > (64ull << 30))
            return bad(r, "alloc: %llu bytes (1 byte to 64 GiB)", (unsigned long long)v[1]);
        if (grow_ids(r, v[0]) != 0)
            return -1;
        t->max_id = (uint32_t)v[0];
        r->sizes[v[0]] = v[1], r->alive[v[0]] = 1;
        *op = (trace_op_t){.kind = TRACE_ALLOC, .line = r->line, .id = (uint32_t)v[0], .bytes = v[1]};
    } else if (strcmp(verb, "global") == 0) {
        char name[1024];
        if (numbers(r, &s, 2, big, v, verb) != 0)
            return -1;
        if (v[0] == 0 || v[0] <= t->max_id)
            return bad(r, "global: allocation %llu is not the next number", (unsigned long long)v[0]);
        if (v[1] == 0 || v[1] > (64ull << 20))
            return bad(r, "global: %llu bytes (1 byte to 64 MiB)", (unsigned long long)v[1]);
        if (word(&s, name, sizeof name) != 0 || !valid_kernel_name(name) || !at_end(s))
            return bad(r, "global: a variable's name expected, and nothing after it");
        if (grow_ids(r, v[0]) != 0)
            return -1;
        t->max_id = (uint32_t)v[0];
        r->sizes[v[0]] = v[1], r->alive[v[0]] = 1;
        *op = (trace_op_t){.kind = TRACE_GLOBAL, .line = r->line, .id = (uint32_t)v[0], .bytes = v[1],
                           .kernel = strdup(name)};
        if (!op->kernel)
            return bad(r, "out of memory");
    } else if (strcmp(verb, "free") == 0) {
        if (numbers(r, &s, 1, big, v, verb) != 0 || inside(r, v[0], 0, 0, verb) != 0)
            return -1;
        r->alive[v[0]] = 0;
        *op = (trace_op_t){.kind = TRACE_FREE, .line = r->line, .id = (uint32_t)v[0]};
    } else if (strcmp(verb, "load") == 0 || strcmp(verb, "load-int") == 0) {
        static const uint64_t max[4] = {MAX_IDS, UINT64_MAX, TRACE_MAX_INPUTS - 1, UINT64_MAX};
        if (numbers(r, &s, 4, max, v, verb) != 0 || inside(r, v[0], v[1], v[3], verb) != 0)
            return -1;
        *op = (trace_op_t){.kind = TRACE_LOAD, .line = r->line, .id = (uint32_t)v[0], .offset = v[1],
                           .input = (int)v[2], .bytes = v[3], .value = strcmp(verb, "load-int") == 0};
        if (op->input + 1 > t->ninputs)
            t->ninputs = op->input + 1;
    } else if (strcmp(verb, "copy") == 0) {
        if (numbers(r, &s, 4, big, v, verb) != 0 || inside(r, v[0], v[1], v[2], verb) != 0)
            return -1;
        if (v[3] > blob_size || v[2] > blob_size - v[3])
            return bad(r, "copy: bytes %llu..%llu lie outside the byte file (%llu bytes)",
                        (unsigned long long)v[3], (unsigned long long)(v[3] + v[2]),
                        (unsigned long long)blob_size);
        *op = (trace_op_t){.kind = TRACE_COPY, .line = r->line, .id = (uint32_t)v[0], .offset = v[1],
                           .bytes = v[2], .at = v[3]};
    } else if (strcmp(verb, "memset") == 0) {
        static const uint64_t max[4] = {MAX_IDS, UINT64_MAX, 255, UINT64_MAX};
        if (numbers(r, &s, 4, max, v, verb) != 0 || inside(r, v[0], v[1], v[3], verb) != 0)
            return -1;
        *op = (trace_op_t){.kind = TRACE_MEMSET, .line = r->line, .id = (uint32_t)v[0], .offset = v[1],
                           .value = (int)v[2], .bytes = v[3]};
    } else if (strcmp(verb, "read") == 0) {
        if (numbers(r, &s, 3, big, v, verb) != 0 || inside(r, v[0], v[1], v[2], verb) != 0)
            return -1;
        *op = (trace_op_t){.kind = TRACE_READ, .line = r->line, .id = (uint32_t)v[0], .offset = v[1],
                           .bytes = v[2]};
        t->nreads++;
    } else
        return bad(r, "unknown step '%s'", verb);
    if (!at_end(s))
        return bad(r, "%s: more on the line than it takes", verb);
    return 0;
}

static int parse_launch(reader_t *r, char *s, trace_op_t *op)
{
    char kernel[1024];
    uint64_t v[8];
    static const uint64_t max[8] = {0x7fffffffu, 65535, 65535, 1024, 1024, 64, 1u << 20, TRACE_MAX_ARGS};
    memset(op, 0, sizeof *op);
    op->kind = TRACE_LAUNCH, op->line = r->line;
    if (word(&s, kernel, sizeof kernel) != 0 || !valid_kernel_name(kernel))
        return bad(r, "launch: a kernel's (mangled) name expected");
    if (numbers(r, &s, 8, max, v, "launch") != 0)
        return -1;
    if (!at_end(s))
        return bad(r, "launch: more on the line than it takes");
    for (int i = 0; i < 3; i++)
        if (v[i] == 0 || v[3 + i] == 0)
            return bad(r, "launch: a grid or block dimension of 0");
    op->kernel = strdup(kernel);
    if (!op->kernel)
        return bad(r, "out of memory");
    for (int i = 0; i < 3; i++)
        op->grid[i] = (uint32_t)v[i], op->block[i] = (uint32_t)v[3 + i];
    op->shared = v[6];
    op->nargs = (int)v[7];
    op->args = calloc(op->nargs ? (size_t)op->nargs : 1, sizeof *op->args);
    return op->args ? 0 : bad(r, "out of memory");
}

static int parse_output(reader_t *r, trace_t *t, char *s, int from_reads)
{
    uint64_t v[4];
    char shape[16];
    static const uint64_t max[4] = {UINT64_MAX, UINT64_MAX, 1u << 30, 1u << 30};
    if (t->output.present)
        return bad(r, "a second output");
    char type[8] = "";
    if (numbers(r, &s, 4, max, v, "output") != 0 || word(&s, shape, sizeof shape) != 0 ||
        (strcmp(shape, "matrix") != 0 && strcmp(shape, "vector") != 0) ||
        (!at_end(s) && (word(&s, type, sizeof type) != 0 || strcmp(type, "int") != 0 || !at_end(s))))
        return bad(r, "output: ... ROWS COLS matrix|vector [int] expected");
    trace_output_t *o = &t->output;
    *o = (trace_output_t){.present = 1, .from_reads = from_reads, .op = t->nops, .rows = (int)v[2],
                          .cols = (int)v[3], .vector = strcmp(shape, "vector") == 0, .is_int = type[0] != 0};
    uint64_t n = trace_output_bytes(t);
    if (from_reads) {
        o->first = v[0], o->count = v[1];
        if (v[1] == 0 || v[0] > t->nreads || v[1] > t->nreads - v[0])
            return bad(r, "output-read: reads %llu..+%llu were not recorded", (unsigned long long)v[0],
                        (unsigned long long)v[1]);
        uint64_t bytes = 0;
        for (int i = 0, k = 0; i < t->nops; i++)
            if (t->ops[i].kind == TRACE_READ && (uint64_t)k++ - o->first < o->count)
                bytes += t->ops[i].bytes;
        if (bytes != n)
            return bad(r, "output-read: the reads hold %llu bytes, not the %llu of %d x %d floats",
                        (unsigned long long)bytes, (unsigned long long)n, o->rows, o->cols);
        return 0;
    }
    if (inside(r, v[0], v[1], n, "output") != 0)
        return -1;
    o->id = (uint32_t)v[0], o->offset = v[1];
    return 0;
}

static int push_op(reader_t *r, trace_t *t, int *cap)
{
    if (t->nops >= MAX_OPS)
        return bad(r, "more than %d steps", MAX_OPS);
    if (t->nops == *cap) {
        int c = *cap ? *cap * 2 : 64;
        trace_op_t *ops = realloc(t->ops, (size_t)c * sizeof *ops);
        if (!ops)
            return bad(r, "out of memory");
        t->ops = ops, *cap = c;
    }
    return 0;
}

/* Every line after the first, into t. */
static int parse_lines(reader_t *r, FILE *f, trace_t *t, uint64_t blob_size)
{
    char *line = NULL;
    size_t cap = 0;
    int opcap = 0, ended = 0, rc = -1, args_left = 0;
    trace_op_t *launch = NULL;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) >= 0) {
        r->line++;
        if (n > 0 && line[n - 1] == '\n')
            line[--n] = '\0';
        if (ended) {
            bad(r, "a line after \"end\"");
            goto out;
        }
        if (n > MAX_LINE) {
            bad(r, "a line of %zd characters", n);
            goto out;
        }
        if (args_left > 0) { /* the launch's next argument */
            if (parse_arg(r, line, &launch->args[launch->nargs - args_left]) != 0)
                goto out;
            args_left--;
            continue;
        }
        char verb[32], *s = line;
        if (word(&s, verb, sizeof verb) != 0) {
            bad(r, "an empty line");
            goto out;
        }
        if (strcmp(verb, "end") == 0) {
            ended = 1;
            continue;
        }
        if (strcmp(verb, "unreplayable") == 0) {
            snprintf(t->unreplayable, sizeof t->unreplayable, "%s", s + (*s == ' '));
            continue;
        }
        if (strcmp(verb, "output") == 0 || strcmp(verb, "output-read") == 0) {
            if (parse_output(r, t, s, verb[6] == '-') != 0)
                goto out;
            continue;
        }
        if (push_op(r, t, &opcap) != 0)
            goto out;
        trace_op_t *op = &t->ops[t->nops];
        int bad = strcmp(verb, "launch") == 0 ? parse_launch(r, s, op) : parse_op(r, t, verb, s, blob_size, op);
        t->nops++; /* kept even when bad: trace_free frees what it holds */
        if (bad)
            goto out;
        if (op->kind == TRACE_LAUNCH)
            launch = op, args_left = op->nargs;
    }
    if (args_left > 0)
        bad(r, "the file ends inside a launch's arguments");
    else if (!ended)
        bad(r, "the file ends before its \"end\" line: cut short");
    else if (!t->output.present && !t->unreplayable[0])
        bad(r, "no output line");
    else
        rc = 0;
out:
    free(line);
    return rc;
}

int trace_read(const char *path, uint64_t blob_size, trace_t *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    reader_t r = {.path = path, .err = err, .errlen = errlen};
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char head[32] = "";
    r.line = 1;
    int rc = (!fgets(head, sizeof head, f) || strcmp(head, "cugrade-trace 1\n") != 0)
                 ? bad(&r, "not a launch record (\"cugrade-trace 1\" expected)")
                 : parse_lines(&r, f, t, blob_size);
    fclose(f);
    free(r.sizes);
    free(r.alive);
    if (rc != 0)
        trace_free(t);
    return rc;
}

void trace_free(trace_t *t)
{
    for (int i = 0; i < t->nops; i++) {
        trace_op_t *op = &t->ops[i];
        for (int k = 0; op->kind == TRACE_LAUNCH && k < op->nargs; k++) {
            free(op->args[k].bytes);
            free(op->args[k].relocs);
        }
        free(op->args);
        free(op->kernel);
    }
    free(t->ops);
    memset(t, 0, sizeof *t);
}

int trace_load(const char *path, trace_t *t, char **blob, char *err, size_t errlen)
{
    char bytes_path[4096];
    size_t size = 0;
    snprintf(bytes_path, sizeof bytes_path, "%s.bytes", path);
    *blob = read_file(bytes_path, &size, err, errlen);
    if (*blob && trace_read(path, size, t, err, errlen) == 0)
        return 0;
    free(*blob);
    *blob = NULL;
    return -1;
}
