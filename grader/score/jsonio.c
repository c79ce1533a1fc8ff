/* jsonio.c - exact doubles and typed, named getters for measurements.json
 * (jsonio.h). */
#include "score/jsonio.h"
#include "util/util.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct json_object *jio_double(double v)
{
    if (isnan(v))
        return json_object_new_string("nan");
    if (isinf(v))
        return json_object_new_string(v > 0 ? "inf" : "-inf");
    char text[40];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, v);
        if (strtod(text, NULL) == v)
            break;
    }
    return json_object_new_double_s(v, text);
}

struct json_object *jio_string(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

const char *jio_index(char *buf, size_t len, const char *where, const char *key, int i)
{
    snprintf(buf, len, "%s%s%s[%d]", where && *where ? where : "", where && *where ? "." : "",
             key, i);
    return buf;
}

/* The member, or -1 (error set) when it is missing. */
static int member(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                  struct json_object **v)
{
    if (!json_object_object_get_ex(obj, key, v))
        return cfg_fail(c, where, key, "missing");
    return 0;
}

int jio_double_of(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                  double *out)
{
    struct json_object *v;
    if (member(c, obj, where, key, &v) != 0)
        return -1;
    if (cfg_number(v, out))
        return 0;
    const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
    if (strcmp(s, "nan") == 0)
        *out = NAN;
    else if (strcmp(s, "inf") == 0)
        *out = INFINITY;
    else if (strcmp(s, "-inf") == 0)
        *out = -INFINITY;
    else
        return cfg_fail(c, where, key, "must be a number");
    return 0;
}

int jio_long_of(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                long lo, long hi, long *out)
{
    struct json_object *v;
    if (member(c, obj, where, key, &v) != 0)
        return -1;
    int64_t n = json_object_get_int64(v);
    if (!json_object_is_type(v, json_type_int) || n < lo || n > hi)
        return cfg_fail(c, where, key, "must be a whole number from %ld to %ld", lo, hi);
    *out = (long)n;
    return 0;
}

int jio_bool_of(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                int *out)
{
    struct json_object *v;
    if (member(c, obj, where, key, &v) != 0)
        return -1;
    if (!json_object_is_type(v, json_type_boolean))
        return cfg_fail(c, where, key, "must be true or false");
    *out = json_object_get_boolean(v) ? 1 : 0;
    return 0;
}

int jio_text_of(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                char *dst, size_t dstlen)
{
    struct json_object *v;
    if (member(c, obj, where, key, &v) != 0)
        return -1;
    if (!json_object_is_type(v, json_type_string))
        return cfg_fail(c, where, key, "must be a string");
    const char *s = json_object_get_string(v);
    if (strlen(s) >= dstlen)
        return cfg_fail(c, where, key, "longer than %zu characters", dstlen - 1);
    memcpy(dst, s, strlen(s) + 1);
    return 0;
}

int jio_strdup_of(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                  int nullable, char **out)
{
    struct json_object *v;
    *out = NULL;
    if (member(c, obj, where, key, &v) != 0)
        return -1;
    if (!v && nullable)
        return 0;
    if (!json_object_is_type(v, json_type_string))
        return cfg_fail(c, where, key, nullable ? "must be a string or null" : "must be a string");
    *out = strdup(json_object_get_string(v));
    return *out ? 0 : cfg_fail(c, where, key, "out of memory");
}

int jio_array_of(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                 int max, struct json_object **arr, int *n)
{
    struct json_object *v;
    *arr = NULL;
    *n = 0;
    if (member(c, obj, where, key, &v) != 0)
        return -1;
    if (!json_object_is_type(v, json_type_array))
        return cfg_fail(c, where, key, "must be an array [ ... ]");
    size_t len = json_object_array_length(v);
    if (len > (size_t)max)
        return cfg_fail(c, where, key, "more than %d entries", max);
    *arr = v;
    *n = (int)len;
    return 0;
}

int jio_object_of(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
                  int nullable, struct json_object **out)
{
    struct json_object *v;
    *out = NULL;
    if (member(c, obj, where, key, &v) != 0)
        return -1;
    if (!v && nullable)
        return 0;
    if (!json_object_is_type(v, json_type_object))
        return cfg_fail(c, where, key, nullable ? "must be an object or null" : "must be an object");
    *out = v;
    return 0;
}
