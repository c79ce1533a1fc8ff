/* ptx_lex.h - the words of PTX, for the parser (internal to emu/ptx/):
 * tokens (words with their dots, punctuation, strings), and what a word
 * names. Each lookup returns false for a word it does not know. */
#ifndef CUGRADE_PTX_LEX_H
#define CUGRADE_PTX_LEX_H

#include "ptx_module.h"

#include <string>
#include <vector>

namespace ptx {

struct Tok {
    enum Kind { Word, Punct, String, End } kind;
    std::string text;
    int line;
};

/* s into tokens, ending with an End token; false with err ("line N: ...") */
bool lex(const std::string &s, std::vector<Tok> &out, std::string &err);

bool type_of(const std::string &w, Type &t);     /* "b32", "f32", "pred" */
bool space_of(const std::string &w, Space &s);   /* "global", "shared", ... */
bool cmp_of(const std::string &w, Cmp &c);       /* "lt", "geu", ... */
bool op_of(const std::string &w, Op &op);        /* "ld", "fma", ... */
bool special_of(const std::string &w, uint8_t &sp); /* "%tid.x", ... */

/* A number of PTX: decimal, 0x hex, 0f (f32 bits), 0d (f64 bits), with an
 * optional U suffix. */
bool number_of(const std::string &w, int64_t &v);

inline uint32_t align_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

} // namespace ptx

#endif
