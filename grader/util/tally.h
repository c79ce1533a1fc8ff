/* tally.h - a count of faults that threads may add to, with the first
 * one's reason kept: the runner's sandboxes that did not start, the
 * executor's runs it could not serve. A grading compares the count before
 * and after (grade.c) and names the first. */
#ifndef CUGRADE_TALLY_H
#define CUGRADE_TALLY_H

#include <pthread.h>
#include <stddef.h>

typedef struct {
    pthread_mutex_t lock;
    int n;
    char first[512];
} tally_t;

#define TALLY_INIT {PTHREAD_MUTEX_INITIALIZER, 0, ""}

/* One more; the first one's reason is "who: " and the first line of said
 * (or of silent when said is empty or NULL: "(bwrap said nothing)"). */
void tally_add(tally_t *t, const char *who, const char *said, const char *silent);
/* The count so far, and the first one's reason into why (may be NULL). */
int tally_read(tally_t *t, char *why, size_t whylen);

#endif
