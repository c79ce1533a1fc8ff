/* wb_raw.h - part of labs/common/wb.h (include that, not this): libwb's
 * .raw file format for wbImport and wbSolution. Reading (a header of "rows
 * cols", or one number for a vector; values as course files write them,
 * "4." included; errors name the file and line), writing (every float round
 * trips, the never-written poison included), and libwb's element test. Uses
 * wb.h's internals (concat, kMaxElements). */
#ifndef CUGRADE_WB_RAW_H
#define CUGRADE_WB_RAW_H

#ifndef CUGRADE_WB_H
#error "include wb.h, not wb_raw.h"
#endif

namespace cugrade_wb {

struct raw_file {
    int rows = 0, cols = 0;
    bool vector_header = false; /* the header held one number: a vector (cols = 1) */
    float *data = NULL;         /* malloc'd, rows * cols floats */
};

struct scanner {
    const char *p, *end;
    int line; /* of the current position, 1-based */
};

static inline bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Skips whitespace; with stop_at_newline it stops just after a '\n' and
 * returns true. */
static inline bool skip_space(scanner &sc, bool stop_at_newline)
{
    while (sc.p < sc.end && is_space(*sc.p)) {
        if (*sc.p++ == '\n') {
            sc.line++;
            if (stop_at_newline)
                return true;
        }
    }
    return false;
}

/* The next whitespace-separated token; false at the end of the buffer. */
static inline bool next_token(scanner &sc, std::string &tok, int &line)
{
    skip_space(sc, false);
    if (sc.p >= sc.end)
        return false;
    const char *start = sc.p;
    while (sc.p < sc.end && !is_space(*sc.p))
        sc.p++;
    tok.assign(start, size_t(sc.p - start));
    line = sc.line;
    return true;
}

static inline std::string quoted(const std::string &tok)
{
    std::string q = tok.size() > 40 ? tok.substr(0, 40) + "..." : tok;
    for (char &c : q)
        if ((unsigned char)c < 0x20 || c == 0x7f)
            c = '?';
    return "'" + q + "'";
}

/* A header field: a non-negative decimal integer. */
static inline bool parse_dimension(const std::string &tok, long &out)
{
    size_t i = tok[0] == '+' ? 1 : 0;
    if (i == tok.size())
        return false;
    long v = 0;
    for (; i < tok.size(); i++) {
        if (tok[i] < '0' || tok[i] > '9')
            return false;
        v = v * 10 + (tok[i] - '0');
        if (v > kMaxElements)
            v = kMaxElements + 1; /* saturate: "too large" below */
    }
    out = v;
    return true;
}

/* A value: the whole token must be a number as strtof reads it ("4.",
 * "-0.5", "1e-3", "inf", "nan(0x7fffff)", ...). */
static inline bool parse_value(const std::string &tok, float &out, std::string &why)
{
    if (tok.size() > 100) {
        why = "is too long for a number";
        return false;
    }
    char *end = NULL;
    errno = 0;
    float v = strtof(tok.c_str(), &end);
    if (end == tok.c_str() || *end != '\0') {
        why = "is not a number";
        return false;
    }
    if (errno == ERANGE && std::isinf(v)) {
        why = "is out of the float range";
        return false;
    }
    out = v;
    return true;
}

/* Parses a libwb .raw file. On failure returns false and sets err to
 * "path:line: message" (and errno_open to the fopen errno when the file
 * could not be opened at all). */
static inline bool read_raw(const char *path, raw_file &out, std::string &err, int *errno_open = NULL)
{
    if (errno_open)
        *errno_open = 0;
    if (!path) {
        err = "no file name (is an input missing from -i?)";
        return false;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        if (errno_open)
            *errno_open = e;
        err = concat(path, ": cannot open: ", strerror(e));
        return false;
    }
    std::string text;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        text.append(buf, n);
    bool read_error = ferror(f) != 0;
    fclose(f);
    if (read_error) {
        err = concat(path, ": read error");
        return false;
    }

    scanner sc = {text.data(), text.data() + text.size(), 1};
    /* The header: the first non-blank line, one number (a vector) or two
     * ("rows cols"). */
    skip_space(sc, false);
    if (sc.p >= sc.end) {
        err = concat(path, ":", sc.line, ": empty file (expected a header \"rows cols\", or \"n\" for a vector)");
        return false;
    }
    int header_line = sc.line;
    std::vector<std::string> header;
    while (sc.p < sc.end) {
        const char *start = sc.p;
        while (sc.p < sc.end && !is_space(*sc.p))
            sc.p++;
        header.emplace_back(start, size_t(sc.p - start));
        if (skip_space(sc, true))
            break;
    }
    if (header.size() > 2) {
        err = concat(path, ":", header_line, ": the header must be \"rows cols\" (or \"n\" for a vector), found ",
                     header.size(), " fields");
        return false;
    }
    long dims[2] = {0, 1};
    for (size_t i = 0; i < header.size(); i++) {
        if (!parse_dimension(header[i], dims[i])) {
            err = concat(path, ":", header_line, ": header: ", quoted(header[i]),
                         " is not a non-negative integer (the first line must be \"rows cols\", or \"n\" for a vector)");
            return false;
        }
    }
    if (dims[0] > kMaxElements || dims[1] > kMaxElements || dims[0] * dims[1] > kMaxElements) {
        err = concat(path, ":", header_line, ": absurd size in the header (at most ", kMaxElements, " values)");
        return false;
    }
    long expected = dims[0] * dims[1];
    float *data = (float *)malloc(size_t(expected > 0 ? expected : 1) * sizeof(float));
    if (!data) {
        err = concat(path, ": out of memory for ", expected, " values");
        return false;
    }

    std::string tok, why;
    int line = header_line, last_line = header_line;
    long count = 0;
    while (next_token(sc, tok, line)) {
        if (count == expected) {
            free(data);
            err = concat(path, ":", line, ": more than the ", expected, " values the header announces (",
                         header.size() == 1 ? concat(dims[0]) : concat(dims[0], " x ", dims[1]), ")");
            return false;
        }
        if (!parse_value(tok, data[count], why)) {
            free(data);
            err = concat(path, ":", line, ": ", quoted(tok), " ", why, " (value ", count + 1, " of ", expected, ")");
            return false;
        }
        last_line = line;
        count++;
    }
    if (count < expected) {
        free(data);
        err = concat(path, ":", last_line, ": expected ", expected, " values after the header (",
                     header.size() == 1 ? concat(dims[0]) : concat(dims[0], " x ", dims[1]), "), found only ",
                     count);
        return false;
    }
    out.rows = int(dims[0]);
    out.cols = int(dims[1]);
    out.vector_header = header.size() == 1;
    out.data = data;
    return true;
}

/* One value as written to an output file: finite values as %.9g (reads back
 * as the same float), infinities as inf/-inf, and NaNs with their payload,
 * e.g. the poison 0xFFFFFFFF as -nan(0x7fffff), which strtof reads back bit
 * for bit (every quiet NaN does). */
static inline int format_value(char *buf, size_t len, float v)
{
    if (std::isnan(v)) {
        uint32_t bits;
        memcpy(&bits, &v, sizeof bits);
        return snprintf(buf, len, "%snan(0x%x)", (bits >> 31) ? "-" : "", (unsigned)(bits & 0x7fffffu));
    }
    if (std::isinf(v))
        return snprintf(buf, len, "%s", v < 0 ? "-inf" : "inf");
    return snprintf(buf, len, "%.9g", (double)v);
}

/* Writes rows x cols floats in libwb .raw form: "rows cols" (or "rows" when
 * vector) then one row per line. */
static inline bool write_raw(const char *path, const float *data, int rows, int cols, bool vector,
                             std::string &err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        err = concat(path, ": cannot create the output file: ", strerror(errno));
        return false;
    }
    std::string out = vector ? concat(rows, "\n") : concat(rows, " ", cols, "\n");
    char num[48];
    bool ok = true;
    for (long r = 0; r < rows && ok; r++) {
        for (long c = 0; c < cols; c++) {
            int n = format_value(num, sizeof num, data[r * cols + c]);
            out.append(num, size_t(n));
            out.push_back(c + 1 < cols ? ' ' : '\n');
        }
        if (out.size() >= (1u << 20) || r + 1 == rows) {
            ok = fwrite(out.data(), 1, out.size(), f) == out.size();
            out.clear();
        }
    }
    if (rows <= 0 && ok)
        ok = fwrite(out.data(), 1, out.size(), f) == out.size();
    if (fclose(f) != 0)
        ok = false;
    if (!ok)
        err = concat(path, ": cannot write the output file: ", strerror(errno));
    return ok;
}

static inline bool is_poison(float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits == 0xFFFFFFFFu;
}

/* libwb's element test: absolute tolerance 0.2 (strictly below it when
 * either side is exactly 0). A NaN never matches. */
static inline bool libwb_equal(float expected, float got)
{
    const double eps = 0.2;
    double e = expected, g = got;
    if (e == 0)
        return std::fabs(g) < eps;
    if (g == 0)
        return std::fabs(e) < eps;
    return std::fabs(e - g) <= eps;
}

} // namespace cugrade_wb

#endif
