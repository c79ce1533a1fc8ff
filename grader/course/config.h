/* config.h - json-c helpers shared by the rubric and lab-manifest loaders.
 * Messages start with the file name; `where` is the dotted JSON path of the
 * object being read ("labs.lab3.datasets"; "" at the top level). */
#ifndef CUGRADE_CONFIG_H
#define CUGRADE_CONFIG_H

#include <stddef.h>

struct json_object;

typedef struct {
    const char *file; /* prefixes every message */
    char *err;
    size_t errlen;
    const char *text; /* the file's text, or NULL: with it, messages name the line
                       * of the field ("rubric.json:12: labs.lab3.hidden.count: ...") */
} cfg_t;

/* Parses a JSON file (or text, `name` used in messages). Syntax errors read
 * "name:LINE: syntax error: <json-c's description>". NULL on failure; the
 * caller releases the result with json_object_put. */
struct json_object *cfg_parse_file(const char *path, char *err, size_t errlen);
struct json_object *cfg_parse_text(const char *name, const char *text, size_t len, char *err,
                                   size_t errlen);
/* Sets "file: where.key: message" (key may be NULL) and returns -1; with
 * c->text, "file:LINE: where.key: message", LINE the line of the deepest
 * part of where.key found in the text (cfg_line). */
int cfg_fail(const cfg_t *c, const char *where, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The 1-based line of the member at the dotted path (e.g.
 * "labs.lab3.hidden.count") in JSON text: each part is looked up as a key
 * inside the object the previous one opens; a part that is not there (a
 * missing key) leaves the line of the deepest one found. 0 when not even the
 * first part is found. */
int cfg_line(const char *text, const char *path);
/* -1 (error set) if obj is not an object. */
int cfg_require_object(const cfg_t *c, struct json_object *obj, const char *where);
/* -1 (error set) if obj has a key outside known (NULL-terminated). */
int cfg_check_keys(const cfg_t *c, struct json_object *obj, const char *where,
                   const char *const known[]);
/* The member `key` of obj, NULL if absent. */
struct json_object *cfg_member(struct json_object *obj, const char *key);
/* 1 if v is a finite JSON number (integer or not), stored in *out. */
int cfg_number(struct json_object *v, double *out);
/* Copies string member `key` into dst: 1 if copied, 0 if absent, -1 (error
 * set) if it is not a non-empty string that fits dst. */
int cfg_string(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
               char *dst, size_t dstlen);

#endif
