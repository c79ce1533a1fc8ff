/* config.c - small json-c helpers for cugrade's configuration files
 * (rubric.json, lab.json): parse with the line of a syntax error, and
 * validate members with messages that name the file and the JSON path. */
#include "course/config.h"

#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* 1-based line of text[offset]. */
static int line_at(const char *text, size_t offset)
{
    int line = 1;
    for (size_t i = 0; i < offset; i++)
        line += text[i] == '\n';
    return line;
}

/* Where an unfinished document ends: just after its last non-blank byte. */
static size_t end_of_content(const char *text, size_t len)
{
    while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\r' ||
                       text[len - 1] == '\n'))
        len--;
    return len > 0 ? len - 1 : 0;
}

struct json_object *cfg_parse_text(const char *name, const char *text, size_t len, char *err,
                                   size_t errlen)
{
    if (len > (size_t)0x7fffffff) {
        fail(err, errlen, "%s: file too large", name);
        return NULL;
    }
    struct json_tokener *tok = json_tokener_new();
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
    struct json_object *obj = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error jerr = json_tokener_get_error(tok);
    size_t offset = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (jerr == json_tokener_success)
        return obj;
    json_object_put(obj);
    if (jerr == json_tokener_continue)
        fail(err, errlen, "%s:%d: syntax error: unexpected end of file", name,
             line_at(text, end_of_content(text, len)));
    else
        fail(err, errlen, "%s:%d: syntax error: %s", name, line_at(text, offset),
             json_tokener_error_desc(jerr));
    return NULL;
}

struct json_object *cfg_parse_file(const char *path, char *err, size_t errlen)
{
    size_t len = 0;
    char *text = read_file(path, &len, err, errlen);
    if (!text)
        return NULL;
    struct json_object *obj = cfg_parse_text(path, text, len, err, errlen);
    free(text);
    return obj;
}

/* ---- the line of a member ------------------------------------------------------ */

/* Past the JSON string that starts at s[0] == '"'. */
static const char *skip_string(const char *s)
{
    for (s++; *s && *s != '"'; s++)
        if (*s == '\\' && s[1])
            s++;
    return *s ? s + 1 : s;
}

static const char *skip_blank(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    return s;
}

/* Past the value (an object, an array, a string or a scalar) at s. */
static const char *skip_value(const char *s)
{
    if (*s == '"')
        return skip_string(s);
    if (*s != '{' && *s != '[') {
        while (*s && *s != ',' && *s != '}' && *s != ']')
            s++;
        return s;
    }
    int depth = 0;
    for (; *s; s++) {
        if (*s == '"')
            s = skip_string(s) - 1;
        else if (*s == '{' || *s == '[')
            depth++;
        else if ((*s == '}' || *s == ']') && --depth == 0)
            return s + 1;
    }
    return s;
}

/* In the object that opens at obj ('{'), the key name (len bytes): where
 * the key's string starts, or NULL. */
static const char *find_key(const char *obj, const char *name, size_t len)
{
    const char *s = skip_blank(obj + 1);
    while (*s == '"') {
        const char *key = s, *after = skip_string(s);
        s = skip_blank(after);
        if (*s != ':')
            return NULL;
        if ((size_t)(after - key) == len + 2 && strncmp(key + 1, name, len) == 0)
            return key;
        s = skip_blank(skip_value(skip_blank(s + 1)));
        if (*s != ',')
            return NULL;
        s = skip_blank(s + 1);
    }
    return NULL;
}

/* In the array that opens at arr ('['), where element i starts, or NULL. */
static const char *find_element(const char *arr, long i)
{
    const char *s = skip_blank(arr + 1);
    for (; i > 0 && *s && *s != ']'; i--) {
        s = skip_blank(skip_value(s));
        if (*s != ',')
            return NULL;
        s = skip_blank(s + 1);
    }
    return *s && *s != ']' ? s : NULL;
}

int cfg_line(const char *text, const char *path)
{
    const char *obj = skip_blank(text), *found = NULL;
    while (*obj == '{' && *path) {
        size_t len = strcspn(path, ".["), part = strcspn(path, ".");
        const char *key = find_key(obj, path, len);
        if (!key)
            break;
        found = key;
        obj = skip_blank(skip_blank(skip_string(key)) + 1);
        /* "inputs[1]": into the array, to its element */
        for (const char *ix = path + len; ix < path + part && *ix == '[' && *obj == '[';) {
            char *end;
            long i = strtol(ix + 1, &end, 10);
            const char *element = *end == ']' ? find_element(obj, i) : NULL;
            if (!element)
                break;
            found = obj = element;
            ix = end + 1;
        }
        path += part + (path[part] == '.');
    }
    return found ? line_at(text, (size_t)(found - text)) : 0;
}

int cfg_fail(const cfg_t *c, const char *where, const char *key, const char *fmt, ...)
{
    char msg[512], path[512], line[24] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int has_where = where && *where, has_key = key && *key;
    snprintf(path, sizeof path, "%s%s%s", has_where ? where : "", has_where && has_key ? "." : "",
             has_key ? key : "");
    int at = c->text ? cfg_line(c->text, path) : 0;
    if (at > 0)
        snprintf(line, sizeof line, ":%d", at);
    return fail(c->err, c->errlen, "%s%s: %s%s%s", c->file, line, path, *path ? ": " : "", msg);
}

int cfg_require_object(const cfg_t *c, struct json_object *obj, const char *where)
{
    if (!json_object_is_type(obj, json_type_object))
        return cfg_fail(c, where, NULL, "must be an object { ... }");
    return 0;
}

static int is_known(const char *key, const char *const known[])
{
    for (int i = 0; known[i]; i++)
        if (strcmp(key, known[i]) == 0)
            return 1;
    return 0;
}

static void join_names(const char *const names[], char *buf, size_t len)
{
    strbuf_t sb = {0};
    for (int i = 0; names[i]; i++)
        sb_appendf(&sb, "%s%s", i ? ", " : "", names[i]);
    snprintf(buf, len, "%s", sb_str(&sb));
    sb_free(&sb);
}

int cfg_check_keys(const cfg_t *c, struct json_object *obj, const char *where,
                   const char *const known[])
{
    json_object_object_foreach(obj, key, val)
    {
        (void)val;
        if (!is_known(key, known)) {
            char names[256];
            join_names(known, names, sizeof names);
            return cfg_fail(c, where, key, "unknown key (known keys: %s)", names);
        }
    }
    return 0;
}

struct json_object *cfg_member(struct json_object *obj, const char *key)
{
    struct json_object *v = NULL;
    if (!json_object_object_get_ex(obj, key, &v))
        return NULL;
    return v;
}

int cfg_number(struct json_object *v, double *out)
{
    if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
        return 0;
    double d = json_object_get_double(v);
    if (!isfinite(d))
        return 0;
    *out = d;
    return 1;
}

int cfg_string(const cfg_t *c, struct json_object *obj, const char *where, const char *key,
               char *dst, size_t dstlen)
{
    struct json_object *v = cfg_member(obj, key);
    if (!v)
        return 0;
    if (!json_object_is_type(v, json_type_string) || json_object_get_string_len(v) == 0)
        return cfg_fail(c, where, key, "must be a non-empty string");
    if ((size_t)json_object_get_string_len(v) >= dstlen)
        return cfg_fail(c, where, key, "too long (at most %zu characters)", dstlen - 1);
    snprintf(dst, dstlen, "%s", json_object_get_string(v));
    return 1;
}

