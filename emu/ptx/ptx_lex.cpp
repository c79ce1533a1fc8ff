/* ptx_lex.cpp - the words of PTX (ptx_lex.h): the lexer, and the names
 * of types, state spaces, comparisons, opcodes and special registers, and
 * numbers as PTX writes them. */
#include "ptx_lex.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace ptx {

static bool word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || c == '%' || c == '.';
}

bool lex(const std::string &s, std::vector<Tok> &out, std::string &err)
{
    int line = 1;
    for (size_t i = 0; i < s.size();) {
        char c = s[i];
        if (c == '\n') {
            line++, i++;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            i++;
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            while (i < s.size() && s[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            size_t end = s.find("*/", i + 2);
            if (end == std::string::npos) {
                err = "line " + std::to_string(line) + ": unterminated comment";
                return false;
            }
            for (size_t k = i; k < end; k++)
                line += s[k] == '\n';
            i = end + 2;
        } else if (c == '"') {
            size_t end = s.find('"', i + 1);
            if (end == std::string::npos || s.find('\n', i) < end) {
                err = "line " + std::to_string(line) + ": unterminated string";
                return false;
            }
            out.push_back({Tok::String, s.substr(i + 1, end - i - 1), line});
            i = end + 1;
        } else if (word_char(c)) {
            size_t j = i;
            while (j < s.size() && word_char(s[j]))
                j++;
            out.push_back({Tok::Word, s.substr(i, j - i), line});
            i = j;
        } else if (strchr(",;:[]{}()+-<>@!|=", c)) {
            out.push_back({Tok::Punct, std::string(1, c), line});
            i++;
        } else {
            err = "line " + std::to_string(line) + ": unexpected character '" + std::string(1, c) + "'";
            return false;
        }
    }
    out.push_back({Tok::End, "", line});
    return true;
}

/* "b32", "f32", "pred": the type, or false. */
bool type_of(const std::string &w, Type &t)
{
    if (w == "pred") {
        t = {Kind::Pred, 1};
        return true;
    }
    if (w.size() < 2)
        return false;
    Kind k = w[0] == 'b' ? Kind::Bits : w[0] == 'u' ? Kind::Unsigned : w[0] == 's' ? Kind::Signed
             : w[0] == 'f' ? Kind::Float : Kind::None;
    int bits = atoi(w.c_str() + 1);
    if (k == Kind::None || std::to_string(bits) != w.substr(1))
        return false;
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
        return false;
    if (k == Kind::Float && bits == 8)
        return false;
    t = {k, (uint8_t)bits};
    return true;
}

bool space_of(const std::string &w, Space &s)
{
    static const std::pair<const char *, Space> names[] = {
        {"global", Space::Global}, {"shared", Space::Shared}, {"local", Space::Local},
        {"param", Space::Param},   {"const", Space::Const}};
    for (const auto &n : names)
        if (w == n.first) {
            s = n.second;
            return true;
        }
    return false;
}

bool cmp_of(const std::string &w, Cmp &c)
{
    static const char *const names[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",
                                        "lo",  "ls",  "hi",  "hs",  "equ", "neu",
                                        "ltu", "leu", "gtu", "geu", "num", "nan"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (w == names[i]) {
            c = (Cmp)i;
            return true;
        }
    return false;
}

bool op_of(const std::string &w, Op &op)
{
    static const std::pair<const char *, Op> names[] = {
        {"ld", Op::Ld},     {"st", Op::St},     {"mov", Op::Mov},   {"cvta", Op::Cvta},
        {"cvt", Op::Cvt},   {"add", Op::Add},   {"sub", Op::Sub},   {"mul", Op::Mul},
        {"mad", Op::Mad},   {"fma", Op::Fma},   {"div", Op::Div},   {"rem", Op::Rem},
        {"min", Op::Min},   {"max", Op::Max},   {"abs", Op::Abs},   {"neg", Op::Neg},
        {"and", Op::And},   {"or", Op::Or},     {"xor", Op::Xor},   {"not", Op::Not},
        {"shl", Op::Shl},   {"shr", Op::Shr},   {"setp", Op::Setp}, {"selp", Op::Selp},
        {"bra", Op::Bra},   {"bar", Op::Bar},   {"ret", Op::Ret},   {"exit", Op::Exit},
        {"sqrt", Op::Sqrt}, {"rsqrt", Op::Rsqrt}, {"rcp", Op::Rcp}, {"atom", Op::Atom},
        {"red", Op::Red},   {"shfl", Op::Shfl}, {"vote", Op::Vote}, {"activemask", Op::Activemask},
        {"membar", Op::Nop}, {"fence", Op::Nop}, {"ex2", Op::Ex2},     {"lg2", Op::Lg2},
        {"sin", Op::Sin},   {"cos", Op::Cos},   {"tanh", Op::Tanh}, {"popc", Op::Popc},
        {"clz", Op::Clz},   {"brev", Op::Brev}, {"bfe", Op::Bfe},   {"bfi", Op::Bfi},
        {"call", Op::Call}, {"shf", Op::Shf},   {"prmt", Op::Prmt}, {"sad", Op::Sad},
        {"bfind", Op::Bfind}, {"copysign", Op::Copysign}};
    for (const auto &n : names)
        if (w == n.first) {
            op = n.second;
            return true;
        }
    return false;
}

bool special_of(const std::string &w, uint8_t &sp)
{
    static const char *const names[] = {"%tid.x",    "%tid.y",    "%tid.z",   "%ntid.x",
                                        "%ntid.y",   "%ntid.z",   "%ctaid.x", "%ctaid.y",
                                        "%ctaid.z",  "%nctaid.x", "%nctaid.y", "%nctaid.z",
                                        "%laneid",   "WARP_SZ",   "%clock",   "%clock64",
                                        "%globaltimer", "%smid",  "%nsmid",   "%warpid",
                                        "%nwarpid"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (w == names[i]) {
            sp = (uint8_t)i;
            return true;
        }
    return false;
}

bool number_of(const std::string &w, int64_t &v)
{
    if (w.empty() || !(w[0] >= '0' && w[0] <= '9'))
        return false;
    std::string s = w;
    if (s.size() > 1 && (s.back() == 'U' || s.back() == 'u'))
        s.pop_back();
    char *end = nullptr;
    errno = 0;
    if (s.size() == 10 && (s[1] == 'f' || s[1] == 'F') && s[0] == '0')
        v = (int64_t)strtoull(s.c_str() + 2, &end, 16);
    else if (s.size() == 18 && (s[1] == 'd' || s[1] == 'D') && s[0] == '0')
        v = (int64_t)strtoull(s.c_str() + 2, &end, 16);
    else if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        v = (int64_t)strtoull(s.c_str() + 2, &end, 16);
    else
        v = (int64_t)strtoull(s.c_str(), &end, 10);
    return errno == 0 && end && *end == '\0';
}


} // namespace ptx
