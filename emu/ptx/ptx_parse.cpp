/* ptx_parse.cpp - PTX text into a ptx::Module (ptx_module.h): a lexer of
 * words (opcodes with their dots, registers, labels, numbers) and
 * punctuation, then the module's directives and each kernel's declarations
 * and instructions. The text is hostile (inline asm lands in it): every
 * number is range-checked, every name looked up, and anything the executor
 * does not know is an error naming its line, never a guess. */
#include "ptx_lex.h"

#include <cstdlib>
#include <cstring>

namespace ptx {
namespace {

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
    bool param_list();
    bool body();
    bool reg_decl();
    bool var_decl(Space space, bool is_extern);
    bool instruction();
    bool operand(Insn &in, Operand &o, bool is_target);
    bool address(Operand &o);
    bool symbol(const std::string &name, Operand &o);
    bool resolve_labels();
};

bool Parser::module(std::string &err)
{
    while (peek().kind != Tok::End) {
        const std::string &w = peek().text;
        if (w == ".version" || w == ".target" || w == ".address_size") {
            skip_line(next().line);
        } else if (w == ".file") {
            next();
            uint32_t n;
            if (!uint_word(n, 65535) || peek().kind != Tok::String)
                break;
            mod.files[(uint16_t)n] = next().text;
            while (is(","))
                next(), next();
        } else if (w == ".visible" || w == ".weak") {
            next();
        } else if (w == ".entry" || w == ".func") {
            next();
            if (!entry(w == ".entry"))
                break;
        } else {
            fail("'" + w + "' at the module's level is not supported by the executor");
            break;
        }
    }
    err = error;
    return error.empty();
}

bool Parser::entry(bool is_entry)
{
    if (!is_entry)
        return fail(".func (a device function not inlined) is not supported by the executor yet");
    if (peek().kind != Tok::Word)
        return fail("expected the kernel's name");
    mod.functions.emplace_back();
    fn = &mod.functions.back();
    fn->name = next().text;
    fn->is_entry = true;
    if (is("(") && !param_list())
        return false;
    while (peek().kind == Tok::Word && peek().text[0] == '.') { /* .maxntid 256, 1, 1 ... */
        next();
        while (peek().kind == Tok::Word && peek().text[0] != '.')
            if (next(), is(","))
                next();
    }
    return body() && resolve_labels();
}

bool Parser::param_list()
{
    expect("(");
    while (!is(")")) {
        if (!expect(".param"))
            return false;
        Param p;
        Type t;
        while (peek().kind == Tok::Word && peek().text[0] == '.') {
            std::string d = next().text.substr(1);
            if (d == "align") {
                if (!uint_word(p.align, 4096))
                    return false;
            } else if (type_of(d, t)) {
                p.size = t.bits / 8;
            } else if (d != "ptr" && d != "global" && d != "shared" && d != "const" && d != "local") {
                return fail("unknown .param attribute '." + d + "'");
            }
        }
        if (peek().kind != Tok::Word)
            return fail("expected a parameter's name");
        p.name = next().text;
        if (is("[")) { /* .param .align 8 .b8 name[24]: a struct by value */
            next();
            uint32_t n;
            if (!uint_word(n, 1 << 16) || !expect("]"))
                return false;
            p.size *= n;
        }
        if (p.size == 0)
            return fail("parameter '" + p.name + "' has no size");
        if (p.align < p.size && p.size <= 8)
            p.align = p.size;
        p.offset = align_up(fn->param_bytes, p.align);
        fn->param_bytes = p.offset + p.size;
        if (fn->param_bytes > 32764)
            return fail("the kernel's parameters exceed 32764 bytes");
        fn->params.push_back(p);
        if (is(","))
            next();
        else if (!is(")"))
            return fail("expected ',' or ')' in the parameter list");
    }
    next();
    return true;
}

bool Parser::body()
{
    if (!expect("{"))
        return false;
    while (!is("}")) {
        const Tok &t = peek();
        if (t.kind == Tok::End)
            return fail("the kernel '" + fn->name + "' has no closing '}'");
        if (t.text == ".reg") {
            if (!reg_decl())
                return false;
        } else if (t.text == ".shared" || t.text == ".local") {
            next();
            if (!var_decl(t.text == ".shared" ? Space::Shared : Space::Local, false))
                return false;
        } else if (t.text == ".extern" && is(".shared", 1)) {
            next(), next();
            if (!var_decl(Space::Shared, true))
                return false;
        } else if (t.text == ".loc") {
            int loc_line = next().line;
            uint32_t file, line, col;
            if (!uint_word(file, 65535) || !uint_word(line, 1u << 30) || !uint_word(col, 1u << 30))
                return false;
            cur_file = (uint16_t)file, cur_line = line;
            skip_line(loc_line); /* ", function_name $L__info_string0, inlined_at 1 9 2" */
        } else if (t.text == ".pragma") {
            if (!skip_statement())
                return false;
        } else if (t.kind == Tok::Word && is(":", 1)) { /* a label */
            std::string name = next().text;
            next();
            for (size_t i = 0; i < fn->label_names.size(); i++)
                if (fn->label_names[i] == name) {
                    if (fn->labels[i] >= 0)
                        return fail("label '" + name + "' defined twice");
                    fn->labels[i] = (int32_t)fn->code.size();
                    name.clear();
                    break;
                }
            if (!name.empty()) {
                fn->label_names.push_back(name);
                fn->labels.push_back((int32_t)fn->code.size());
            }
        } else if (t.text == "{" || t.text == "}") {
            return fail("nested blocks ({ }) are not supported by the executor");
        } else if (!instruction()) {
            return false;
        }
    }
    next();
    if (fn->code.empty() || (fn->code.back().op != Op::Ret && fn->code.back().op != Op::Exit)) {
        Insn ret{};
        ret.op = Op::Ret;
        ret.line = cur_line, ret.file = cur_file;
        fn->code.push_back(ret);
    }
    return true;
}

bool Parser::reg_decl()
{
    next();
    Type t;
    if (peek().kind != Tok::Word || peek().text[0] != '.' || !type_of(peek().text.substr(1), t))
        return fail("expected a register type after .reg");
    next();
    for (;;) {
        if (peek().kind != Tok::Word || peek().text[0] != '%')
            return fail("expected a register name");
        std::string name = next().text;
        uint32_t n = 0;
        bool ranged = is("<");
        if (ranged && (next(), !uint_word(n, 1 << 20) || !expect(">")))
            return false;
        for (uint32_t i = 0; i < (ranged ? n : 1); i++) {
            std::string r = ranged ? name + std::to_string(i) : name;
            if (fn->regs.count(r))
                return fail("register '" + r + "' declared twice");
            if (fn->nregs >= (1 << 22))
                return fail("too many registers");
            fn->regs[r] = fn->nregs++;
        }
        if (!is(","))
            break;
        next();
    }
    return expect(";");
}

bool Parser::var_decl(Space space, bool is_extern)
{
    Var v;
    v.space = space;
    v.is_extern = is_extern;
    Type t;
    uint32_t elem = 0;
    while (peek().kind == Tok::Word && peek().text[0] == '.') {
        std::string d = next().text.substr(1);
        if (d == "align") {
            if (!uint_word(v.align, 4096))
                return false;
        } else if (type_of(d, t)) {
            elem = t.bits / 8;
        } else {
            return fail("unknown attribute '." + d + "'");
        }
    }
    if (peek().kind != Tok::Word || elem == 0)
        return fail("expected a typed variable");
    v.name = next().text;
    uint32_t count = 1;
    if (is("[")) {
        next();
        if (is("]")) {
            if (!is_extern)
                return fail("'" + v.name + "[]' without .extern");
            count = 0;
        } else if (!uint_word(count, 1u << 30)) {
            return false;
        }
        if (!expect("]"))
            return false;
    }
    if (!expect(";"))
        return false;
    if (v.align < elem)
        v.align = elem;
    v.size = elem * count;
    uint32_t &bytes = space == Space::Shared ? fn->shared_bytes : fn->local_bytes;
    if (!is_extern) {
        v.offset = align_up(bytes, v.align);
        if ((uint64_t)v.offset + v.size > (1u << 30))
            return fail("'" + v.name + "' is too large");
        bytes = v.offset + v.size;
    }
    if (space == Space::Shared && v.align > fn->shared_align)
        fn->shared_align = v.align;
    fn->vars.push_back(v);
    return true;
}

bool Parser::instruction()
{
    Insn in{};
    in.line = cur_line, in.file = cur_file;
    if (is("@")) {
        next();
        if (is("!"))
            next(), in.guard_neg = true;
        auto r = fn->regs.find(peek().text);
        if (r == fn->regs.end())
            return fail("unknown predicate '" + peek().text + "'");
        in.guard = r->second;
        next();
    }
    if (peek().kind != Tok::Word)
        return fail("expected an instruction, found '" + peek().text + "'");
    std::string opcode = next().text;
    std::vector<std::string> parts;
    for (size_t s = 0, e; s <= opcode.size(); s = e + 1) {
        e = opcode.find('.', s);
        if (e == std::string::npos)
            e = opcode.size();
        parts.push_back(opcode.substr(s, e - s));
    }
    if (!op_of(parts[0], in.op))
        return fail("the instruction '" + opcode + "' is not supported by the executor");
    int ntypes = 0;
    for (size_t i = 1; i < parts.size(); i++) {
        const std::string &p = parts[i];
        Type t;
        Space sp;
        Cmp c;
        if (type_of(p, t)) {
            (ntypes++ == 0 ? in.type : in.type2) = t;
        } else if (space_of(p, sp)) {
            in.space = sp;
        } else if (in.op == Op::Setp && !in.has_bool_op && cmp_of(p, c) && i == 1) {
            in.cmp = c;
        } else if (in.op == Op::Setp && (p == "and" || p == "or" || p == "xor")) {
            in.has_bool_op = true;
            in.bool_op = p == "and" ? Op::And : p == "or" ? Op::Or : Op::Xor;
        } else if (p == "lo") { in.mods |= MOD_LO;
        } else if (p == "hi") { in.mods |= MOD_HI;
        } else if (p == "wide") { in.mods |= MOD_WIDE;
        } else if (p == "sat") { in.mods |= MOD_SAT;
        } else if (p == "ftz") { in.mods |= MOD_FTZ;
        } else if (p == "approx" || p == "full") { in.mods |= MOD_APPROX;
        } else if (p == "to") { in.mods |= MOD_TO;
        } else if (p == "uni") { in.mods |= MOD_UNI;
        } else if (p == "rn") { in.mods |= MOD_RN;
        } else if (p == "rz") { in.mods |= MOD_RZ;
        } else if (p == "rm") { in.mods |= MOD_RM;
        } else if (p == "rp") { in.mods |= MOD_RP;
        } else if (p == "rni") { in.mods |= MOD_RNI;
        } else if (p == "rzi") { in.mods |= MOD_RZI;
        } else if (p == "rmi") { in.mods |= MOD_RMI;
        } else if (p == "rpi") { in.mods |= MOD_RPI;
        } else if ((in.op == Op::Bar && (p == "sync" || p == "cta" || p == "aligned")) ||
                   (in.op == Op::Ld && (p == "nc" || p == "volatile" || p == "ca" || p == "cg" || p == "cs" ||
                                        p == "lu" || p == "cv" || p == "weak")) ||
                   (in.op == Op::St && (p == "wb" || p == "volatile" || p == "cg" || p == "cs" || p == "wt" ||
                                        p == "weak"))) {
            /* cache and ordering hints: the same result here */
        } else {
            return fail("'" + opcode + "': '." + p + "' is not supported by the executor");
        }
    }
    if (in.op == Op::Bar && (in.type.kind != Kind::None))
        return fail("'" + opcode + "' is not supported by the executor");
    while (!is(";")) {
        if (in.nops == 4)
            return fail("too many operands for '" + opcode + "'");
        bool target = in.op == Op::Bra;
        if (!operand(in, in.ops[in.nops], target))
            return false;
        in.nops++;
        if (is(","))
            next();
        else if (!is(";"))
            return fail("expected ',' or ';' after an operand of '" + opcode + "'");
    }
    next();
    static const uint8_t wanted[] = {2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 3, 3, 3, 3, 2, 2,
                                     3, 3, 3, 2, 3, 3, 3, 4, 1, 1, 0, 0, 2, 2, 2};
    uint8_t want = wanted[(int)in.op];
    if (in.op == Op::Setp && in.has_bool_op)
        want = 4;
    if (in.op == Op::Bar && in.nops == 2)
        want = 2;
    if (in.nops != want)
        return fail("'" + opcode + "' takes " + std::to_string(want) + " operands, not " +
                    std::to_string(in.nops));
    if (in.op != Op::Bra && in.op != Op::Bar && in.op != Op::Ret && in.op != Op::Exit &&
        in.type.kind == Kind::None)
        return fail("'" + opcode + "' has no type");
    fn->code.push_back(in);
    return true;
}

bool Parser::symbol(const std::string &name, Operand &o)
{
    for (const Var &v : fn->vars)
        if (v.name == name) {
            o.imm += v.is_extern ? align_up(fn->shared_bytes, v.align) : v.offset;
            o.sym_space = v.space;
            return true;
        }
    for (const Param &p : fn->params)
        if (p.name == name) {
            o.imm += p.offset;
            o.sym_space = Space::Param;
            return true;
        }
    return fail("unknown name '" + name + "'");
}

bool Parser::address(Operand &o)
{
    next(); /* [ */
    o.kind = Operand::Addr;
    bool have_base = false;
    for (bool negative = false;; negative = false) {
        if (is("-") || is("+")) {
            negative = next().text == "-";
        }
        const Tok &t = peek();
        int64_t n;
        if (t.kind != Tok::Word)
            return fail("expected an address, found '" + t.text + "'");
        if (number_of(t.text, n)) {
            o.imm += negative ? -n : n;
        } else if (negative || have_base) {
            return fail("an address has one register or name, then offsets");
        } else if (t.text[0] == '%') {
            auto r = fn->regs.find(t.text);
            if (r == fn->regs.end())
                return fail("unknown register '" + t.text + "'");
            o.reg = r->second;
            have_base = true;
        } else {
            if (!symbol(t.text, o))
                return false;
            have_base = true;
        }
        next();
        if (is("]"))
            break;
        if (!is("+") && !is("-"))
            return fail("expected '+', '-' or ']' in an address");
    }
    next();
    return true;
}

bool Parser::operand(Insn &in, Operand &o, bool is_target)
{
    (void)in;
    const Tok &t = peek();
    if (t.text == "[")
        return address(o);
    if (t.text == "{")
        return fail("vector operands ({...}) are not supported by the executor yet");
    bool negative = false;
    if (t.text == "-") {
        next();
        negative = true;
    }
    const Tok &w = peek();
    if (w.kind != Tok::Word)
        return fail("expected an operand, found '" + w.text + "'");
    int64_t n;
    uint8_t sp;
    if (number_of(w.text, n)) {
        o.kind = Operand::Imm;
        o.imm = negative ? -n : n;
    } else if (negative) {
        return fail("'-' before '" + w.text + "'");
    } else if (special_of(w.text, sp)) {
        o.kind = Operand::Special;
        o.special = sp;
    } else if (w.text[0] == '%') {
        auto r = fn->regs.find(w.text);
        if (r == fn->regs.end())
            return fail("unknown register '" + w.text + "'");
        o.kind = Operand::Reg;
        o.reg = r->second;
    } else if (is_target) {
        o.kind = Operand::Label;
        for (size_t i = 0; i < fn->label_names.size() && o.label < 0; i++)
            if (fn->label_names[i] == w.text)
                o.label = (int32_t)i;
        if (o.label < 0) {
            o.label = (int32_t)fn->label_names.size();
            fn->label_names.push_back(w.text);
            fn->labels.push_back(-1);
        }
    } else {
        o.kind = Operand::Imm;
        if (!symbol(w.text, o))
            return false;
    }
    next();
    return true;
}

bool Parser::resolve_labels()
{
    for (Insn &in : fn->code)
        if (in.op == Op::Bra) {
            if (in.ops[0].kind != Operand::Label)
                return fail("bra to something not a label");
            int32_t pc = fn->labels[in.ops[0].label];
            if (pc < 0)
                return fail("bra to the undefined label '" + fn->label_names[in.ops[0].label] + "'");
            in.target = pc;
        }
    return true;
}

} // namespace

bool parse(const std::string &text, Module &m, std::string &err)
{
    std::vector<Tok> toks;
    if (!lex(text, toks, err))
        return false;
    Parser p(toks, m);
    return p.module(err);
}

} // namespace ptx
