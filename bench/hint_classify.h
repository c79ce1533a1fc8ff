/* hint_classify.h - how a graded program's report is judged against the bug
 * it is known to have (tests/hints/: each file's "expect:" ids): RIGHT when
 * it names one of those causes and no other, WRONG when it names another
 * (or lists mistakes that fit, none of them the bug), GENERIC when it names
 * none. What a report names is read from results.json, never from its
 * prose: each dataset's extra_data.failure ("hypothesis:ID", "consistent:A,B",
 * "wrong-with:KIND", "no-output:KIND", a cause key, and "@KIND" for the
 * likely cause said beside it) and any test's extra_data.cause. */
#ifndef CUGRADE_HINT_CLASSIFY_H
#define CUGRADE_HINT_CLASSIFY_H

#include <json-c/json.h>
#include <stddef.h>

typedef enum { HINT_JUDGED_RIGHT, HINT_JUDGED_GENERIC, HINT_JUDGED_WRONG } hint_judged_t;

typedef struct {
    hint_judged_t verdict;
    char named[512]; /* the causes named, space-separated (each once) */
    char why[512];   /* for WRONG: what was named or listed that is not the bug */
} hint_judgement_t;

/* The ids after "expect:" in a corpus file's text, space-separated, into
 * out; -1 when the text has no such line (or it names nothing). */
int hint_expect_of(const char *source, char *out, size_t len);

/* Judges results (a results.json) against expect (space-separated ids). */
void hint_classify(json_object *results, const char *expect, hint_judgement_t *j);

const char *hint_judged_name(hint_judged_t v);

#endif
