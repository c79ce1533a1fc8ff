/* replay.c - a launch record's steps done on a device (replay.h): one
 * walk of the record for every device that replays it. */
#include "replay/replay.h"
#include "replay/replay_io.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const trace_t *t;
    const uint8_t *blob;
    const char *inputs_dir;
    const replay_device_t *dev;
    uint64_t *addr;     /* by allocation id */
    uint8_t *global;    /* by allocation id: 1 for a module's variable (never released) */
    matrix_t inputs[TRACE_MAX_INPUTS];
    uint8_t *output;    /* the output's bytes, as captured */
    uint64_t output_at; /* bytes of it captured so far */
    uint64_t reads;     /* reads done so far */
    char *err;
    size_t errlen;
} walk_t;

__attribute__((format(printf, 3, 4))) static int fail_at(walk_t *w, const trace_op_t *op, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (op)
        snprintf(w->err, w->errlen, "line %d: %s", op->line, what);
    else
        snprintf(w->err, w->errlen, "%s", what);
    return 2;
}

static int input_of(walk_t *w, const trace_op_t *op, const matrix_t **m)
{
    matrix_t *in = &w->inputs[op->input];
    if (!in->data) {
        char e[512];
        if (!w->inputs_dir)
            return fail_at(w, op, "the record loads input %d and no dataset folder was given", op->input);
        if (replay_read_input(w->inputs_dir, op->input, in, e, sizeof e) != 0)
            return fail_at(w, op, "%s", e);
    }
    uint64_t have = (uint64_t)in->rows * (uint64_t)in->cols * sizeof(float);
    if (have != op->bytes)
        return fail_at(w, op, "input %d has %llu bytes where the record loaded %llu: another dataset",
                       op->input, (unsigned long long)have, (unsigned long long)op->bytes);
    *m = in;
    return 0;
}

/* The launch's arguments, their pointers made the device's addresses. */
static int launch(walk_t *w, const trace_op_t *op)
{
    void *args[TRACE_MAX_ARGS];
    uint8_t *values = malloc((size_t)op->nargs * TRACE_MAX_ARG_BYTES + 1);
    if (!values)
        return fail_at(w, op, "out of memory");
    for (int i = 0; i < op->nargs; i++) {
        const trace_arg_t *a = &op->args[i];
        uint8_t *v = values + (size_t)i * TRACE_MAX_ARG_BYTES;
        memcpy(v, a->bytes, a->size);
        for (int k = 0; k < a->nrelocs; k++) {
            uint64_t p = w->addr[a->relocs[k].id] + a->relocs[k].offset;
            memcpy(v + a->relocs[k].at, &p, sizeof p);
        }
        args[i] = v;
    }
    char e[512] = "";
    int rc = w->dev->launch(w->dev->self, op, args, e, sizeof e);
    free(values);
    if (rc == 1) {
        snprintf(w->err, w->errlen, "%s failed: %s", op->kernel, e);
        return 1;
    }
    return rc ? fail_at(w, op, "%s: %s", op->kernel, e) : 0;
}

/* The output's bytes from device memory, where the record's output line was. */
static int capture(walk_t *w, const trace_op_t *op)
{
    const trace_output_t *o = &w->t->output;
    char e[512];
    if (w->dev->from_device(w->dev->self, w->output, w->addr[o->id] + o->offset, trace_output_bytes(w->t), e,
                            sizeof e) != 0)
        return fail_at(w, op, "reading the output back: %s", e);
    w->output_at = trace_output_bytes(w->t);
    return 0;
}

static int step(walk_t *w, const trace_op_t *op)
{
    const replay_device_t *d = w->dev;
    char e[512];
    uint64_t at = op->kind == TRACE_ALLOC || op->kind == TRACE_GLOBAL || op->kind == TRACE_LAUNCH
                      ? 0
                      : w->addr[op->id] + op->offset;
    switch (op->kind) {
    case TRACE_GLOBAL:
        if (!d->global || d->global(d->self, op->kernel, op->bytes, &w->addr[op->id], e, sizeof e) != 0)
            return fail_at(w, op, "the module's variable %s: %s", op->kernel, d->global ? e : "no module here");
        w->global[op->id] = 1;
        return 0;
    case TRACE_ALLOC:
        if (d->alloc(d->self, op->bytes, &w->addr[op->id], e, sizeof e) != 0 ||
            d->fill(d->self, w->addr[op->id], 0xff, op->bytes, e, sizeof e) != 0) /* the poison */
            return fail_at(w, op, "%llu bytes of device memory: %s", (unsigned long long)op->bytes, e);
        return 0;
    case TRACE_FREE:
        if (w->global[op->id])
            return fail_at(w, op, "a module's variable is never freed");
        if (d->release(d->self, w->addr[op->id], e, sizeof e) != 0)
            return fail_at(w, op, "%s", e);
        w->addr[op->id] = 0;
        return 0;
    case TRACE_LOAD: {
        const matrix_t *m = NULL;
        int rc = input_of(w, op, &m);
        if (rc)
            return rc;
        int32_t *ints = NULL;
        if (op->value) { /* an int array: its values as 32-bit ints */
            size_t n = op->bytes / 4;
            if (!(ints = malloc(n * sizeof *ints + 1)))
                return fail_at(w, op, "out of memory");
            for (size_t k = 0; k < n; k++)
                ints[k] = (int32_t)m->data[k];
        }
        rc = d->to_device(d->self, at, ints ? (const void *)ints : m->data, op->bytes, e, sizeof e);
        free(ints);
        return rc ? fail_at(w, op, "%s", e) : 0;
    }
    case TRACE_COPY:
        return d->to_device(d->self, at, w->blob + op->at, op->bytes, e, sizeof e) ? fail_at(w, op, "%s", e) : 0;
    case TRACE_MEMSET:
        return d->fill(d->self, at, op->value, op->bytes, e, sizeof e) ? fail_at(w, op, "%s", e) : 0;
    case TRACE_LAUNCH:
        return launch(w, op);
    case TRACE_READ: { /* only the reads the output is made of are kept */
        const trace_output_t *o = &w->t->output;
        uint64_t k = w->reads++;
        if (!o->from_reads || k < o->first || k - o->first >= o->count)
            return 0;
        if (d->from_device(d->self, w->output + w->output_at, at, op->bytes, e, sizeof e) != 0)
            return fail_at(w, op, "%s", e);
        w->output_at += op->bytes;
        return 0;
    }
    }
    return fail_at(w, op, "unknown step");
}

int replay_run(const trace_t *t, const uint8_t *blob, const char *inputs_dir, const replay_device_t *dev,
               matrix_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    walk_t w = {.t = t, .blob = blob, .inputs_dir = inputs_dir, .dev = dev, .err = err, .errlen = errlen};
    if (t->unreplayable[0])
        return fail_at(&w, NULL, "the record cannot be replayed: %s", t->unreplayable);
    w.addr = calloc((size_t)t->max_id + 1, sizeof *w.addr);
    w.global = calloc((size_t)t->max_id + 1, 1);
    w.output = malloc(trace_output_bytes(t) + 1);
    int rc = !w.addr || !w.global || !w.output ? fail_at(&w, NULL, "out of memory") : 0;
    for (int i = 0; rc == 0 && i <= t->nops; i++) {
        if (!t->output.from_reads && t->output.op == i)
            rc = capture(&w, i < t->nops ? &t->ops[i] : NULL);
        if (rc == 0 && i < t->nops)
            rc = step(&w, &t->ops[i]);
    }
    if (rc == 0 && w.output_at != trace_output_bytes(t))
        rc = fail_at(&w, NULL, "the output was not all read back (%llu of %llu bytes)",
                     (unsigned long long)w.output_at, (unsigned long long)trace_output_bytes(t));
    for (int i = 0; i < TRACE_MAX_INPUTS; i++)
        matrix_free(&w.inputs[i]);
    char e[512];
    for (uint32_t id = 1; w.addr && w.global && id <= t->max_id; id++) /* what the program never freed */
        if (w.addr[id] && !w.global[id] && dev->release(dev->self, w.addr[id], e, sizeof e) != 0 && rc == 0)
            rc = fail_at(&w, NULL, "freeing allocation %u: %s", id, e);
    free(w.addr);
    free(w.global);
    if (rc != 0) {
        free(w.output);
        return rc;
    }
    *out = (matrix_t){t->output.rows, t->output.cols, (float *)w.output, t->output.vector};
    for (uint64_t k = 0; t->output.is_int && k < (uint64_t)out->rows * out->cols; k++) { /* ints as values */
        uint32_t bits;
        memcpy(&bits, &out->data[k], sizeof bits);
        if (bits != 0xFFFFFFFFu) /* the poison stays: never written */
            out->data[k] = (float)(int32_t)bits;
    }
    return 0;
}
