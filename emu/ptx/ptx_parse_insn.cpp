/* ptx_parse_insn.cpp - a kernel's instructions (ptx_parser.h): the opcode
 * with its modifiers into an Insn, its operands (registers, immediates,
 * addresses, vectors, the names of variables and parameters), and the
 * branch targets resolved once the kernel is read. */
#include "ptx_parser.h"

#include <cstdlib>
#include <cstring>

namespace ptx {

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
        } else if (in.op == Op::Shf && (p == "l" || p == "r" || p == "wrap" || p == "clamp")) {
            in.sub |= p == "r" ? SUB_SHF_RIGHT : p == "wrap" ? SUB_SHF_WRAP : 0;
        } else if (in.op == Op::Bfind && p == "shiftamt") {
            in.sub |= SUB_SHIFTAMT;
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
    if (in.op == Op::Call)
        return call(in, opcode);
    while (!is(";")) {
        if (in.nops == 4 && in.op == Op::Shfl) { /* its membermask: every lane here is in step */
            Operand ignored;
            if (!operand(in, ignored, false))
                return false;
            continue;
        }
        if (in.nops == 5)
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
                                     2, 2, 2, 2, 2, 2, 2, 2, 4, 5, 4, 4, 4, 2, 3,
                                     3, 2, 4, 3, 1, 3, 3, 0};
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
    if ((in.op == Op::Ld || in.op == Op::St) && in.space == Space::Param &&
        in.ops[in.op == Op::Ld ? 1 : 0].sym_space == Space::Local)
        in.space = Space::Local; /* a call's parameter or return value */
    if (in.op != Op::Bra && in.op != Op::Bar && in.op != Op::Ret && in.op != Op::Exit &&
        in.op != Op::Nop && in.type.kind == Kind::None)
        return fail("'" + opcode + "' has no type");
    fn->code.push_back(in);
    return true;
}

bool Parser::symbol(const std::string &name, Operand &o)
{
    for (auto it = fn->vars.rbegin(); it != fn->vars.rend(); ++it) /* the latest: a block's own */
        if (const Var &v = *it; v.name == name) {
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
        while (is("-") || is("+")) /* nvcc writes a negative offset as "+-128" */
            if (next().text == "-")
                negative = !negative;
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

/* call{.uni} (ret), callee, (arg, ...); of vprintf (a kernel's printf):
 * ops[0] its return value, ops[1] and ops[2] its format and arguments, each
 * a call parameter in the thread's local memory. Device functions nvcc did
 * not inline are not called yet. */
bool Parser::call(Insn &in, const std::string &opcode)
{
    (void)opcode;
    std::vector<std::string> ret, args;
    auto list = [&](std::vector<std::string> &out) {
        next(); /* ( */
        while (!is(")") && peek().kind == Tok::Word) {
            out.push_back(next().text);
            if (is(","))
                next();
        }
        return expect(")");
    };
    if (is("(") && !list(ret))
        return false;
    if (is(","))
        next();
    if (peek().kind != Tok::Word)
        return fail("expected the function a call calls");
    std::string callee = next().text;
    if (is(","))
        next();
    if (is("(") && !list(args))
        return false;
    if (!expect(";"))
        return false;
    if (callee != "vprintf") { /* a device function: inlined once the module is read (ptx_inline.cpp) */
        CallSite site;
        site.callee = callee;
        for (int k = 0; k < 2; k++)
            for (const std::string &v : k ? args : ret) {
                Operand o;
                if (!symbol(v, o) || o.sym_space != Space::Local)
                    return fail("'" + v + "' is not a parameter of this call");
                (k ? site.args : site.rets).push_back((uint32_t)o.imm);
            }
        in.op = Op::Call;
        in.sub = 1;
        in.target = (int32_t)fn->calls.size();
        in.nops = 0;
        fn->calls.push_back(site);
        fn->code.push_back(in);
        return true;
    }
    if (ret.size() != 1 || args.size() != 2)
        return fail("vprintf takes a return value and two parameters");
    in.op = Op::Call;
    in.type = {Kind::Bits, 64};
    const std::string *names[3] = {&ret[0], &args[0], &args[1]};
    for (int i = 0; i < 3; i++) {
        in.ops[i].kind = Operand::Addr;
        if (!symbol(*names[i], in.ops[i]) || in.ops[i].sym_space != Space::Local)
            return fail("'" + *names[i] + "' is not a parameter of this call");
    }
    in.nops = 3;
    fn->code.push_back(in);
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
    } else if (w.text[0] == '%' || fn->regs.count(w.text)) {
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

} // namespace ptx
