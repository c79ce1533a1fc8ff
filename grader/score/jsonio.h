/* jsonio.h - json-c helpers of measurements.json (measured_json.c,
 * measured_parts_json.c): doubles written so they read back bit for bit,
 * and typed getters whose errors name the file and the field
 * ("PATH: datasets[3].passed: must be true or false"; course/config.h). */
#ifndef CUGRADE_JSONIO_H
#define CUGRADE_JSONIO_H

#include <stddef.h>

#include "course/config.h"

struct json_object;

/* A number that reads back as the same double: the shortest of 15, 16 or
 * 17 significant digits that does; a non-finite one as the string "nan",
 * "inf" or "-inf". */
struct json_object *jio_double(double v);
/* A string, or JSON null for NULL. */
struct json_object *jio_string(const char *s);

/* Each reads member key of obj (at the dotted path where) and returns 0, or
 * -1 with the error set (cfg_fail): missing, or not of its type. */
/* A number (or "nan", "inf", "-inf"). */
int jio_double_of(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                  double *out);
/* A whole number in lo..hi. */
int jio_long_of(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                long lo, long hi, long *out);
int jio_bool_of(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                int *out);
/* A string (empty allowed) that fits dst. */
int jio_text_of(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                char *dst, size_t dstlen);
/* A string, malloc'd into *out; null gives NULL when nullable, else an error. */
int jio_strdup_of(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                  int nullable, char **out);
/* An array (*n its length, at most max entries). */
int jio_array_of(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                 int max, struct json_object **arr, int *n);
/* An object member (or, when nullable, null: *out NULL). */
int jio_object_of(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                  int nullable, struct json_object **out);
/* "where[i]" into buf. */
const char *jio_index(char *buf, size_t len, const char *where, const char *key, int i);

#endif
