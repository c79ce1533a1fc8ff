/* kinds.c - the registry of lab kinds: one line per kind. */
#include "kinds/kind.h"

#include <stdio.h>
#include <string.h>

extern const lab_kind_t kind_matmul;
extern const lab_kind_t kind_reduction;
extern const lab_kind_t kind_array;

static const lab_kind_t *const kinds[] = {&kind_matmul, &kind_reduction, &kind_array};
#define NKINDS (sizeof kinds / sizeof kinds[0])

const lab_kind_t *lab_kind_find(const char *name)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (strcmp(kinds[i]->name, name) == 0)
            return kinds[i];
    return NULL;
}

void lab_kind_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < NKINDS && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", kinds[i]->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}
