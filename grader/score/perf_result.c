/* perf_result.c - the two lookups on a timing's result (perf_result.h):
 * an implementation of a shape by name, and the device's compute
 * capability from its text. */
#include "score/perf_result.h"

#include <stdio.h>
#include <string.h>

void perf_set_compute_capability(perf_result_t *r, const char *text)
{
    int major = 0, minor = 0;
    if (text && sscanf(text, "%d.%d", &major, &minor) == 2 && major > 0 && major < 100 && minor >= 0 &&
        minor < 100)
        r->cc_major = major, r->cc_minor = minor;
}

const perf_impl_t *perf_impl(const perf_shape_t *s, const char *name)
{
    for (int i = 0; i < s->nimpls; i++)
        if (strcmp(s->impls[i].name, name) == 0)
            return &s->impls[i];
    return NULL;
}
