/* tally.c - a count of faults with the first one's reason (tally.h). */
#include "util/tally.h"

#include <stdio.h>
#include <string.h>

void tally_add(tally_t *t, const char *who, const char *said, const char *silent)
{
    pthread_mutex_lock(&t->lock);
    if (t->n++ == 0) {
        const char *out = said && *said ? said : silent;
        snprintf(t->first, sizeof t->first, "%s%s%.*s", who ? who : "", who ? ": " : "",
                 (int)strcspn(out, "\n"), out);
    }
    pthread_mutex_unlock(&t->lock);
}

int tally_read(tally_t *t, char *why, size_t whylen)
{
    pthread_mutex_lock(&t->lock);
    int n = t->n;
    if (why && whylen)
        snprintf(why, whylen, "%s", t->first);
    pthread_mutex_unlock(&t->lock);
    return n;
}
