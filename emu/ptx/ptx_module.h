/* ptx_module.h - a PTX module as the executor holds it (ptx_parse.cpp makes
 * it, ptx_exec.cpp runs it): its kernels, each a flat array of decoded
 * instructions whose operands are register numbers, immediates, addresses
 * and resolved branch targets, with the source line of each (PTX .loc).
 * Nothing here points into the PTX text, which is hostile input: a student
 * writes inline asm, and nvcc copies it into the PTX. */
#ifndef CUGRADE_PTX_MODULE_H
#define CUGRADE_PTX_MODULE_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ptx {

enum class Op : uint8_t {
    Ld, St, Mov, Cvta, Cvt, Add, Sub, Mul, Mad, Fma, Div, Rem, Min, Max, Abs, Neg,
    And, Or, Xor, Not, Shl, Shr, Setp, Selp, Bra, Bar, Ret, Exit, Sqrt, Rsqrt, Rcp,
    Ex2, Lg2, Sin, Cos, Tanh, Popc, Clz, Brev, Bfe, Bfi, Shf, Prmt, Sad, Bfind, Copysign,
    Atom, Red, Shfl, Vote, Activemask, CpAsync, Call, Nop,
};

/* atom and red: what they do to memory (Insn::sub). */
enum class AtomOp : uint8_t { Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
/* shfl.sync's mode and vote.sync's (Insn::sub). */
enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };
enum class VoteMode : uint8_t { All, Any, Uni, Ballot };

/* An instruction's type: its kind and width in bits. */
enum class Kind : uint8_t { None, Bits, Unsigned, Signed, Float, Pred };
struct Type {
    Kind kind = Kind::None;
    uint8_t bits = 0;
};

enum class Space : uint8_t { Generic, Global, Shared, Local, Param, Const };

/* An access's address in space s: base (its register's value, or 0) plus the
 * immediate. A shared address held in a 32-bit register wraps at 2^32, as in
 * the GPU's 32-bit shared window: nvcc folds a negative offset into the
 * register (tile - 4) and adds it back in the access ([r + 4]). */
inline uint64_t space_address(Space s, uint64_t base, int64_t imm)
{
    uint64_t a = base + (uint64_t)imm;
    return s == Space::Shared && base <= 0xFFFFFFFFull ? (uint64_t)(uint32_t)a : a;
}

enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };

/* Modifiers that change what an instruction computes. */
enum : uint16_t {
    MOD_LO = 1, MOD_HI = 2, MOD_WIDE = 4, MOD_SAT = 8, MOD_FTZ = 16, MOD_APPROX = 32,
    MOD_TO = 64, /* cvta.to.SPACE: generic -> space; else space -> generic */
    MOD_UNI = 128,
    MOD_RN = 256, MOD_RZ = 512, MOD_RM = 1024, MOD_RP = 2048, /* rounding (float results) */
    MOD_RNI = 4096, MOD_RZI = 8192, MOD_RMI = 16384, MOD_RPI = 32768, /* to an integral value */
};
/* shf's direction and mode, bfind's .shiftamt (Insn::sub bits) */
enum : uint8_t { SUB_SHF_RIGHT = 1, SUB_SHF_WRAP = 2, SUB_SHIFTAMT = 4,
};

/* The special registers a program reads (mov %r, %tid.x). */
enum class Special : uint8_t {
    TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
    LaneId, WarpSize,
    /* clock(), clock64(), the global timer and the SM a block runs on: values
     * of the executor's own, the same on every run (a kernel that reads them
     * learns nothing of the machine, and gets no other result on a loaded
     * one): the launch's issued warp instructions so far as its clocks (the
     * timer in nanoseconds at 1 GHz), block b on SM b % 132 of 132, warp
     * w of the block as %warpid of 64 */
    Clock, Clock64, GlobalTimer, SmId, NsmId, WarpId, NwarpId,
};

struct Operand {
    enum Kind : uint8_t { None, Reg, Imm, Addr, Special, Label, Vec } kind = None;
    uint8_t special = 0; /* Special */
    bool neg = false;    /* a predicate read negated (!%p) */
    uint8_t nvec = 0;    /* Vec: {%f1, %f2, ...}, its registers (-1: the sink _) */
    int32_t vec[4] = {-1, -1, -1, -1};
    int32_t global_sym = -1; /* a module variable's address still to add to imm (ptx_load) */
    int32_t reg = -1;    /* Reg; Addr: the base register, or -1 (a symbol's or an absolute address) */
    int64_t imm = 0;     /* Imm: the bits; Addr: the offset, the symbol's address added */
    Space sym_space = Space::Generic; /* Addr or Imm from a symbol: its space */
    int32_t label = -1;  /* Label: an index in Function::labels */
};

struct Insn {
    Op op;
    Type type;        /* the operation's type (cvt: the destination's) */
    Type type2;       /* cvt: the source's; setp/selp: unused */
    Space space = Space::Generic;
    Cmp cmp = Cmp::Eq;
    Op bool_op = Op::And; /* setp.cmp.and/or/xor: combined with the 4th operand */
    bool has_bool_op = false;
    uint16_t mods = 0;
    int32_t guard = -1;   /* @%p: the predicate register, or -1 */
    bool guard_neg = false;
    uint8_t nops = 0;
    Operand ops[5];
    int32_t target = -1;  /* bra: the instruction index it jumps to */
    uint8_t vec = 1;      /* ld/st .v2, .v4: elements */
    uint8_t sub = 0;      /* atom/red: AtomOp; shfl: ShflMode; vote: VoteMode */
    int32_t pred_dst = -1; /* shfl's d|p: the predicate register */
    uint32_t line = 0;    /* the source line (.loc), 0 if none */
    uint16_t file = 0;    /* the .file of that line */
};

/* A .param of a kernel: where it lies in the parameter buffer. */
struct Param {
    std::string name;
    uint32_t offset = 0, size = 0, align = 1;
};

/* A .shared, .local or .global variable. */
struct Var {
    std::string name;
    Space space = Space::Shared;
    uint32_t offset = 0, size = 0, align = 1;
    bool is_extern = false; /* extern .shared: the launch's dynamic shared memory */
    uint64_t address = 0;   /* a module variable: its device address (ptx_load) */
};

/* A call of a device function nvcc did not inline (call.uni (r), f, (a, b)):
 * the callee, and the call's parameters (in the caller's local memory). */
struct CallSite {
    std::string callee;
    std::vector<uint32_t> rets, args; /* local offsets of the return and argument variables */
};

struct Function {
    std::string name; /* as in the PTX: mangled */
    bool is_entry = false;
    bool has_body = true;        /* false: a declaration only */
    std::vector<Param> params;   /* .func: its parameters, then its return values, in one buffer */
    size_t nrets = 0;            /* .func: how many of params are return values (the last ones) */
    uint32_t param_bytes = 0;
    std::vector<CallSite> calls; /* Op::Call with sub 1: calls[target] */
    std::vector<Var> vars;                /* its .shared and .local */
    uint32_t shared_bytes = 0, local_bytes = 0, shared_align = 1;
    std::map<std::string, int32_t> regs;  /* every register's name: its number */
    int32_t nregs = 0;
    std::vector<Insn> code;
    std::vector<std::string> label_names;
    std::vector<int32_t> labels;          /* label i: its instruction index */
};

struct Module {
    std::vector<Function> functions;
    std::vector<Var> globals;               /* .global and .const variables */
    std::vector<std::vector<uint8_t>> init; /* each one's initial bytes (zeros if none given) */
    std::vector<Var> extern_shared;         /* .extern .shared at the module's level */
    std::map<uint16_t, std::string> files; /* .file N "name" */
    const Function *find(const std::string &name) const
    {
        for (const Function &f : functions)
            if (f.name == name)
                return &f;
        return nullptr;
    }
};

/* Parses text (a PTX module as nvcc writes it); on an error returns false
 * with "line N: what" in err. */
bool parse(const std::string &text, Module &m, std::string &err);

/* Replaces every call of a device function in m's kernels with the
 * function's body (ptx_inline.cpp); false with err for a recursion, a call
 * of a function the module does not define, or a mismatch of parameters. */
bool inline_calls(Module &m, std::string &err);

} // namespace ptx

#endif
