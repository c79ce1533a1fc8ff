/* work_expr.c - lab.json's work expressions (work_expr.h): a recursive
 * descent over expr := term {(+|-) term}, term := factor {(*|/) factor},
 * factor := number | param | ( expr ). */
#include "course/work_expr.h"
#include "util/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *text, *p;
    const char *names;
    size_t stride;
    int n;
    const long *values;
    char *err;
    size_t errlen;
    int failed;
} parser_t;

static double parse_sum(parser_t *ps);

static double refuse(parser_t *ps, const char *what)
{
    if (!ps->failed)
        fail(ps->err, ps->errlen, "'%s': %s at column %d", ps->text, what, (int)(ps->p - ps->text) + 1);
    ps->failed = 1;
    return 0;
}

static void skip_blanks(parser_t *ps)
{
    while (*ps->p == ' ')
        ps->p++;
}

static double parse_name(parser_t *ps)
{
    const char *start = ps->p;
    while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
        ps->p++;
    size_t len = (size_t)(ps->p - start);
    for (int i = 0; i < ps->n; i++) {
        const char *name = ps->names + (size_t)i * ps->stride;
        if (strlen(name) == len && strncmp(name, start, len) == 0)
            return ps->values ? (double)ps->values[i] : 1.0;
    }
    ps->p = start;
    return refuse(ps, "not a number or one of the params");
}

static double parse_factor(parser_t *ps)
{
    skip_blanks(ps);
    if (*ps->p == '(') {
        ps->p++;
        double v = parse_sum(ps);
        skip_blanks(ps);
        if (*ps->p != ')')
            return refuse(ps, "')' expected");
        ps->p++;
        return v;
    }
    if (isdigit((unsigned char)*ps->p) || *ps->p == '.') {
        char *end;
        double v = strtod(ps->p, &end);
        ps->p = end;
        return v;
    }
    if (isalpha((unsigned char)*ps->p) || *ps->p == '_')
        return parse_name(ps);
    return refuse(ps, *ps->p ? "a number, a param or '(' expected" : "it ends too soon");
}

static double parse_product(parser_t *ps)
{
    double v = parse_factor(ps);
    for (;;) {
        skip_blanks(ps);
        char op = *ps->p;
        if (ps->failed || (op != '*' && op != '/'))
            return v;
        ps->p++;
        double w = parse_factor(ps);
        if (op == '/' && w == 0)
            return refuse(ps, "a division by zero");
        v = op == '*' ? v * w : v / w;
    }
}

static double parse_sum(parser_t *ps)
{
    double v = parse_product(ps);
    for (;;) {
        skip_blanks(ps);
        char op = *ps->p;
        if (ps->failed || (op != '+' && op != '-'))
            return v;
        ps->p++;
        double w = parse_product(ps);
        v = op == '+' ? v + w : v - w;
    }
}

int work_expr_eval(const char *expr, const char *names, size_t stride, int n, const long *values, double *out,
                   char *err, size_t errlen)
{
    parser_t ps = {.text = expr, .p = expr, .names = names, .stride = stride, .n = n, .values = values,
                   .err = err, .errlen = errlen};
    double v = parse_sum(&ps);
    skip_blanks(&ps);
    if (!ps.failed && *ps.p)
        refuse(&ps, "an operator expected");
    if (ps.failed)
        return -1;
    *out = v;
    return 0;
}
