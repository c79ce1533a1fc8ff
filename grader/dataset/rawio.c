/* rawio.c - reads and writes libwb ".raw" matrix files.
 *
 * The reader is a single pass over the whole buffer: a scanner splits it
 * into whitespace-separated tokens and keeps the line number of each one, so
 * every rejection can say "path:line: message". The first non-blank line is
 * the header ("rows cols"); the values that follow may be wrapped over any
 * number of lines. Each value token is checked against the decimal number
 * grammar by hand and converted correctly rounded (an exact fast path for
 * short numbers, strtof for the rest), so files written with up to 9
 * significant digits round-trip bit for bit. */
#include "dataset/rawio.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define MAX_NUMBER_CHARS 128 /* longer value tokens are rejected */
#define MAX_EXACT_DIGITS 15  /* below 2^53: exact in a double */
/* A double has 29 more mantissa bits than a float; a double whose dropped
 * bits are exactly 1000...0 lies halfway between two floats. */
#define FLOAT_DROPPED_BITS ((UINT64_C(1) << 29) - 1)
#define FLOAT_MIDPOINT_BITS (UINT64_C(1) << 28)

/* ---- scanner -------------------------------------------------------------- */

typedef struct {
    const char *p, *end;
    int line;     /* line of the current position, 1-based */
    int solution; /* a program's answer (raw_read_solution): NaN, inf, 0x0 allowed */
} scanner_t;

typedef struct {
    const char *s;
    size_t len;
    int line;
} token_t;

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Skips whitespace; with stop_at_newline it stops just after the first '\n'
 * and returns 1 if it crossed one. */
static int skip_space(scanner_t *sc, int stop_at_newline)
{
    while (sc->p < sc->end && is_space(*sc->p)) {
        if (*sc->p++ == '\n') {
            sc->line++;
            if (stop_at_newline)
                return 1;
        }
    }
    return 0;
}

/* The next token anywhere ahead; 0 at the end of the buffer. */
static int next_token(scanner_t *sc, token_t *t)
{
    skip_space(sc, 0);
    if (sc->p >= sc->end)
        return 0;
    t->s = sc->p;
    t->line = sc->line;
    while (sc->p < sc->end && !is_space(*sc->p))
        sc->p++;
    t->len = (size_t)(sc->p - t->s);
    return 1;
}

/* The next token on the current line only; 0 at the end of the line. */
static int next_token_on_line(scanner_t *sc, token_t *t)
{
    if (skip_space(sc, 1) || sc->p >= sc->end)
        return 0;
    return next_token(sc, t);
}

/* Quotes a token for a message: at most 24 characters, unprintables as '?'. */
static const char *quoted(const token_t *t, char *buf, size_t buflen)
{
    size_t n = t->len < 24 ? t->len : 24;
    size_t k = 0;
    buf[k++] = '\'';
    for (size_t i = 0; i < n && k + 5 < buflen; i++)
        buf[k++] = (t->s[i] >= 0x20 && t->s[i] < 0x7f) ? t->s[i] : '?';
    if (n < t->len && k + 5 < buflen) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k++] = '\'';
    buf[k] = '\0';
    return buf;
}

/* ---- header ----------------------------------------------------------------- */

/* A dimension is plain decimal digits; huge values stop growing past 2^40
 * (far above any limit) instead of overflowing. */
static int parse_dimension(const token_t *t, long *out)
{
    long v = 0;
    if (t->len == 0)
        return -1;
    for (size_t i = 0; i < t->len; i++) {
        if (!is_digit(t->s[i]))
            return -1;
        v = v > (1L << 40) ? v : v * 10 + (t->s[i] - '0');
    }
    *out = v;
    return 0;
}

static int header_dimension(const char *name, const token_t *t, const char *what, long *out,
                            char *err, size_t errlen)
{
    char q[40];
    if (parse_dimension(t, out) != 0)
        return fail(err, errlen, "%s:%d: header: %s must be a non-negative integer, found %s", name,
                    t->line, what, quoted(t, q, sizeof q));
    return 0;
}

/* Sizes are checked on the saturated values but printed from the tokens. */
static int check_size(const char *name, const token_t t[2], long rows, long cols, char *err,
                      size_t errlen)
{
    int w0 = (int)t[0].len, w1 = (int)t[1].len;
    if (rows > RAW_MAX_DIM || cols > RAW_MAX_DIM)
        return fail(err, errlen, "%s:%d: absurd size %.*sx%.*s (each dimension at most %d)", name,
                    t[0].line, w0, t[0].s, w1, t[1].s, RAW_MAX_DIM);
    if (rows * cols > RAW_MAX_ELEMS)
        return fail(err, errlen, "%s:%d: absurd size %ldx%ld (at most %ld elements)", name,
                    t[0].line, rows, cols, RAW_MAX_ELEMS);
    if (rows == 0 || cols == 0)
        return fail(err, errlen, "%s:%d: empty matrix (%ldx%ld)", name, t[0].line, rows, cols);
    return 0;
}

/* nan, -nan, nan(0x7fffff), inf, -infinity ... (any case): what printf
 * writes for non-finite floats. */
static int is_nonfinite_token(const token_t *t)
{
    size_t i = (t->len > 0 && (t->s[0] == '-' || t->s[0] == '+')) ? 1 : 0;
    return t->len >= i + 3 &&
           (strncasecmp(t->s + i, "nan", 3) == 0 || strncasecmp(t->s + i, "inf", 3) == 0);
}

/* A vector's length (libwb's vector files: a header of one number). */
static int check_length(const char *name, const token_t *t, long n, char *err, size_t errlen)
{
    if (n > RAW_MAX_ELEMS)
        return fail(err, errlen, "%s:%d: absurd vector length %.*s (at most %ld elements)", name,
                    t->line, (int)t->len, t->s, RAW_MAX_ELEMS);
    if (n == 0)
        return fail(err, errlen, "%s:%d: empty vector (length 0)", name, t->line);
    return 0;
}

/* Reads the header line: two non-negative integers "rows cols" (a matrix),
 * or one, "n" (a vector: n rows of one column), within limits. *line is the
 * header's line. */
static int parse_header(const char *name, scanner_t *sc, long *rows, long *cols, int *vector,
                        int *line, char *err, size_t errlen)
{
    token_t t[3];
    if (!next_token(sc, &t[0]))
        return fail(err, errlen, "%s:1: empty file (expected a header \"rows cols\", or \"n\" for "
                    "a vector)", name);
    *line = t[0].line;
    int n = 1;
    while (n < 3 && next_token_on_line(sc, &t[n]))
        n++;
    if (n > 2)
        return fail(err, errlen, "%s:%d: header must be \"rows cols\" (or \"n\" for a vector), "
                    "found more than two tokens", name, t[0].line);
    *vector = n == 1;
    *cols = 1;
    if (header_dimension(name, &t[0], *vector ? "the length" : "rows", rows, err, errlen) != 0 ||
        (!*vector && header_dimension(name, &t[1], "cols", cols, err, errlen) != 0))
        return -1;
    /* an empty answer is an answer (of the wrong shape), its sizes within
     * limits all the same (found by fuzz_raw: "0 888888888888" was read as
     * 0 x (int)888888888888) */
    if (sc->solution && (*rows == 0 || *cols == 0) && *rows <= RAW_MAX_DIM && *cols <= RAW_MAX_DIM)
        return 0;
    return *vector ? check_length(name, &t[0], *rows, err, errlen)
                   : check_size(name, t, *rows, *cols, err, errlen);
}

/* ---- values ------------------------------------------------------------------ */

/* A decimal token split into sign, significant digits and a power of ten:
 * value = mantissa * 10^exp10 (exact while digits <= MAX_EXACT_DIGITS). */
typedef struct {
    int negative;
    uint64_t mantissa;
    int digits; /* significant digits, leading zeros excluded */
    long exp10;
} decimal_t;

/* Leading zeros only shift the point; digits past the 15th are counted but
 * dropped (such numbers take the strtof path). */
static void take_digit(decimal_t *d, char c, int fractional)
{
    if (d->digits == 0 && c == '0') {
        d->exp10 -= fractional;
        return;
    }
    if (++d->digits <= MAX_EXACT_DIGITS) {
        d->mantissa = d->mantissa * 10 + (uint64_t)(c - '0');
        d->exp10 -= fractional;
    }
}

/* Digits at s[*i..len) into d; returns how many there were. */
static size_t take_digits(const char *s, size_t *i, size_t len, decimal_t *d, int fractional)
{
    size_t start = *i;
    for (; *i < len && is_digit(s[*i]); (*i)++)
        take_digit(d, s[*i], fractional);
    return *i - start;
}

/* Exponent digits, saturated far beyond any float. */
static size_t take_exponent(const char *s, size_t *i, size_t len, long *exp10)
{
    int negative = *i < len && s[*i] == '-';
    if (*i < len && (s[*i] == '+' || s[*i] == '-'))
        (*i)++;
    size_t start = *i;
    long e = 0;
    for (; *i < len && is_digit(s[*i]); (*i)++)
        e = e > 100000 ? e : e * 10 + (s[*i] - '0');
    *exp10 += negative ? -e : e;
    return *i - start;
}

/* [+-] digits [. digits] [(e|E) [+-] digits], at least one mantissa digit. */
static int scan_decimal(const char *s, size_t len, decimal_t *d)
{
    memset(d, 0, sizeof *d);
    size_t i = 0;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        d->negative = s[i++] == '-';
    size_t mantissa_digits = take_digits(s, &i, len, d, 0);
    if (i < len && s[i] == '.') {
        i++;
        mantissa_digits += take_digits(s, &i, len, d, 1);
    }
    if (mantissa_digits == 0)
        return 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (take_exponent(s, &i, len, &d->exp10) == 0)
            return 0;
    }
    return i == len;
}

/* Clinger's fast path: with at most 15 digits and |exp10| <= 22 both factors
 * are exact doubles, so one multiplication or division gives the correctly
 * rounded double. Rounding that to float is then correct too, unless the
 * double sits exactly on a float midpoint (or in the subnormal range); those
 * rare cases return 0 and go to strtof. */
static int fast_decimal_to_float(const decimal_t *d, float *out)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (d->digits > MAX_EXACT_DIGITS || d->exp10 < -22 || d->exp10 > 22)
        return 0;
    double v = (double)d->mantissa;
    v = d->exp10 < 0 ? v / pow10[-d->exp10] : v * pow10[d->exp10];
    if (v != 0.0 && (v < FLT_MIN || v > FLT_MAX))
        return 0;
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    if ((bits & FLOAT_DROPPED_BITS) == FLOAT_MIDPOINT_BITS)
        return 0;
    *out = d->negative ? -(float)v : (float)v;
    return 1;
}

static int parse_value(const char *name, const token_t *t, float *out, int nonfinite_ok,
                       char *err, size_t errlen)
{
    char q[40];
    decimal_t d;
    if (t->len >= MAX_NUMBER_CHARS)
        return fail(err, errlen, "%s:%d: %s is too long for a number", name, t->line,
                    quoted(t, q, sizeof q));
    if (nonfinite_ok && is_nonfinite_token(t)) {
        char buf[MAX_NUMBER_CHARS];
        memcpy(buf, t->s, t->len);
        buf[t->len] = '\0';
        char *end;
        *out = strtof(buf, &end); /* keeps a NaN's payload: the never-written poison */
        if (*end == '\0')
            return 0;
    }
    if (!scan_decimal(t->s, t->len, &d))
        return fail(err, errlen, "%s:%d: %s is not a finite decimal number", name, t->line,
                    quoted(t, q, sizeof q));
    if (fast_decimal_to_float(&d, out))
        return 0;
    char buf[MAX_NUMBER_CHARS];
    memcpy(buf, t->s, t->len);
    buf[t->len] = '\0';
    float v = strtof(buf, NULL);
    if (!isfinite(v))
        return fail(err, errlen, "%s:%d: %s is out of the float range", name, t->line,
                    quoted(t, q, sizeof q));
    *out = v;
    return 0;
}

/* Parses the values after the header into data (room for every token left
 * in the buffer, up to `expected`). The first surplus value is an error;
 * *count is how many were found, *last_line the line of the last one. */
static int parse_values(const char *name, scanner_t *sc, float *data, long expected, long *count,
                        int *last_line, char *err, size_t errlen)
{
    token_t t;
    long n = 0;
    while (next_token(sc, &t)) {
        if (n == expected)
            return fail(err, errlen, "%s:%d: more than %ld values", name, t.line, expected);
        if (parse_value(name, &t, &data[n], sc->solution, err, errlen) != 0)
            return -1;
        *last_line = t.line;
        n++;
    }
    *count = n;
    return 0;
}

/* The most values the remaining bytes can hold (one digit plus a separator
 * each): bounds the allocation when a tiny file claims a huge matrix. */
static long max_values_in(const scanner_t *sc) { return (long)((sc->end - sc->p) / 2 + 1); }

static int parse_matrix(const char *name, const char *text, size_t len, int solution,
                        matrix_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    scanner_t sc = {text, text + len, 1, solution};
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        sc.p += 3; /* UTF-8 byte order mark from Windows editors */
    long rows, cols;
    int last_line = 1, vector = 0;
    if (parse_header(name, &sc, &rows, &cols, &vector, &last_line, err, errlen) != 0)
        return -1;
    long expected = rows * cols;
    long cap = expected < max_values_in(&sc) ? expected : max_values_in(&sc);
    float *data = malloc((size_t)(cap > 0 ? cap : 1) * sizeof *data);
    if (!data)
        return fail(err, errlen, "%s: out of memory for %ldx%ld values", name, rows, cols);
    long count = 0;
    if (parse_values(name, &sc, data, expected, &count, &last_line, err, errlen) != 0) {
        free(data);
        return -1;
    }
    if (count < expected) {
        free(data);
        return fail(err, errlen, "%s:%d: expected %ld values, found %ld", name, last_line, expected,
                    count);
    }
    out->rows = (int)rows;
    out->cols = (int)cols;
    out->vector = vector;
    out->data = data;
    return 0;
}

int raw_parse(const char *name, const char *text, size_t len, matrix_t *out, char *err,
              size_t errlen)
{
    return parse_matrix(name, text, len, 0, out, err, errlen);
}

static int read_matrix(const char *path, int solution, matrix_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t len = 0;
    char *text = read_file(path, &len, err, errlen);
    if (!text)
        return -1;
    int rc = parse_matrix(path, text, len, solution, out, err, errlen);
    free(text);
    return rc;
}

int raw_read(const char *path, matrix_t *out, char *err, size_t errlen)
{
    return read_matrix(path, 0, out, err, errlen);
}

int raw_read_solution(const char *path, matrix_t *out, char *err, size_t errlen)
{
    return read_matrix(path, 1, out, err, errlen);
}

/* ---- writer ------------------------------------------------------------------ */

/* Refuses what the reader would reject, so every written file reads back. */
static int check_writable(const char *path, const matrix_t *m, int finite_only, char *err, size_t errlen)
{
    if (m->rows <= 0 || m->cols <= 0)
        return fail(err, errlen, "%s: refusing to write an empty matrix (%dx%d)", path, m->rows,
                    m->cols);
    if ((m->vector && (m->cols != 1 || (long)m->rows > RAW_MAX_ELEMS)) ||
        (!m->vector && (m->rows > RAW_MAX_DIM || m->cols > RAW_MAX_DIM ||
                        (long)m->rows * m->cols > RAW_MAX_ELEMS)))
        return fail(err, errlen, "%s: refusing to write an absurd size %dx%d%s", path, m->rows,
                    m->cols, m->vector ? " (vector)" : "");
    for (long i = 0; finite_only && i < (long)m->rows * m->cols; i++)
        if (!isfinite(m->data[i]))
            return fail(err, errlen,
                        "%s: row %ld, column %ld is not finite (.raw files hold finite numbers)",
                        path, i / m->cols, i % m->cols);
    return 0;
}

/* The shortest %g text (at most 9 significant digits, which always suffice)
 * that reads back as exactly v: "0.1" rather than "0.100000001". */
static size_t format_shortest(float v, char *buf, size_t len)
{
    int n = 0;
    if (isnan(v)) { /* as raw_read_solution reads it back, its payload kept: the poison survives */
        uint32_t bits;
        memcpy(&bits, &v, sizeof bits);
        return (size_t)snprintf(buf, len, "%snan(0x%x)", bits >> 31 ? "-" : "", (unsigned)(bits & 0x7fffffu));
    }
    if (isinf(v))
        return (size_t)snprintf(buf, len, "%sinf", v < 0 ? "-" : "");
    for (int digits = 1; digits <= 9; digits++) {
        n = snprintf(buf, len, "%.*g", digits, (double)v);
        if (strtof(buf, NULL) == v)
            break;
    }
    return (size_t)n;
}

static int write_matrix(const char *path, const matrix_t *m, int finite_only, char *err, size_t errlen)
{
    if (check_writable(path, m, finite_only, err, errlen) != 0)
        return -1;
    strbuf_t sb = {0};
    if (m->vector)
        sb_appendf(&sb, "%d\n", m->rows);
    else
        sb_appendf(&sb, "%d %d\n", m->rows, m->cols);
    char num[32];
    for (int r = 0; r < m->rows; r++) {
        const float *row = m->data + (size_t)r * m->cols;
        for (int c = 0; c < m->cols; c++) {
            size_t n = format_shortest(row[c], num, sizeof num);
            num[n++] = c + 1 < m->cols ? ' ' : '\n';
            sb_appendn(&sb, num, n);
        }
    }
    int rc = write_file_atomic(path, sb_str(&sb), sb.len, err, errlen);
    sb_free(&sb);
    return rc;
}

int raw_write(const char *path, const matrix_t *m, char *err, size_t errlen)
{
    return write_matrix(path, m, 1, err, errlen);
}

int raw_write_solution(const char *path, const matrix_t *m, char *err, size_t errlen)
{
    return write_matrix(path, m, 0, err, errlen);
}

void matrix_free(matrix_t *m)
{
    if (!m)
        return;
    free(m->data);
    m->data = NULL;
    m->rows = m->cols = 0;
}
