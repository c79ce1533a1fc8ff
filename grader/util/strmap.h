/* strmap.h - a map from strings to numbers (open addressing, linear probing,
 * doubled when half full), for text the grader counts or looks up per line:
 * a statistic's key, a finding's kind, a message seen before. Its keys may
 * come from a student's program, so the hash is keyed with a secret drawn
 * once per process (SipHash-1-3): keys cannot be chosen to collide, and every
 * lookup stays O(1) on average whatever the text. */
#ifndef CUGRADE_STRMAP_H
#define CUGRADE_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *key;     /* owned; NULL: a free slot */
    uint64_t hash;
    long value;
} strmap_slot_t;

/* Zero-initialise before use; strmap_free when done. */
typedef struct {
    strmap_slot_t *slots; /* cap of them, cap a power of two (or 0) */
    size_t cap, n;
} strmap_t;

/* The value stored under key, or NULL when it is absent. */
long *strmap_get(const strmap_t *m, const char *key);
/* The value under key, added as 0 when absent (then *added = 1, else 0;
 * added may be NULL). NULL only when out of memory. The pointer is good
 * until the next strmap_put. */
long *strmap_put(strmap_t *m, const char *key, int *added);
/* How many keys it holds. */
size_t strmap_count(const strmap_t *m);
void strmap_free(strmap_t *m);

/* The keyed hash itself (the process's secret key), for tests. */
uint64_t strmap_hash(const char *key, size_t len);

#endif
