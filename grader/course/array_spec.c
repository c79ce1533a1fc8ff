/* array_spec.c - lab.json's "array" block and the launch function's
 * signature (array_spec.h). */
#include "course/array_spec.h"
#include "course/work_expr.h"
#include "util/util.h"

#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_identifier(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return 0;
    return 1;
}

/* The index of name among n names of stride size, or -1. */
static int index_of(const char *name, const char *names, size_t stride, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names + (size_t)i * stride, name) == 0)
            return i;
    return -1;
}

static int param_index(const array_spec_t *s, const char *name)
{
    return index_of(name, s->params[0], sizeof s->params[0], s->nparams);
}

static int input_index(const array_spec_t *s, const char *name)
{
    for (int i = 0; i < s->ninputs; i++)
        if (strcmp(s->inputs[i].name, name) == 0)
            return i;
    return -1;
}

static int output_index(const array_spec_t *s, const char *name)
{
    for (int i = 0; i < s->noutputs; i++)
        if (strcmp(s->outputs[i].name, name) == 0)
            return i;
    return -1;
}

/* "params": ["n"] or ["height", "width", "mask"] */
static int read_params(const cfg_t *c, json_object *obj, const char *where, array_spec_t *s)
{
    json_object *v = cfg_member(obj, "params");
    if (!v || !json_object_is_type(v, json_type_array) || json_object_array_length(v) < 1 ||
        json_object_array_length(v) > ARRAY_MAX_PARAMS)
        return cfg_fail(c, where, "params", "must be a list of 1 to %d names (a dataset's sizes, in the order "
                                            "its shape gives them: \"480x640x5\")", ARRAY_MAX_PARAMS);
    for (size_t i = 0; i < json_object_array_length(v); i++) {
        json_object *p = json_object_array_get_idx(v, i);
        const char *name = json_object_is_type(p, json_type_string) ? json_object_get_string(p) : "";
        if (!is_identifier(name) || strlen(name) >= ARRAY_NAME_MAX)
            return cfg_fail(c, where, "params", "entry %zu must be a C identifier (under %d characters)", i,
                            ARRAY_NAME_MAX);
        if (param_index(s, name) >= 0)
            return cfg_fail(c, where, "params", "'%s' is listed twice", name);
        snprintf(s->params[s->nparams++], ARRAY_NAME_MAX, "%s", name);
    }
    return 0;
}

/* "shape": ["n"], ["height", "width"] or [256] */
static int read_shape(const cfg_t *c, json_object *obj, const char *at, const array_spec_t *s, array_decl_t *d)
{
    json_object *v = cfg_member(obj, "shape");
    if (!v || !json_object_is_type(v, json_type_array) || json_object_array_length(v) < 1 ||
        json_object_array_length(v) > ARRAY_MAX_DIMS)
        return cfg_fail(c, at, "shape", "must be a list of 1 or %d sizes, each a param or a number", ARRAY_MAX_DIMS);
    for (size_t i = 0; i < json_object_array_length(v); i++) {
        json_object *e = json_object_array_get_idx(v, i);
        array_dim_t *dim = &d->dims[d->ndims++];
        double num;
        if (json_object_is_type(e, json_type_string)) { /* "n", or "rows+1" */
            char name[ARRAY_NAME_MAX + 16];
            snprintf(name, sizeof name, "%s", json_object_get_string(e));
            char *sign = strpbrk(name, "+-"), *end = NULL;
            dim->offset = sign ? strtol(sign, &end, 10) : 0;
            if (sign && (end == sign + 1 || *end || dim->offset < -16 || dim->offset > 16 || dim->offset == 0))
                return cfg_fail(c, at, "shape", "'%s': a param, or a param plus or minus 1 to 16", json_object_get_string(e));
            if (sign)
                *sign = '\0';
            dim->param = param_index(s, name);
            if (dim->param < 0)
                return cfg_fail(c, at, "shape", "'%s' is not one of the params", name);
        } else if (json_object_is_type(e, json_type_int) && cfg_number(e, &num) && num >= 1 && num <= (1 << 30)) {
            dim->param = -1, dim->value = (long)num;
        } else {
            return cfg_fail(c, at, "shape", "entry %zu must be a param's name or a whole number from 1", i);
        }
    }
    return 0;
}

static int read_type(const cfg_t *c, json_object *obj, const char *at, array_decl_t *d)
{
    char type[16] = "";
    if (cfg_string(c, obj, at, "type", type, sizeof type) < 0)
        return -1;
    if (strcmp(type, "float") == 0)
        d->type = ELEM_FLOAT;
    else if (strcmp(type, "int") == 0)
        d->type = ELEM_INT;
    else
        return cfg_fail(c, at, "type", "must be \"float\" or \"int\"%s%s%s", type[0] ? ", not '" : " (required)",
                        type, type[0] ? "'" : "");
    return 0;
}

/* "values": [lo, hi], an input's generated range */
static int read_values(const cfg_t *c, json_object *obj, const char *at, array_decl_t *d)
{
    json_object *v = cfg_member(obj, "values");
    if (!v || !json_object_is_type(v, json_type_array) || json_object_array_length(v) != 2 ||
        !cfg_number(json_object_array_get_idx(v, 0), &d->lo) || !cfg_number(json_object_array_get_idx(v, 1), &d->hi) ||
        !(d->lo <= d->hi))
        return cfg_fail(c, at, "values", "must be [lo, hi], the range of the generated values, lo <= hi");
    return 0;
}

static int read_arrays(const cfg_t *c, json_object *obj, const char *where, const char *key, int max,
                       array_spec_t *s, array_decl_t *decls, int *n)
{
    static const char *const input_keys[] = {"name", "type", "shape", "values", "read", NULL};
    static const char *const output_keys[] = {"name", "type", "shape", NULL};
    int inputs = strcmp(key, "inputs") == 0;
    json_object *v = cfg_member(obj, key);
    if (!v || !json_object_is_type(v, json_type_array) || json_object_array_length(v) < 1 ||
        (int)json_object_array_length(v) > max)
        return cfg_fail(c, where, key, "must be a list of 1 to %d arrays", max);
    for (size_t i = 0; i < json_object_array_length(v); i++) {
        json_object *e = json_object_array_get_idx(v, i);
        char at[96];
        snprintf(at, sizeof at, "%s.%s[%zu]", where, key, i);
        array_decl_t *d = &decls[*n];
        memset(d, 0, sizeof *d);
        if (cfg_require_object(c, e, at) != 0 || cfg_check_keys(c, e, at, inputs ? input_keys : output_keys) != 0)
            return -1;
        int got = cfg_string(c, e, at, "name", d->name, sizeof d->name);
        if (got < 0)
            return -1;
        if (got == 0 || !is_identifier(d->name))
            return cfg_fail(c, at, "name", "must be a C identifier, the array's name in the signature");
        if (input_index(s, d->name) >= 0 || output_index(s, d->name) >= 0 || param_index(s, d->name) >= 0)
            return cfg_fail(c, at, "name", "'%s' names another input, output or param too", d->name);
        if (read_type(c, e, at, d) != 0 || read_shape(c, e, at, s, d) != 0 ||
            (inputs && cfg_member(e, "values") && read_values(c, e, at, d) != 0))
            return -1;
        char read[16] = "whole";
        if (inputs && cfg_string(c, e, at, "read", read, sizeof read) < 0)
            return -1;
        if (strcmp(read, "whole") != 0 && strcmp(read, "some") != 0)
            return cfg_fail(c, at, "read", "must be \"whole\" (the default: every element is needed) or \"some\"");
        d->read_some = strcmp(read, "some") == 0;
        (*n)++;
    }
    return 0;
}

/* "tolerance": "exact" or {"rtol", "atol", "grows_with"} */
static int read_tolerance(const cfg_t *c, json_object *obj, const char *where, array_spec_t *s)
{
    static const char *const keys[] = {"rtol", "atol", "grows_with", NULL};
    json_object *v = cfg_member(obj, "tolerance");
    int any_int = 0;
    for (int i = 0; i < s->noutputs; i++)
        any_int |= s->outputs[i].type == ELEM_INT;
    s->grows_with = -1;
    if (v && json_object_is_type(v, json_type_string) && strcmp(json_object_get_string(v), "exact") == 0) {
        s->exact = 1;
        return 0;
    }
    if (any_int)
        return cfg_fail(c, where, "tolerance", "must be \"exact\": an output is an int array");
    char at[96];
    snprintf(at, sizeof at, "%s.tolerance", where);
    if (!v || cfg_require_object(c, v, at) != 0 || cfg_check_keys(c, v, at, keys) != 0)
        return v ? -1 : cfg_fail(c, where, "tolerance", "missing (required: \"exact\" or {\"rtol\", \"atol\"})");
    if (!cfg_number(cfg_member(v, "rtol"), &s->rtol) || !cfg_number(cfg_member(v, "atol"), &s->atol) ||
        !(s->rtol >= 0) || !(s->atol >= 0))
        return cfg_fail(c, at, "rtol", "rtol and atol must be numbers >= 0");
    char grows[ARRAY_NAME_MAX] = "";
    int got = cfg_string(c, v, at, "grows_with", grows, sizeof grows);
    if (got < 0)
        return -1;
    if (got && (s->grows_with = param_index(s, grows)) < 0)
        return cfg_fail(c, at, "grows_with", "'%s' is not one of the params", grows);
    return 0;
}

/* "work": {"flop": EXPR}, optional */
static int read_work(const cfg_t *c, json_object *obj, const char *where, array_spec_t *s)
{
    static const char *const keys[] = {"flop", NULL};
    json_object *v = cfg_member(obj, "work");
    if (!v)
        return 0;
    char at[64], why[256];
    snprintf(at, sizeof at, "%s.work", where);
    if (cfg_require_object(c, v, at) != 0 || cfg_check_keys(c, v, at, keys) != 0)
        return -1;
    int got = cfg_string(c, v, at, "flop", s->work_flop, sizeof s->work_flop);
    if (got <= 0)
        return got < 0 ? -1 : cfg_fail(c, at, "flop", "missing (an expression of the params: \"2*n\")");
    double ignored;
    if (work_expr_eval(s->work_flop, s->params[0], sizeof s->params[0], s->nparams, NULL, &ignored, why,
                       sizeof why) != 0)
        return cfg_fail(c, at, "flop", "%s", why);
    return 0;
}

/* "baseline": {"name", "source", "link"}, optional; the link flags a list of -lNAME */
static int read_baseline(const cfg_t *c, json_object *obj, const char *where, array_spec_t *s)
{
    static const char *const keys[] = {"name", "source", "link", NULL};
    json_object *v = cfg_member(obj, "baseline"), *link;
    if (!v)
        return 0;
    char at[64];
    snprintf(at, sizeof at, "%s.baseline", where);
    if (cfg_require_object(c, v, at) != 0 || cfg_check_keys(c, v, at, keys) != 0)
        return -1;
    const char *names[] = {"name", "source"};
    char *into[] = {s->baseline_name, s->baseline_source};
    size_t lens[] = {sizeof s->baseline_name, sizeof s->baseline_source};
    for (int i = 0; i < 2; i++) {
        int got = cfg_string(c, v, at, names[i], into[i], lens[i]);
        if (got <= 0)
            return got < 0 ? -1 : cfg_fail(c, at, names[i], "missing (required)");
    }
    if (strchr(s->baseline_source, '/') || !strstr(s->baseline_source, ".cu"))
        return cfg_fail(c, at, "source", "must be a .cu file of the lab's folder");
    if (!json_object_object_get_ex(v, "link", &link))
        return 0;
    if (!json_object_is_type(link, json_type_array))
        return cfg_fail(c, at, "link", "must be a list of -lNAME");
    for (size_t i = 0; i < json_object_array_length(link); i++) {
        const char *flag = json_object_get_string(json_object_array_get_idx(link, i));
        size_t used = strlen(s->baseline_link);
        if (!json_object_is_type(json_object_array_get_idx(link, i), json_type_string) || strncmp(flag, "-l", 2) != 0 ||
            !is_identifier(flag + 2) || used + strlen(flag) + 2 > sizeof s->baseline_link)
            return cfg_fail(c, at, "link", "entry %zu must be -lNAME (a library to link)", i);
        snprintf(s->baseline_link + used, sizeof s->baseline_link - used, "%s%s", used ? " " : "", flag);
    }
    return 0;
}

int array_spec_read(const cfg_t *c, json_object *obj, const char *where, const char *launch, array_spec_t *out)
{
    static const char *const keys[] = {"params", "signature", "inputs", "outputs", "tolerance", "work", "baseline",
                                       NULL};
    memset(out, 0, sizeof *out);
    char sig[512] = "", why[256];
    if (cfg_require_object(c, obj, where) != 0 || cfg_check_keys(c, obj, where, keys) != 0 ||
        read_params(c, obj, where, out) != 0 ||
        read_arrays(c, obj, where, "inputs", ARRAY_MAX_INPUTS, out, out->inputs, &out->ninputs) != 0 ||
        read_arrays(c, obj, where, "outputs", ARRAY_MAX_OUTPUTS, out, out->outputs, &out->noutputs) != 0 ||
        read_tolerance(c, obj, where, out) != 0 || read_work(c, obj, where, out) != 0 ||
        read_baseline(c, obj, where, out) != 0)
        return -1;
    int got = cfg_string(c, obj, where, "signature", sig, sizeof sig);
    if (got <= 0)
        return got < 0 ? -1 : cfg_fail(c, where, "signature", "missing (required: the launch function's C prototype)");
    if (array_signature_parse(sig, out, why, sizeof why) != 0)
        return cfg_fail(c, where, "signature", "%s", why);
    if (launch && launch[0] && strcmp(out->launch, launch) != 0)
        return cfg_fail(c, where, "signature", "declares %s, but lab.json's \"launch\" is %s", out->launch, launch);
    return 0;
}

/* ---- the signature ---------------------------------------------------------------------- */

/* The next token of a C declaration: an identifier, or one of ( ) , * ; */
static const char *token(const char *p, char *tok, size_t len)
{
    while (isspace((unsigned char)*p))
        p++;
    size_t n = 0;
    if (isalpha((unsigned char)*p) || *p == '_') {
        while ((isalnum((unsigned char)p[n]) || p[n] == '_') && n + 1 < len)
            n++;
    } else if (*p) {
        n = 1;
    }
    snprintf(tok, len, "%.*s", (int)n, p);
    return p + n;
}

static int is_scalar_type(const char *t)
{
    return strcmp(t, "int") == 0 || strcmp(t, "unsigned") == 0 || strcmp(t, "long") == 0 || strcmp(t, "float") == 0 ||
           strcmp(t, "size_t") == 0;
}

/* One parameter, "const float *__restrict__ A", into an argument. */
static int parameter(const char *text, size_t len, int at, array_spec_t *s, char *err, size_t errlen)
{
    char buf[256], tok[64], type[16] = "", name[ARRAY_NAME_MAX] = "";
    int is_const = 0, pointer = 0;
    snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), text);
    for (const char *p = token(buf, tok, sizeof tok); tok[0]; p = token(p, tok, sizeof tok)) {
        if (strcmp(tok, "const") == 0)
            is_const = 1;
        else if (strcmp(tok, "__restrict__") == 0 || strcmp(tok, "restrict") == 0 || strcmp(tok, "__restrict") == 0)
            ;
        else if (strcmp(tok, "*") == 0)
            pointer++;
        else if (!type[0] && is_scalar_type(tok))
            snprintf(type, sizeof type, "%.15s", tok);
        else if (type[0] && strcmp(type, "unsigned") == 0 && strcmp(tok, "int") == 0 && !name[0])
            ;
        else if (type[0] && !name[0] && is_identifier(tok))
            snprintf(name, sizeof name, "%.31s", tok);
        else
            return fail(err, errlen, "parameter %d: '%s' is not float, int, unsigned, long or size_t, a *, "
                        "const, or one name", at + 1, tok);
    }
    if (!type[0] || !name[0] || pointer > 1)
        return fail(err, errlen, "parameter %d: not a type and a name (float *A, const int *bins, int n)", at + 1);
    if (s->nargs == ARRAY_MAX_ARGS)
        return fail(err, errlen, "more than %d parameters", ARRAY_MAX_ARGS);
    array_arg_t *a = &s->args[s->nargs];
    snprintf(a->ctype, sizeof a->ctype, "%s", type);
    int in = input_index(s, name), out = output_index(s, name), param = param_index(s, name);
    if (pointer) {
        const array_decl_t *d = in >= 0 ? &s->inputs[in] : out >= 0 ? &s->outputs[out] : NULL;
        if (!d)
            return fail(err, errlen, "pointer %s is no input or output", name);
        if (out >= 0 && is_const)
            return fail(err, errlen, "output %s is const: the kernels write it", name);
        int int_like = strcmp(type, "int") == 0 || strcmp(type, "unsigned") == 0;
        if ((d->type == ELEM_FLOAT) != (strcmp(type, "float") == 0) || (d->type == ELEM_INT && !int_like))
            return fail(err, errlen, "%s is %s %s, but declared of %s", name, type, "*",
                        d->type == ELEM_FLOAT ? "float" : "int");
        a->kind = in >= 0 ? ARG_INPUT : ARG_OUTPUT;
        a->index = in >= 0 ? in : out;
    } else {
        if (param < 0)
            return fail(err, errlen, "scalar %s is not one of the params", name);
        if (strcmp(type, "float") == 0)
            return fail(err, errlen, "param %s is a float: sizes are whole numbers", name);
        a->kind = ARG_PARAM;
        a->index = param;
    }
    s->nargs++;
    return 0;
}

int array_signature_parse(const char *sig, array_spec_t *s, char *err, size_t errlen)
{
    char tok[64];
    const char *p = token(sig, tok, sizeof tok);
    s->nargs = 0;
    if (strcmp(tok, "void") != 0 && strcmp(tok, "int") != 0)
        return fail(err, errlen, "must return void or int (how many elements it wrote), not '%s'", tok);
    s->returns_int = strcmp(tok, "int") == 0;
    p = token(p, tok, sizeof tok);
    if (!is_identifier(tok))
        return fail(err, errlen, "no function name after the return type");
    snprintf(s->launch, sizeof s->launch, "%s", tok);
    p = token(p, tok, sizeof tok);
    const char *close = strrchr(p, ')');
    if (strcmp(tok, "(") != 0 || !close)
        return fail(err, errlen, "not a prototype: RETURN NAME(PARAMETERS)");
    for (const char *q = close + 1; *q; q++)
        if (!isspace((unsigned char)*q) && *q != ';')
            return fail(err, errlen, "text after the parameters");
    for (int at = 0; p < close; at++) {
        const char *comma = memchr(p, ',', (size_t)(close - p)), *end = comma ? comma : close;
        if (parameter(p, (size_t)(end - p), at, s, err, errlen) != 0)
            return -1;
        p = end + 1;
    }
    for (int i = 0; i < s->ninputs + s->noutputs; i++) {
        int output = i >= s->ninputs, k = output ? i - s->ninputs : i, uses = 0;
        for (int a = 0; a < s->nargs; a++)
            uses += s->args[a].kind == (output ? ARG_OUTPUT : ARG_INPUT) && s->args[a].index == k;
        if (uses != 1)
            return fail(err, errlen, "%s %s is %s", output ? "output" : "input",
                        output ? s->outputs[k].name : s->inputs[k].name, uses ? "passed twice" : "not passed");
    }
    return 0;
}

int array_shape_params(const array_spec_t *s, const char *shape, long *values, char *err, size_t errlen)
{
    const char *p = shape;
    for (int i = 0; i < s->nparams; i++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || *p < '0' || *p > '9' || v < 1 || v > (1L << 31))
            return fail(err, errlen, "shape '%s': %s must be a whole number from 1 (the shape is %s)", shape,
                        s->params[i], s->nparams == 1 ? s->params[0] : "its params' values joined by x");
        values[i] = v;
        p = end;
        if (i + 1 < s->nparams && *p++ != 'x')
            return fail(err, errlen, "shape '%s': %d sizes expected, joined by x", shape, s->nparams);
    }
    if (*p)
        return fail(err, errlen, "shape '%s': %d size%s expected", shape, s->nparams, s->nparams == 1 ? "" : "s");
    return 0;
}

long array_elements(const array_decl_t *d, const long *params)
{
    long n = 1;
    for (int i = 0; i < d->ndims; i++)
        n *= d->dims[i].param >= 0 ? params[d->dims[i].param] + d->dims[i].offset : d->dims[i].value;
    return n;
}

void array_work(const array_spec_t *s, const long *p, double *flop, double *bytes)
{
    *bytes = 4.0 * (double)array_elements(&s->outputs[0], p);
    for (int i = 0; i < s->ninputs; i++)
        *bytes += 4.0 * (double)array_elements(&s->inputs[i], p);
    char why[256];
    if (!s->work_flop[0] ||
        work_expr_eval(s->work_flop, s->params[0], sizeof s->params[0], s->nparams, p, flop, why, sizeof why) != 0)
        *flop = (double)array_elements(&s->outputs[0], p); /* checked when read: fails only without "work" */
}

/* How the executor's driver names param p plus add: the first input
 * dimension it sizes, with no offset if one has none ("n0", "rows1"), and
 * the difference as a suffix ("n3-1": the row pointers' length less 1). */
static int param_token(const array_spec_t *s, int p, long add, char *tok, size_t len)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < s->ninputs; i++)
            for (int d = 0; d < s->inputs[i].ndims; d++) {
                const array_dim_t *dim = &s->inputs[i].dims[d];
                if (dim->param != p || (pass == 0 && dim->offset != 0))
                    continue;
                long delta = add - dim->offset;
                int n = snprintf(tok, len, "%s%d", s->inputs[i].ndims == 1 ? "n" : d == 0 ? "rows" : "cols", i);
                if (delta && n > 0 && (size_t)n < len)
                    snprintf(tok + n, len - (size_t)n, "%+ld", delta);
                return 0;
            }
    return -1;
}

static int dim_token(const array_spec_t *s, const array_dim_t *dim, char *tok, size_t len)
{
    if (dim->param < 0) {
        snprintf(tok, len, "%ld", dim->value);
        return 0;
    }
    return param_token(s, dim->param, dim->offset, tok, len);
}

int array_spec_vgpu(const array_spec_t *s, char *call, size_t call_len, char *shape, size_t shape_len, char *err,
                    size_t errlen)
{
    char tok[32], tok2[32];
    call[0] = '\0';
    if (s->returns_int)
        return fail(err, errlen, "a launch function that returns int is not run on the executor yet");
    for (int a = 0; a < s->nargs; a++) {
        const array_arg_t *g = &s->args[a];
        if (g->kind == ARG_INPUT)
            snprintf(tok, sizeof tok, "in%d", g->index);
        else if (g->kind == ARG_OUTPUT)
            snprintf(tok, sizeof tok, "out");
        else if (param_token(s, g->index, 0, tok, sizeof tok) != 0)
            return fail(err, errlen, "param %s sizes no input: the executor's driver cannot pass it yet",
                        s->params[g->index]);
        size_t used = strlen(call);
        snprintf(call + used, call_len - used, "%s%s", a ? "," : "", tok);
    }
    const array_decl_t *out = &s->outputs[0];
    if (dim_token(s, &out->dims[0], tok, sizeof tok) != 0 ||
        (out->ndims == 2 && dim_token(s, &out->dims[1], tok2, sizeof tok2) != 0))
        return fail(err, errlen, "output %s: a param of its shape sizes no input", out->name);
    if (out->ndims == 1)
        snprintf(shape, shape_len, "1,%s", tok);
    else
        snprintf(shape, shape_len, "%s,%s", tok, tok2);
    return 0;
}

void array_spec_types(const array_spec_t *s, char *in_types, size_t len, int *out_int)
{
    in_types[0] = '\0';
    for (int i = 0; i < s->ninputs; i++) {
        size_t used = strlen(in_types);
        snprintf(in_types + used, len - used, "%s%c%s", i ? "," : "", s->inputs[i].type == ELEM_INT ? 'i' : 'f',
                 s->inputs[i].read_some ? "~" : "");
    }
    *out_int = s->outputs[0].type == ELEM_INT;
}
