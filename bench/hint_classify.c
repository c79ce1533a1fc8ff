/* hint_classify.c - a report judged against the bug it should name
 * (hint_classify.h): the hint benchmark's (bench/hint_corpus.c) and its
 * unit test's one copy of the rules. */
#include "hint_classify.h"

#include <stdio.h>
#include <string.h>

/* Failure keys that name a cause by themselves (the rest describe the
 * output: some-wrong, never-written, boundary-wrong, timeout, ...). */
static const char *const cause_keys[] = {
    "grid-too-small", "grid-xy-swapped", "float-ceil-grid", "oversized-grid", "copy-size", "host-copy-overflow",
    "block-too-big", "host-output", "tile-too-small", "untiled", "k-off-by-one", "global-atomics", NULL,
};

const char *hint_judged_name(hint_judged_t v)
{
    return v == HINT_JUDGED_RIGHT ? "RIGHT" : v == HINT_JUDGED_WRONG ? "WRONG" : "GENERIC";
}

int hint_expect_of(const char *source, char *out, size_t len)
{
    const char *at = source ? strstr(source, "expect:") : NULL;
    if (!at || len == 0)
        return -1;
    at += 7;
    size_t n = strcspn(at, "\n");
    snprintf(out, len, "%.*s", (int)n, at);
    char *end = out + strlen(out); /* trim the comment's end and spaces */
    while (end > out && (end[-1] == ' ' || end[-1] == '/' || end[-1] == '*' || end[-1] == '\r'))
        *--end = '\0';
    char *start = out;
    while (*start == ' ')
        start++;
    memmove(out, start, strlen(start) + 1);
    return out[0] ? 0 : -1;
}

/* Whether id (len bytes) is one of the space-separated words of list. */
static int listed(const char *list, const char *id, size_t len)
{
    for (const char *w = list; *w;) {
        size_t n = strcspn(w, " ");
        if (n == len && strncmp(w, id, len) == 0)
            return 1;
        w += n;
        w += strspn(w, " ");
    }
    return 0;
}

typedef struct {
    const char *expect;
    hint_judgement_t *j;
    int right, wrong;
} judging_t;

static void name_one(judging_t *s, const char *id, size_t len)
{
    if (len == 0)
        return;
    if (!listed(s->j->named, id, len)) {
        size_t used = strlen(s->j->named);
        snprintf(s->j->named + used, sizeof s->j->named - used, "%s%.*s", used ? " " : "", (int)len, id);
    }
    if (listed(s->expect, id, len)) {
        s->right = 1;
    } else if (!s->wrong++) {
        snprintf(s->j->why, sizeof s->j->why, "named %.*s", (int)len, id);
    }
}

/* "a,b,c": wrong when none of them is the bug (the list misleads). */
static void list_of(judging_t *s, const char *ids, size_t len)
{
    for (const char *id = ids; id < ids + len;) {
        size_t n = strcspn(id, ",@");
        if (n > (size_t)(ids + len - id))
            n = (size_t)(ids + len - id);
        if (listed(s->expect, id, n))
            return;
        id += n + 1;
    }
    if (!s->wrong++)
        snprintf(s->j->why, sizeof s->j->why, "listed %.*s, none of them the bug", (int)len, ids);
}

static void read_failure(judging_t *s, const char *f)
{
    const char *at = strchr(f, '@');
    size_t base = at ? (size_t)(at - f) : strlen(f);
    if (at)
        name_one(s, at + 1, strlen(at + 1));
    if (strncmp(f, "hypothesis:all-zero", 19) == 0 && base == 19)
        ; /* "every element is 0": a fact about the output, its hint asks what left it so */
    else if (strncmp(f, "hypothesis:", 11) == 0)
        name_one(s, f + 11, base - 11);
    else if (strncmp(f, "consistent:", 11) == 0)
        list_of(s, f + 11, base - 11);
    else if (strncmp(f, "wrong-with:", 11) == 0 || strncmp(f, "no-output:", 10) == 0) {
        const char *k = strchr(f, ':') + 1;
        name_one(s, k, base - (size_t)(k - f));
    } else
        for (int i = 0; cause_keys[i]; i++)
            if (strlen(cause_keys[i]) == base && strncmp(f, cause_keys[i], base) == 0)
                name_one(s, f, base);
}

static const char *text_in(json_object *o, const char *key)
{
    json_object *v;
    return o && json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
               ? json_object_get_string(v)
               : NULL;
}

void hint_classify(json_object *results, const char *expect, hint_judgement_t *j)
{
    memset(j, 0, sizeof *j);
    judging_t s = {expect ? expect : "", j, 0, 0};
    json_object *tests;
    if (results && json_object_object_get_ex(results, "tests", &tests))
        for (size_t i = 0; i < json_object_array_length(tests); i++) {
            json_object *t = json_object_array_get_idx(tests, i), *extra;
            if (!json_object_object_get_ex(t, "extra_data", &extra))
                continue;
            const char *failure = text_in(extra, "failure"), *cause = text_in(extra, "cause");
            if (failure)
                read_failure(&s, failure);
            if (cause)
                name_one(&s, cause, strlen(cause));
        }
    j->verdict = s.wrong ? HINT_JUDGED_WRONG : s.right ? HINT_JUDGED_RIGHT : HINT_JUDGED_GENERIC;
}
