/* ptx_fast.cpp - the executor's fast paths (ptx_fast.h): one handler per
 * operation, type and width, chosen once per instruction, each a loop over
 * the warp's lanes with its operands' rows of registers at hand. They give
 * bit for bit what the general path (ptx_exec.cpp) gives; a load or store
 * whose address is bad in any lane declines before changing anything, and
 * the general path makes the findings. */
#include "ptx_arith.h"
#include "ptx_fast.h"

#include <cmath>
#include <cstring>
#include <type_traits>

namespace ptx {
namespace {

constexpr int WARP = 32;

struct Src {
    const uint64_t *row; /* the register's 32 lanes, or null: the immediate */
    uint64_t imm;
    uint64_t at(int l) const { return row ? row[l] : imm; }
};

inline Src src(Lanes &L, const Operand &o, int base)
{
    if (o.kind == Operand::Reg)
        return {L.regs + (size_t)o.reg * L.nthreads + base, 0};
    return {nullptr, (uint64_t)o.imm};
}

/* An address operand's base register (its 32 lanes), or 0 when it has none. */
inline Src address_base(Lanes &L, const Operand &o, int base)
{
    if (o.reg >= 0)
        return {L.regs + (size_t)o.reg * L.nthreads + base, 0};
    return {nullptr, 0};
}

inline uint64_t *dst(Lanes &L, const Operand &o, int base)
{
    return L.regs + (size_t)o.reg * L.nthreads + base;
}

template <typename F> inline void each(uint32_t on, F f)
{
    if (on == ~0u) {
        for (int l = 0; l < WARP; l++)
            f(l);
    } else {
        for (uint32_t m = on; m; m &= m - 1)
            f(__builtin_ctz(m));
    }
}

/* ---- integers: T the operation's type (signed where it matters) ---- */

template <typename T> using U = std::make_unsigned_t<T>;

struct AddOp { template <typename T> static T f(T a, T b) { return (T)((U<T>)a + (U<T>)b); } };
struct SubOp { template <typename T> static T f(T a, T b) { return (T)((U<T>)a - (U<T>)b); } };
struct MulOp { template <typename T> static T f(T a, T b) { return (T)((U<T>)a * (U<T>)b); } };
struct AndOp { template <typename T> static T f(T a, T b) { return a & b; } };
struct OrOp { template <typename T> static T f(T a, T b) { return a | b; } };
struct XorOp { template <typename T> static T f(T a, T b) { return a ^ b; } };
struct MinOp { template <typename T> static T f(T a, T b) { return a < b ? a : b; } };
struct MaxOp { template <typename T> static T f(T a, T b) { return a > b ? a : b; } };
struct ShlOp {
    template <typename T> static T f(T a, T b)
    {
        uint32_t n = (uint32_t)b;
        return n >= sizeof(T) * 8 ? 0 : (T)((U<T>)a << n);
    }
};
struct ShrOp {
    template <typename T> static T f(T a, T b)
    {
        uint32_t n = (uint32_t)b, w = sizeof(T) * 8;
        return (T)(a >> (n >= w ? w - 1 : n)) & (std::is_signed<T>::value || n < w ? ~(T)0 : 0);
    }
};

template <typename T, typename Op> bool int2(Lanes &L, const Insn &in, int base, uint32_t on)
{
    Src a = src(L, in.ops[1], base), b = src(L, in.ops[2], base);
    uint64_t *d = dst(L, in.ops[0], base);
    each(on, [&](int l) { d[l] = (uint64_t)(U<T>)Op::template f<T>((T)a.at(l), (T)b.at(l)); });
    return true;
}

template <typename T> bool mad_lo(Lanes &L, const Insn &in, int base, uint32_t on)
{
    Src a = src(L, in.ops[1], base), b = src(L, in.ops[2], base), c = src(L, in.ops[3], base);
    uint64_t *d = dst(L, in.ops[0], base);
    each(on, [&](int l) { d[l] = (uint64_t)(U<T>)((U<T>)a.at(l) * (U<T>)b.at(l) + (U<T>)c.at(l)); });
    return true;
}

template <typename T> bool mul_wide(Lanes &L, const Insn &in, int base, uint32_t on)
{
    using W = std::conditional_t<std::is_signed<T>::value, int64_t, uint64_t>;
    Src a = src(L, in.ops[1], base), b = src(L, in.ops[2], base);
    uint64_t *d = dst(L, in.ops[0], base);
    each(on, [&](int l) { d[l] = (uint64_t)((W)(T)a.at(l) * (W)(T)b.at(l)); });
    return true;
}

template <typename T> bool mov(Lanes &L, const Insn &in, int base, uint32_t on)
{
    Src a = src(L, in.ops[1], base);
    uint64_t *d = dst(L, in.ops[0], base);
    each(on, [&](int l) { d[l] = (uint64_t)(T)a.at(l); });
    return true;
}

template <typename T> bool selp(Lanes &L, const Insn &in, int base, uint32_t on)
{
    Src a = src(L, in.ops[1], base), b = src(L, in.ops[2], base), p = src(L, in.ops[3], base);
    uint64_t *d = dst(L, in.ops[0], base);
    each(on, [&](int l) { d[l] = (uint64_t)(T)(p.at(l) & 1 ? a.at(l) : b.at(l)); });
    return true;
}

template <typename T> bool setp(Lanes &L, const Insn &in, int base, uint32_t on)
{
    Src a = src(L, in.ops[1], base), b = src(L, in.ops[2], base);
    uint64_t *d = dst(L, in.ops[0], base);
    Cmp c = in.cmp;
    each(on, [&](int l) {
        T x = (T)a.at(l), y = (T)b.at(l);
        bool r = c == Cmp::Eq ? x == y : c == Cmp::Ne ? x != y : c == Cmp::Lt || c == Cmp::Lo ? x < y
                 : c == Cmp::Le || c == Cmp::Ls ? x <= y : c == Cmp::Gt || c == Cmp::Hi ? x > y : x >= y;
        d[l] = r;
    });
    return true;
}

/* ---- f32, round to nearest, no flush or saturation ---- */

struct FAdd { static float f(float a, float b, float) { return a + b; } };
struct FSub { static float f(float a, float b, float) { return a - b; } };
struct FMul { static float f(float a, float b, float) { return a * b; } };

/* fma over 32 lanes: on a CPU with FMA one instruction each (the clone
 * chosen when the program starts), else libm's fmaf; the same bits either
 * way (a fused multiply-add rounds once). */
__attribute__((target_clones("fma", "default"))) void fma_lanes(uint64_t *d, Src a, Src b, Src c,
                                                                 uint32_t on)
{
    each(on, [&](int l) { d[l] = bits_of(__builtin_fmaf(f32(a.at(l)), f32(b.at(l)), f32(c.at(l)))); });
}

bool ffma(Lanes &L, const Insn &in, int base, uint32_t on)
{
    fma_lanes(dst(L, in.ops[0], base), src(L, in.ops[1], base), src(L, in.ops[2], base),
              src(L, in.ops[3], base), on);
    return true;
}

template <typename Op, int N> bool float_op(Lanes &L, const Insn &in, int base, uint32_t on)
{
    Src a = src(L, in.ops[1], base), b = src(L, in.ops[2], base);
    Src c = N == 3 ? src(L, in.ops[3], base) : Src{nullptr, 0};
    uint64_t *d = dst(L, in.ops[0], base);
    each(on, [&](int l) { d[l] = bits_of(Op::f(f32(a.at(l)), f32(b.at(l)), f32(c.at(l)))); });
    return true;
}

bool setp_f32(Lanes &L, const Insn &in, int base, uint32_t on)
{
    Src a = src(L, in.ops[1], base), b = src(L, in.ops[2], base);
    uint64_t *d = dst(L, in.ops[0], base);
    Cmp c = in.cmp;
    each(on, [&](int l) { /* ordered compares: false when either is NaN, as C's */
        float x = f32(a.at(l)), y = f32(b.at(l));
        d[l] = c == Cmp::Eq ? x == y : c == Cmp::Ne ? (x != y && x == x && y == y) : c == Cmp::Lt ? x < y
               : c == Cmp::Le ? x <= y : c == Cmp::Gt ? x > y : x >= y;
    });
    return true;
}

/* ---- loads and stores of N bytes in one space ---- */

template <Space S, int N> inline uint8_t *place(Lanes &L, uint64_t addr)
{
    if (addr % N)
        return nullptr;
    if (S == Space::Shared)
        return addr < L.shared_size && N <= L.shared_size - addr ? L.shared + addr : nullptr;
    if (S == Space::Param)
        return addr < L.params_size && N <= L.params_size - addr ? (uint8_t *)L.params + addr : nullptr;
    uint64_t off = addr - L.hit_base;
    if (off < L.hit_size && N <= L.hit_size - off)
        return L.hit_bytes + off;
    Allocation *a = L.dev->find(addr);
    if (!a || N > a->bytes.size() - (addr - a->base))
        return nullptr;
    L.hit_base = a->base, L.hit_size = a->bytes.size(), L.hit_bytes = a->bytes.data();
    L.hit_origin = a->origin.data();
    L.hit_read = a->read.empty() ? nullptr : a->read.data();
    return L.hit_bytes + (addr - a->base);
}

template <Space S, int N, bool Signed> bool load(Lanes &L, const Insn &in, int base, uint32_t on)
{
    const Operand &a = in.ops[1];
    Src r = address_base(L, a, base);
    uint64_t got[WARP];
    bool ok = true;
    each(on, [&](int l) {
        const uint8_t *p = place<S, N>(L, space_address(S, r.at(l), a.imm));
        uint64_t v = 0;
        if (p)
            memcpy(&v, p, N);
        else
            ok = false;
        if (S == Space::Global && p && L.uninit) /* what nobody wrote: the general path's finding */
            for (int w = 0; w < (N + 3) / 4; w++)
                ok = ok && L.hit_origin[(p - L.hit_bytes) / 4 + w] != ORIGIN_NONE;
        if (S == Space::Global && p && L.hit_read) /* a word read (ptx_set_read_tracking) */
            memset(L.hit_read + (p - L.hit_bytes) / 4, 1, (N + 3) / 4);
        if (Signed && N < 8)
            v = (uint64_t)(int64_t)(int32_t)(uint32_t)v;
        got[l] = v;
    });
    if (!ok)
        return false; /* the general path makes the findings */
    uint64_t *d = dst(L, in.ops[0], base);
    each(on, [&](int l) { d[l] = got[l]; });
    if (L.count && S == Space::Global)
        L.global_load_bytes += (uint64_t)__builtin_popcount(on) * N;
    else if (L.count && S == Space::Shared)
        L.shared_loads += (uint64_t)__builtin_popcount(on), L.shared_load_bytes += (uint64_t)__builtin_popcount(on) * N;
    return true;
}

template <Space S, int N> bool store(Lanes &L, const Insn &in, int base, uint32_t on)
{
    const Operand &a = in.ops[0];
    Src r = address_base(L, a, base);
    Src v = src(L, in.ops[1], base);
    uint8_t *at[WARP], *origin[WARP];
    bool ok = true;
    each(on, [&](int l) {
        ok = (at[l] = place<S, N>(L, space_address(S, r.at(l), a.imm))) && ok;
        if (S == Space::Global && at[l]) /* a kernel wrote these words (Origin) */
            origin[l] = L.hit_origin + (at[l] - L.hit_bytes) / 4;
    });
    if (!ok)
        return false;
    each(on, [&](int l) {
        uint64_t x = v.at(l);
        memcpy(at[l], &x, N);
        if (S == Space::Global)
            memset(origin[l], ORIGIN_KERNEL, N / 4);
    });
    if (L.count && S == Space::Global)
        L.global_store_bytes += (uint64_t)__builtin_popcount(on) * N;
    return true;
}

/* ---- predicates: and, or, xor, not, mov ---- */

template <typename Op> bool pred2(Lanes &L, const Insn &in, int base, uint32_t on)
{
    Src a = src(L, in.ops[1], base), b = src(L, in.ops[2], base);
    uint64_t *d = dst(L, in.ops[0], base);
    each(on, [&](int l) { d[l] = Op::template f<uint64_t>(a.at(l), b.at(l)) & 1; });
    return true;
}

bool pred_not(Lanes &L, const Insn &in, int base, uint32_t on)
{
    Src a = src(L, in.ops[1], base);
    uint64_t *d = dst(L, in.ops[0], base);
    each(on, [&](int l) { d[l] = ~a.at(l) & 1; });
    return true;
}

Handler pred_handler(const Insn &in)
{
    switch (in.op) {
    case Op::And: return pred2<AndOp>;
    case Op::Or: return pred2<OrOp>;
    case Op::Xor: return pred2<XorOp>;
    case Op::Not: return pred_not;
    default: return nullptr;
    }
}

/* ---- choosing ---- */

bool plain_operands(const Insn &in)
{
    if (in.vec > 1)
        return false;
    for (int i = 0; i < in.nops; i++)
        if (in.ops[i].neg || in.ops[i].global_sym >= 0)
            return false;
    for (int i = 0; i < in.nops; i++)
        if (in.ops[i].kind != Operand::Reg && in.ops[i].kind != Operand::Imm &&
            !((in.op == Op::Ld && i == 1) || (in.op == Op::St && i == 0)))
            return false;
    return in.ops[0].kind == Operand::Reg || in.op == Op::St;
}

template <typename T> Handler int_handler(const Insn &in)
{
    bool wide = in.mods & MOD_WIDE, hi = in.mods & MOD_HI;
    switch (in.op) {
    case Op::Add: return int2<T, AddOp>;
    case Op::Sub: return int2<T, SubOp>;
    case Op::Mul: return hi ? nullptr : wide ? (sizeof(T) == 4 ? mul_wide<T> : nullptr) : int2<T, MulOp>;
    case Op::Mad: return hi || wide ? nullptr : mad_lo<T>;
    case Op::And: return int2<T, AndOp>;
    case Op::Or: return int2<T, OrOp>;
    case Op::Xor: return int2<T, XorOp>;
    case Op::Min: return int2<T, MinOp>;
    case Op::Max: return int2<T, MaxOp>;
    case Op::Shl: return int2<T, ShlOp>;
    case Op::Shr: return int2<T, ShrOp>;
    case Op::Mov: return mov<U<T>>;
    case Op::Selp: return selp<U<T>>;
    case Op::Setp: return in.has_bool_op ? nullptr : setp<T>;
    default: return nullptr;
    }
}

template <Space S> Handler memory_handler(const Insn &in)
{
    int n = in.type.bits / 8;
    bool sgn = in.type.kind == Kind::Signed;
    if (in.op == Op::Ld)
        return n == 4 ? (sgn ? load<S, 4, true> : load<S, 4, false>) : n == 8 ? load<S, 8, false> : nullptr;
    if (S == Space::Param)
        return nullptr;
    return n == 4 ? store<S, 4> : n == 8 ? store<S, 8> : nullptr;
}

} // namespace

Handler fast_handler(const Insn &in)
{
    if (!plain_operands(in))
        return nullptr;
    if (in.type.kind == Kind::Pred)
        return in.mods ? nullptr : pred_handler(in);
    if (in.op == Op::Ld || in.op == Op::St) {
        if (in.type.kind == Kind::Signed && in.type.bits == 64)
            return nullptr;
        return in.space == Space::Global ? memory_handler<Space::Global>(in)
               : in.space == Space::Shared ? memory_handler<Space::Shared>(in)
               : in.space == Space::Param ? memory_handler<Space::Param>(in) : nullptr;
    }
    if (in.op == Op::Cvta && in.type.bits == 64 && (in.space == Space::Global))
        return mov<uint64_t>; /* global and generic addresses are the same here */
    if (in.type.kind == Kind::Float) {
        if (in.type.bits != 32 || (in.mods & ~MOD_RN))
            return in.type.bits == 32 && in.op == Op::Mov && !in.mods ? mov<uint32_t> : nullptr;
        switch (in.op) {
        case Op::Add: return float_op<FAdd, 2>;
        case Op::Sub: return float_op<FSub, 2>;
        case Op::Mul: return float_op<FMul, 2>;
        case Op::Fma:
        case Op::Mad: return ffma;
        case Op::Mov: return mov<uint32_t>;
        case Op::Selp: return selp<uint32_t>;
        case Op::Setp:
            return in.has_bool_op || (int)in.cmp > (int)Cmp::Ge ? nullptr : setp_f32;
        default: return nullptr;
        }
    }
    if (in.mods & ~(MOD_LO | MOD_WIDE | MOD_HI))
        return nullptr;
    bool sgn = in.type.kind == Kind::Signed;
    if (in.type.bits == 32)
        return sgn ? int_handler<int32_t>(in) : int_handler<uint32_t>(in);
    if (in.type.bits == 64)
        return sgn ? int_handler<int64_t>(in) : int_handler<uint64_t>(in);
    return nullptr;
}

} // namespace ptx
