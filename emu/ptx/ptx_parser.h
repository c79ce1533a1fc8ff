/* ptx_parser.h - the parser's state, shared by its two files (internal
 * to emu/ptx/): ptx_parse.cpp reads the module and each kernel's
 * declarations, ptx_parse_insn.cpp its instructions and their operands. */
#ifndef CUGRADE_PTX_PARSER_H
#define CUGRADE_PTX_PARSER_H

#include "ptx_lex.h"

#include <map>
#include <string>
#include <vector>

namespace ptx {

class Parser {
  public:
    Parser(std::vector<Tok> &t, Module &m) : toks(t), mod(m) {}
    bool module(std::string &err);

  private:
    std::vector<Tok> &toks;
    Module &mod;
    size_t at = 0;
    std::string error;
    Function *fn = nullptr;
    uint32_t cur_line = 0;
    uint16_t cur_file = 0;
    std::vector<std::map<std::string, int32_t>> scopes; /* nested blocks: what each shadows */

    const Tok &peek(size_t k = 0) const { return toks[std::min(at + k, toks.size() - 1)]; }
    const Tok &next() { return toks[at < toks.size() - 1 ? at++ : at]; }
    bool is(const char *text, size_t k = 0) const { return peek(k).text == text && peek(k).kind != Tok::String; }
    bool fail(const std::string &what)
    {
        if (error.empty())
            error = "line " + std::to_string(peek().line) + ": " + what;
        return false;
    }
    bool expect(const char *text)
    {
        if (!is(text))
            return fail(std::string("expected '") + text + "', found '" + peek().text + "'");
        next();
        return true;
    }
    bool uint_word(uint32_t &v, uint32_t max)
    {
        int64_t n;
        if (peek().kind != Tok::Word || !number_of(peek().text, n) || n < 0 || n > max)
            return fail("expected a number up to " + std::to_string(max) + ", found '" + peek().text + "'");
        next();
        v = (uint32_t)n;
        return true;
    }
    void skip_line(int line)
    {
        while (peek().kind != Tok::End && peek().line == line)
            next();
    }
    bool skip_statement()
    {
        while (!is(";") && peek().kind != Tok::End)
            next();
        return expect(";");
    }
    bool entry(bool is_entry);
    bool module_var(Space space);
    bool extern_shared(Var &v);
    bool var_attributes(Var &v, uint32_t &elem, bool linkage);
    bool param_list();
    bool body();
    bool reg_decl();
    bool var_decl(Space space, bool is_extern);
    bool instruction();
    bool operand(Insn &in, Operand &o, bool is_target);
    bool vector(Operand &o);
    bool call(Insn &in, const std::string &opcode);
    bool address(Operand &o);
    bool symbol(const std::string &name, Operand &o);
    bool resolve_labels();
};

/* names[i] == w: i, else -1 */
int index_of(const std::string &w, const char *const *names, int n);

} // namespace ptx

#endif
