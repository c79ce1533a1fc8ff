/* ptx_parse.cpp - PTX text into a ptx::Module (ptx_module.h): the
 * module's directives and variables, and each kernel's parameters and
 * declarations (ptx_parse_insn.cpp reads its instructions). The text is
 * hostile (inline asm lands in it): every number is range-checked, every
 * name looked up, and anything the executor does not know is an error
 * naming its line, never a guess. */
#include "ptx_parser.h"

#include <cstdlib>
#include <cstring>

namespace ptx {

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
    uint32_t elem = 0;
    if (!var_attributes(v, elem, true))
        return false;
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

/* A variable's attributes up to its name (".align 4 .b8"): its alignment
 * into v.align, its element's bytes into elem; .visible, .extern and .weak
 * pass where linkage may stand (module variables). */
bool Parser::var_attributes(Var &v, uint32_t &elem, bool linkage)
{
    Type t;
    while (peek().kind == Tok::Word && peek().text[0] == '.') {
        std::string d = next().text.substr(1);
        if (d == "align") {
            if (!uint_word(v.align, 4096))
                return false;
        } else if (type_of(d, t) && t.kind != Kind::Pred) {
            elem = t.bits / 8;
        } else if (!linkage || (d != "visible" && d != "extern" && d != "weak")) {
            return fail("unknown attribute '." + d + "' of a variable");
        }
    }
    if (peek().kind != Tok::Word || elem == 0)
        return fail("expected a typed variable");
    v.name = next().text;
    return true;
}

/* .extern .shared .align A .b8 name[]; at the module's level */
bool Parser::extern_shared(Var &v)
{
    v.space = Space::Shared;
    v.is_extern = true;
    uint32_t elem = 0;
    return var_attributes(v, elem, false) && expect("[") && expect("]") && expect(";");
}

bool Parser::entry(bool is_entry)
{
    std::vector<Param> rets;
    if (!is_entry && is("(")) { /* .func (.param .b32 func_retval0) name(...) */
        mod.functions.emplace_back();
        fn = &mod.functions.back();
        if (!param_list())
            return false;
        rets = fn->params;
        mod.functions.pop_back();
    }
    if (peek().kind != Tok::Word)
        return fail("expected the function's name");
    mod.functions.emplace_back();
    fn = &mod.functions.back();
    fn->name = next().text;
    fn->is_entry = is_entry;
    if (is("(") && !param_list())
        return false;
    for (Param r : rets) { /* the return values after the parameters, in the same buffer */
        r.offset = align_up(fn->param_bytes, r.align);
        fn->param_bytes = r.offset + r.size;
        fn->params.push_back(r);
    }
    fn->nrets = rets.size();
    if (!is_entry && is(";")) { /* a declaration: its body comes later, or never */
        next();
        fn->has_body = false;
        return true;
    }
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
        } else if (t.text == ".param" && !scopes.empty()) {
            /* a call's parameter (callseq blocks): the thread's local memory */
            next();
            if (!var_decl(Space::Local, false))
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
        if (peek().kind != Tok::Word) /* %r, or a plain name (nvcc's temp_param_reg) */
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
    uint32_t elem = 0;
    if (!var_attributes(v, elem, false))
        return false;
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

bool parse(const std::string &text, Module &m, std::string &err)
{
    std::vector<Tok> toks;
    if (!lex(text, toks, err))
        return false;
    Parser p(toks, m);
    return p.module(err) && inline_calls(m, err);
}

} // namespace ptx
