/* work_expr.h - an array lab's work as lab.json writes it ("work":
 * {"flop": "2*height*width*mask*mask"}): an arithmetic expression of the
 * dataset's params, numbers, + - * / and parentheses, checked when lab.json
 * is read and evaluated for each shape (the rate and the roofline). */
#ifndef CUGRADE_WORK_EXPR_H
#define CUGRADE_WORK_EXPR_H

#include <stddef.h>

/* Evaluates expr with names[i] (each of stride bytes, n of them) standing
 * for values[i] (values NULL: every name 1, to check the expression alone)
 * into *out: 0, or -1 with err naming what is wrong and where. */
int work_expr_eval(const char *expr, const char *names, size_t stride, int n, const long *values, double *out,
                   char *err, size_t errlen);

#endif
