/* call_args.h - what a program built with an array lab's call header
 * (grader/build/harness_flags.c: CUGRADE_ARRAY_ARGS "in0,in1,out,n0",
 * CUGRADE_ARRAY_IN_TYPES "f,i") reads from it: how many inputs the call
 * names, which are int arrays, and the value of a size token. Shared by the
 * GPU's and emulator's driver (driver.cu) and the library timer
 * (library_timer.cu). Include it after the call header. */
#ifndef CUGRADE_ARRAY_CALL_ARGS_H
#define CUGRADE_ARRAY_CALL_ARGS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_CALL_MAX_INPUTS 8

/* The inputs' shapes as the files held them (a vector: n x 1). */
typedef struct {
    int n;
    long rows[ARRAY_CALL_MAX_INPUTS], cols[ARRAY_CALL_MAX_INPUTS];
} array_sizes_t;

/* A size token of the call: nK (input K's elements), rowsK, colsK, or a
 * number, each with an optional signed suffix ("n3-1"). */
static inline long array_size_of(const char *tok, size_t len, const array_sizes_t *s)
{
    char t[32];
    snprintf(t, sizeof t, "%.*s", (int)len, tok);
    char *sign = strpbrk(t + 1, "+-");
    if (sign) {
        long add = strtol(sign, NULL, 10);
        *sign = '\0';
        return array_size_of(t, strlen(t), s) + add;
    }
    int k = -1;
    if (sscanf(t, "rows%d", &k) == 1 && k >= 0 && k < s->n)
        return s->rows[k];
    if (sscanf(t, "cols%d", &k) == 1 && k >= 0 && k < s->n)
        return s->cols[k];
    if (t[0] == 'n' && sscanf(t + 1, "%d", &k) == 1 && k >= 0 && k < s->n)
        return s->rows[k] * s->cols[k];
    return strtol(t, NULL, 10);
}

/* Whether input k is an int array ("f,i": input 1 is). */
static inline int array_input_is_int(int k)
{
    const char *t = CUGRADE_ARRAY_IN_TYPES;
    for (int i = 0; i < k && *t; i++) {
        t = strchr(t, ',');
        t = t ? t + 1 : "";
    }
    return *t == 'i';
}

/* n floats holding whole numbers as 32-bit ints, in place */
static inline void array_to_ints(float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int32_t x = (int32_t)v[i];
        memcpy(&v[i], &x, sizeof x);
    }
}

/* How many inputs the call names (in0 .. inK). */
static inline int array_inputs_named(void)
{
    int n = 0;
    for (const char *p = CUGRADE_ARRAY_ARGS; (p = strstr(p, "in")) != NULL; p += 2) {
        int k = atoi(p + 2);
        n = k + 1 > n ? k + 1 : n;
    }
    return n;
}

#endif
