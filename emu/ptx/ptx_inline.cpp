/* ptx_inline.cpp - calls of device functions nvcc did not inline
 * (__noinline__, large functions), inlined into each kernel once the
 * module is read (ptx_module.h inline_calls): the executor then runs one
 * flat program per kernel, as before. Each inlined body gets registers and
 * local memory of its own in the kernel; its parameters and return values
 * become the call's variables in the caller's local memory (where the
 * caller's st.param and ld.param put and find them); its ret a branch past
 * it. A predicated call is a branch around the body. Recursion, which
 * inlining cannot flatten, is refused by name, as are calls of a function
 * the module does not define. */
#include "ptx_lex.h"

#include <functional>

namespace ptx {
namespace {

constexpr int MAX_DEPTH = 16;

/* Where a body being inlined puts its registers and locals, and the call's
 * variables its parameters and return values map to (null: the kernel's
 * own body). */
struct Frame {
    int32_t reg_base = 0;
    uint32_t local_base = 0;
    const Function *fn = nullptr;
    const CallSite *site = nullptr; /* its offsets already in the kernel's local memory */
};

class Inliner {
  public:
    Inliner(Module &m, std::string &err) : mod(m), err(err) {}
    bool kernel(Function &k);

  private:
    Module &mod;
    std::string &err;
    Function *target = nullptr;
    std::vector<Insn> out;

    const Function *find(const std::string &name) const
    {
        for (const Function &f : mod.functions)
            if (!f.is_entry && f.has_body && f.name == name)
                return &f;
        return nullptr;
    }
    bool fail(const std::string &what)
    {
        err = "in kernel '" + target->name + "': " + what;
        return false;
    }
    Insn renamed(const Insn &in, const Frame &fr) const;
    bool body(const Frame &fr, int depth);
    bool call(const Insn &in, const Frame &fr, int depth);
};

/* in as the kernel runs it: registers moved past the kernel's, locals past
 * its local memory, parameters and return values onto the call's variables. */
Insn Inliner::renamed(const Insn &in, const Frame &fr) const
{
    Insn x = in;
    if (!fr.site)
        return x;
    auto reg = [&](int32_t &r) {
        if (r >= 0)
            r += fr.reg_base;
    };
    reg(x.guard);
    reg(x.pred_dst);
    for (Operand &o : x.ops) {
        reg(o.reg);
        for (int32_t &v : o.vec)
            reg(v);
        if (o.sym_space == Space::Local && (o.kind == Operand::Addr || o.kind == Operand::Imm)) {
            o.imm += fr.local_base;
        } else if (o.sym_space == Space::Param && (o.kind == Operand::Addr || o.kind == Operand::Imm)) {
            size_t nargs = fr.fn->params.size() - fr.fn->nrets;
            for (size_t i = 0; i < fr.fn->params.size(); i++) {
                const Param &p = fr.fn->params[i];
                if ((uint64_t)o.imm >= p.offset && (uint64_t)o.imm < p.offset + p.size) {
                    uint32_t var = i < nargs ? fr.site->args[i] : fr.site->rets[i - nargs];
                    o.imm = var + (o.imm - p.offset);
                    o.sym_space = Space::Local;
                    break;
                }
            }
        }
    }
    if ((x.op == Op::Ld || x.op == Op::St) && x.space == Space::Param)
        x.space = Space::Local;
    return x;
}

/* fr.fn's body into out, its calls inlined in turn, its branches pointed at
 * where their targets went; an inlined body's ret jumps past it. */
bool Inliner::body(const Frame &fr, int depth)
{
    const Function &f = *fr.fn;
    std::vector<int32_t> at(f.code.size() + 1);
    std::vector<std::pair<size_t, int32_t>> branches; /* out index, f's target */
    std::vector<size_t> rets;
    for (size_t pc = 0; pc < f.code.size(); pc++) {
        at[pc] = (int32_t)out.size();
        Insn x = renamed(f.code[pc], fr);
        if (x.op == Op::Call && x.sub == 1) {
            if (!call(x, fr, depth))
                return false;
            continue;
        }
        if (x.op == Op::Bra)
            branches.push_back({out.size(), x.target});
        if (x.op == Op::Ret && fr.site) { /* back to the caller: past the body */
            x.op = Op::Bra;
            rets.push_back(out.size());
        }
        out.push_back(x);
    }
    at[f.code.size()] = (int32_t)out.size();
    for (auto &b : branches)
        out[b.first].target = at[(size_t)b.second];
    for (size_t r : rets)
        out[r].target = (int32_t)out.size();
    return true;
}

/* The call in (renamed into the kernel's frame fr) as the callee's body. */
bool Inliner::call(const Insn &in, const Frame &fr, int depth)
{
    const CallSite &raw = fr.fn->calls[(size_t)in.target];
    const Function *callee = find(raw.callee);
    if (!callee)
        return fail("a call of '" + raw.callee + "', a function this PTX does not define");
    if (depth >= MAX_DEPTH)
        return fail("'" + raw.callee + "' calls itself (recursion, source line " + std::to_string(in.line) +
                    "), which the executor does not run");
    if (raw.args.size() + raw.rets.size() != callee->params.size() || raw.rets.size() != callee->nrets)
        return fail("the call of '" + raw.callee + "' does not match its parameters");
    if (callee->shared_bytes > 0)
        return fail("'" + raw.callee + "' declares shared memory of its own, which the executor does not run");
    CallSite site = raw; /* its variables where the caller's locals went */
    for (uint32_t &v : site.args)
        v += fr.site ? fr.local_base : 0;
    for (uint32_t &v : site.rets)
        v += fr.site ? fr.local_base : 0;
    Frame inner;
    inner.fn = callee;
    inner.site = &site;
    inner.reg_base = target->nregs;
    target->nregs += callee->nregs;
    inner.local_base = align_up(target->local_bytes, 16);
    target->local_bytes = inner.local_base + callee->local_bytes;
    size_t around = out.size();
    if (in.guard >= 0) { /* a predicated call: a branch around the body for the others */
        Insn skip{};
        skip.op = Op::Bra;
        skip.guard = in.guard;
        skip.guard_neg = !in.guard_neg;
        skip.line = in.line, skip.file = in.file;
        out.push_back(skip);
    }
    if (!body(inner, depth + 1))
        return false;
    if (in.guard >= 0)
        out[around].target = (int32_t)out.size();
    return true;
}

bool Inliner::kernel(Function &k)
{
    bool any = false;
    for (const Insn &in : k.code)
        any = any || (in.op == Op::Call && in.sub == 1);
    if (!any)
        return true;
    target = &k;
    out.clear();
    Frame top;
    top.fn = &k;
    Function copy = k; /* body() reads the kernel as it was while k grows */
    top.fn = &copy;
    if (!body(top, 0))
        return false;
    k.code = std::move(out);
    k.calls.clear();
    return true;
}

} // namespace

bool inline_calls(Module &m, std::string &err)
{
    Inliner inl(m, err);
    for (Function &f : m.functions)
        if (f.is_entry && !inl.kernel(f))
            return false;
    return true;
}

} // namespace ptx
