/* ptx_parse.cpp - PTX text into a ptx::Module (ptx_module.h): the
 * module's directives and variables, each kernel's declarations and
 * instructions. The text is hostile (inline asm lands in it): every number
 * is range-checked, every name looked up, and anything the executor does
 * not know is an error naming its line, never a guess. */
#include "ptx_lex.h"

#include <cstdlib>
#include <cstring>
#include <map>

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
    bool param_list();
    bool body();
    bool reg_decl();
    bool var_decl(Space space, bool is_extern);
    bool instruction();
    bool operand(Insn &in, Operand &o, bool is_target);
    bool vector(Operand &o);
    bool address(Operand &o);
    bool symbol(const std::string &name, Operand &o);
    bool resolve_labels();
};

int index_of(const std::string &w, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (w == names[i])
            return i;
    return -1;
}
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
        } else if (w == ".global" || w == ".const") {
            next();
            if (!module_var(w == ".global" ? Space::Global : Space::Const))
                break;
        } else if (w == ".extern" && is(".shared", 1)) { /* dynamic shared memory, every kernel's */
            next(), next();
            Var v;
            if (!extern_shared(v))
                break;
            mod.extern_shared.push_back(v);
        } else if (w == ".extern" && is(".func", 1)) { /* a declaration (vprintf): calls are refused */
            while (!is(";") && peek().kind != Tok::End)
                next();
            if (!expect(";"))
                break;
        } else if (w == ".section") { /* debug information: a block of its own */
            while (!is("{") && peek().kind != Tok::End)
                next();
            for (int depth = 0; peek().kind != Tok::End;) {
                depth += is("{") - is("}");
                next();
                if (depth == 0)
                    break;
            }
        } else {
            fail("'" + w + "' at the module's level is not supported by the executor");
            break;
        }
    }
    err = error;
    return error.empty();
}

/* A .global or .const variable of the module, with its initializer if it
 * has one ("= 5", "= {0, 0, 128, 63}"), little-endian in its element's size. */
bool Parser::module_var(Space space)
{
    Var v;
    v.space = space;
    Type t;
    uint32_t elem = 0;
    while (peek().kind == Tok::Word && peek().text[0] == '.') {
        std::string d = next().text.substr(1);
        if (d == "align") {
            if (!uint_word(v.align, 4096))
                return false;
        } else if (type_of(d, t) && t.kind != Kind::Pred) {
            elem = t.bits / 8;
        } else if (d != "visible" && d != "extern" && d != "weak") {
            return fail("unknown attribute '." + d + "' of a module variable");
        }
    }
    if (peek().kind != Tok::Word || elem == 0)
        return fail("expected a typed variable");
    v.name = next().text;
    uint32_t count = 1;
    if (is("[")) {
        next();
        if (!uint_word(count, 1u << 28) || !expect("]"))
            return false;
    }
    if ((uint64_t)elem * count > (64u << 20))
        return fail("'" + v.name + "' is larger than 64 MiB");
    v.size = elem * count;
    std::vector<uint8_t> bytes(v.size, 0);
    if (is("=")) {
        next();
        bool list = is("{");
        if (list)
            next();
        for (uint32_t i = 0;; i++) {
            bool negative = is("-");
            if (negative)
                next();
            int64_t n;
            if (peek().kind != Tok::Word || !number_of(peek().text, n))
                return fail("expected a number in the initializer of '" + v.name + "'");
            next();
            if (i >= count)
                return fail("too many values for '" + v.name + "'");
            uint64_t u = (uint64_t)(negative ? -n : n);
            memcpy(bytes.data() + (size_t)i * elem, &u, elem);
            if (!list || is("}"))
                break;
            if (!expect(","))
                return false;
        }
        if (list && !expect("}"))
            return false;
    }
    if (!expect(";"))
        return false;
    if (v.align < elem)
        v.align = elem;
    for (const Var &g : mod.globals)
        if (g.name == v.name)
            return fail("'" + v.name + "' declared twice");
    mod.globals.push_back(v);
    mod.init.push_back(std::move(bytes));
    return true;
}

/* .extern .shared .align A .b8 name[]; at the module's level */
bool Parser::extern_shared(Var &v)
{
    v.space = Space::Shared;
    v.is_extern = true;
    Type t;
    while (peek().kind == Tok::Word && peek().text[0] == '.') {
        std::string d = next().text.substr(1);
        if (d == "align") {
            if (!uint_word(v.align, 4096))
                return false;
        } else if (!type_of(d, t)) {
            return fail("unknown attribute '." + d + "'");
        }
    }
    if (peek().kind != Tok::Word)
        return fail("expected a name");
    v.name = next().text;
    return expect("[") && expect("]") && expect(";");
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
    while (!is("}") || !scopes.empty()) {
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
        } else if (t.text == "{") { /* a block of its own registers (inline asm's) */
            next();
            scopes.emplace_back();
        } else if (t.text == "}" && !scopes.empty()) {
            next();
            for (auto &shadowed : scopes.back()) /* the block's names go, the outer ones return */
                if (shadowed.second < 0)
                    fn->regs.erase(shadowed.first);
                else
                    fn->regs[shadowed.first] = shadowed.second;
            scopes.pop_back();
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
            if (!scopes.empty() && !scopes.back().count(r)) { /* shadows an outer one, if any */
                auto outer = fn->regs.find(r);
                scopes.back()[r] = outer == fn->regs.end() ? -1 : outer->second;
                fn->regs.erase(r);
            }
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
    if (parts[0] == "mma" || parts[0] == "wmma" || parts[0] == "wgmma")
        return fail("the tensor-core instruction '" + opcode + "' is refused: the executor runs "
                    "no tensor-core code");
    if (parts[0] == "cp" && parts.size() > 2 && parts[1] == "async") {
        /* cp.async: the copy made at once (a schedule a GPU may run too); its
         * groups and waits then have nothing left to wait for */
        bool copy = parts[2] == "ca" || parts[2] == "cg";
        if (!copy && parts[2] != "commit_group" && parts[2] != "wait_group" && parts[2] != "wait_all")
            return fail("the instruction '" + opcode + "' is not supported by the executor");
        in.op = copy ? Op::CpAsync : Op::Nop;
        in.type = {Kind::Bits, 8};
        parts.resize(1);
    } else if (!op_of(parts[0], in.op)) {
        return fail("the instruction '" + opcode + "' is not supported by the executor");
    }
    if (in.op == Op::Bar && parts.size() > 1 && parts[1] == "warp") /* bar.warp.sync: a warp runs in step */
        in.op = Op::Nop, parts.resize(1);
    if (in.op == Op::Nop) /* membar, fence: one thread at a time orders everything already */
        parts.resize(1);
    int ntypes = 0;
    for (size_t i = 1; i < parts.size(); i++) {
        const std::string &p = parts[i];
        Type t;
        Space sp;
        Cmp c;
        static const char *const atom_ops[] = {"add", "min", "max", "inc", "dec",
                                               "and", "or",  "xor", "exch", "cas"};
        static const char *const shfl_modes[] = {"up", "down", "bfly", "idx"};
        static const char *const vote_modes[] = {"all", "any", "uni", "ballot"};
        int k = -1;
        if ((in.op == Op::Atom || in.op == Op::Red) && (k = index_of(p, atom_ops, 10)) >= 0) {
            in.sub = (uint8_t)k;
        } else if (in.op == Op::Shfl && (k = index_of(p, shfl_modes, 4)) >= 0) {
            in.sub = (uint8_t)k;
        } else if (in.op == Op::Vote && (k = index_of(p, vote_modes, 4)) >= 0) {
            in.sub = (uint8_t)k;
        } else if ((in.op == Op::Atom || in.op == Op::Red || in.op == Op::Shfl || in.op == Op::Vote) &&
                   (p == "sync" || p == "relaxed" || p == "acquire" || p == "release" ||
                    p == "acq_rel" || p == "sc" || p == "gpu" || p == "sys" || p == "cta")) {
            /* one thread at a time: every order and scope holds */
        } else if ((in.op == Op::Ld || in.op == Op::St) && (p == "v2" || p == "v4")) {
            in.vec = p == "v2" ? 2 : 4;
        } else if (type_of(p, t)) {
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
        if (in.nops == 4 && in.op == Op::Shfl) { /* its membermask: every lane here is in step */
            Operand ignored;
            if (!operand(in, ignored, false))
                return false;
            continue;
        }
        if (in.nops == 4)
            return fail("too many operands for '" + opcode + "'");
        bool target = in.op == Op::Bra;
        if (!operand(in, in.ops[in.nops], target))
            return false;
        in.nops++;
        if (in.nops == 1 && is("|")) { /* shfl's d|p */
            next();
            auto r = fn->regs.find(peek().text);
            if (in.op != Op::Shfl || r == fn->regs.end())
                return fail("'|' after the first operand of '" + opcode + "'");
            in.pred_dst = r->second;
            next();
        }
        if (is(","))
            next();
        else if (!is(";"))
            return fail("expected ',' or ';' after an operand of '" + opcode + "'");
    }
    next();
    static const uint8_t wanted[] = {2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 3, 3, 3, 3, 2, 2,
                                     3, 3, 3, 2, 3, 3, 3, 4, 1, 1, 0, 0, 2, 2, 2,
                                     3, 2, 4, 3, 1, 3, 0};
    static_assert(sizeof wanted == (size_t)Op::Nop + 1, "an operand count for each Op");
    uint8_t want = wanted[(int)in.op];
    if (in.op == Op::Atom && in.sub == (uint8_t)AtomOp::Cas)
        want = 4;
    if (in.op == Op::Vote && in.nops == 2) /* the form without a membermask */
        want = 2;
    if (in.op == Op::Nop)
        want = in.nops;
    if (in.op == Op::CpAsync && in.nops == 4) /* with its source size */
        want = 4;
    if ((in.op == Op::Ld || in.op == Op::St) && in.vec > 1 &&
        in.ops[in.op == Op::Ld ? 0 : 1].nvec != in.vec)
        return fail("'" + opcode + "' takes a vector of " + std::to_string(in.vec) + " registers");
    if (in.op == Op::Setp && in.has_bool_op)
        want = 4;
    if (in.op == Op::Bar && in.nops == 2)
        want = 2;
    if (in.nops != want)
        return fail("'" + opcode + "' takes " + std::to_string(want) + " operands, not " +
                    std::to_string(in.nops));
    if (in.op != Op::Bra && in.op != Op::Bar && in.op != Op::Ret && in.op != Op::Exit &&
        in.op != Op::Nop && in.type.kind == Kind::None)
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
    for (const Var &v : mod.extern_shared)
        if (v.name == name) {
            o.imm += align_up(fn->shared_bytes, v.align);
            o.sym_space = Space::Shared;
            if (v.align > fn->shared_align)
                fn->shared_align = v.align;
            return true;
        }
    for (const Param &p : fn->params)
        if (p.name == name) {
            o.imm += p.offset;
            o.sym_space = Space::Param;
            return true;
        }
    for (size_t i = 0; i < mod.globals.size(); i++)
        if (mod.globals[i].name == name) {
            o.global_sym = (int32_t)i; /* its address is added once it has one (ptx_load) */
            o.sym_space = mod.globals[i].space;
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

/* {%f1, %f2, %f3, %f4}: registers, or _ (a sink) */
bool Parser::vector(Operand &o)
{
    next();
    o.kind = Operand::Vec;
    for (;;) {
        if (o.nvec == 4)
            return fail("a vector of more than 4 registers");
        if (is("_")) {
            o.vec[o.nvec++] = -1;
        } else {
            auto r = fn->regs.find(peek().text);
            if (r == fn->regs.end())
                return fail("unknown register '" + peek().text + "' in a vector");
            o.vec[o.nvec++] = r->second;
        }
        next();
        if (is("}"))
            break;
        if (!expect(","))
            return false;
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
        return vector(o);
    if (t.text == "!") { /* a predicate read negated */
        next();
        auto r = fn->regs.find(peek().text);
        if (r == fn->regs.end())
            return fail("'!' before '" + peek().text + "', not a predicate register");
        o.kind = Operand::Reg;
        o.reg = r->second;
        o.neg = true;
        next();
        return true;
    }
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
