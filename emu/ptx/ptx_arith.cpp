/* ptx_arith.cpp - what PTX's arithmetic computes (ptx_arith.h), bit for
 * bit as a GPU does where PTX defines it: integers of each width and
 * signedness (division by zero and INT_MIN / -1 give what a GPU gives,
 * never a host trap), f32 and f64 with their rounding modes and flushing,
 * comparisons ordered and unordered, and cvt between every pair of types. */
#include "ptx_arith.h"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstring>

namespace ptx {

uint64_t mask_of(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

int64_t as_signed(uint64_t v, int bits)
{
    if (bits >= 64)
        return (int64_t)v;
    uint64_t sign = 1ull << (bits - 1);
    v &= mask_of(bits);
    return (int64_t)((v ^ sign) - sign);
}


static float ftz(float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; }

/* A float operation's rounding (.rn is the default). */
static int rounding(uint16_t mods)
{
    return mods & MOD_RZ ? FE_TOWARDZERO : mods & MOD_RM ? FE_DOWNWARD : mods & MOD_RP ? FE_UPWARD
                                                                         : FE_TONEAREST;
}

bool compare_int(Cmp c, uint64_t a, uint64_t b, bool is_signed, int bits)
{
    int64_t sa = as_signed(a, bits), sb = as_signed(b, bits);
    a &= mask_of(bits), b &= mask_of(bits);
    switch (c) {
    case Cmp::Eq: return a == b;
    case Cmp::Ne: return a != b;
    case Cmp::Lt: return is_signed ? sa < sb : a < b;
    case Cmp::Le: return is_signed ? sa <= sb : a <= b;
    case Cmp::Gt: return is_signed ? sa > sb : a > b;
    case Cmp::Ge: return is_signed ? sa >= sb : a >= b;
    case Cmp::Lo: return a < b;
    case Cmp::Ls: return a <= b;
    case Cmp::Hi: return a > b;
    case Cmp::Hs: return a >= b;
    default: return false;
    }
}

bool compare_float(Cmp c, double a, double b)
{
    bool unordered = std::isnan(a) || std::isnan(b);
    switch (c) {
    case Cmp::Eq: return !unordered && a == b;
    case Cmp::Ne: return !unordered && a != b;
    case Cmp::Lt: return !unordered && a < b;
    case Cmp::Le: return !unordered && a <= b;
    case Cmp::Gt: return !unordered && a > b;
    case Cmp::Ge: return !unordered && a >= b;
    case Cmp::Equ: return unordered || a == b;
    case Cmp::Neu: return unordered || a != b;
    case Cmp::Ltu: return unordered || a < b;
    case Cmp::Leu: return unordered || a <= b;
    case Cmp::Gtu: return unordered || a > b;
    case Cmp::Geu: return unordered || a >= b;
    case Cmp::Num: return !unordered;
    case Cmp::Nan: return unordered;
    default: return false;
    }
}

/* A float's integral value by the cvt's .rni/.rzi/.rmi/.rpi (.rzi default). */
static double integral(double v, uint16_t mods)
{
    return mods & MOD_RNI ? std::nearbyint(v) : mods & MOD_RMI ? std::floor(v)
           : mods & MOD_RPI ? std::ceil(v) : std::trunc(v);
}

/* IEEE binary16, to and from float (round to nearest, ties to even). */
static float half_to_float(uint64_t v)
{
    uint32_t h = (uint32_t)v & 0xffff, sign = (h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    uint32_t bits;
    if (exp == 0x1f)
        bits = sign | 0x7f800000u | (man << 13); /* inf, NaN */
    else if (exp == 0) {
        float f = std::ldexp((float)man, -24); /* zero and the subnormals */
        return sign ? -f : f;
    } else
        bits = sign | ((exp + 112) << 23) | (man << 13);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static uint64_t float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000;
    if (std::isnan(f))
        return sign | 0x7e00;
    float a = std::fabs(f);
    if (a >= 65520.0f) /* rounds to infinity */
        return sign | 0x7c00;
    if (a < std::ldexp(1.0f, -14)) { /* a subnormal half: a multiple of 2^-24 */
        float q = std::nearbyint(a * std::ldexp(1.0f, 24));
        return sign | (uint32_t)q;
    }
    int e;
    float m = std::frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    float q = std::nearbyint(m * 2048.0f); /* 11 significant bits */
    if (q >= 2048.0f)
        q /= 2, e++;
    uint32_t exp = (uint32_t)(e - 1 + 15), man = (uint32_t)q - 1024;
    return sign | (exp << 10) | man;
}

/* A float register's value of width bits (16, 32, 64) as a double, and back. */
static double float_value(uint64_t v, int bits)
{
    return bits == 64 ? f64(v) : bits == 16 ? (double)half_to_float(v) : (double)f32(v);
}

static uint64_t float_bits(double x, int bits)
{
    return bits == 64 ? bits_of(x) : bits == 16 ? float_to_half((float)x) : bits_of((float)x);
}

/* cvt: src (of type from) as type to. */
uint64_t convert(uint64_t v, Type to, Type from, uint16_t mods)
{
    bool from_float = from.kind == Kind::Float, to_float = to.kind == Kind::Float;
    if (from_float && to_float) {
        double x = float_value(v, from.bits);
        if (mods & (MOD_RNI | MOD_RZI | MOD_RMI | MOD_RPI))
            x = integral(x, mods);
        return float_bits(x, to.bits);
    }
    if (from_float) { /* to an integer: saturated, NaN gives 0 */
        double x = integral(float_value(v, from.bits), mods);
        if (std::isnan(x))
            return 0;
        if (to.kind == Kind::Signed) {
            double lo = -std::ldexp(1.0, to.bits - 1), hi = std::ldexp(1.0, to.bits - 1) - 1;
            int64_t r = x <= lo ? (int64_t)lo : x >= hi ? (to.bits == 64 ? INT64_MAX : (int64_t)hi) : (int64_t)x;
            return (uint64_t)r & mask_of(to.bits);
        }
        double hi = std::ldexp(1.0, to.bits) - 1;
        uint64_t r = x <= 0 ? 0 : x >= hi ? mask_of(to.bits) : (uint64_t)x;
        return r;
    }
    if (to_float) {
        int mode = rounding(mods);
        int saved = std::fegetround();
        std::fesetround(mode);
        uint64_t r;
        if (from.kind == Kind::Signed) {
            int64_t s = as_signed(v, from.bits);
            r = to.bits == 64 ? bits_of((double)s) : to.bits == 16 ? float_to_half((float)s) : bits_of((float)s);
        } else {
            uint64_t u = v & mask_of(from.bits);
            r = to.bits == 64 ? bits_of((double)u) : to.bits == 16 ? float_to_half((float)u) : bits_of((float)u);
        }
        std::fesetround(saved);
        return r;
    }
    /* integer to integer: extended by the source's kind, cut to the destination */
    uint64_t x = from.kind == Kind::Signed ? (uint64_t)as_signed(v, from.bits) : v & mask_of(from.bits);
    if (mods & MOD_SAT) {
        int64_t lo = to.kind == Kind::Signed ? as_signed(1ull << (to.bits - 1), to.bits) : 0;
        uint64_t hi = to.kind == Kind::Signed ? mask_of(to.bits - 1) : mask_of(to.bits);
        if (from.kind == Kind::Signed && (int64_t)x < lo)
            x = (uint64_t)lo;
        else if (from.kind == Kind::Signed ? (int64_t)x > (int64_t)hi && (int64_t)x >= 0 : x > hi)
            x = hi;
    }
    return x & mask_of(to.bits);
}

/* ---- integer and float arithmetic --------------------------------------------- */

uint64_t int_op(const Insn &in, uint64_t a, uint64_t b, uint64_t c)
{
    int bits = in.type.bits;
    bool sgn = in.type.kind == Kind::Signed;
    int64_t sa = as_signed(a, bits), sb = as_signed(b, bits);
    uint64_t ua = a & mask_of(bits), ub = b & mask_of(bits);
    auto product = [&](bool high, bool wide) -> uint64_t {
        if (sgn) {
            __int128 p = (__int128)sa * sb;
            if (wide)
                return (uint64_t)p & mask_of(2 * bits);
            return high ? (uint64_t)(p >> bits) : (uint64_t)p;
        }
        unsigned __int128 p = (unsigned __int128)ua * ub;
        if (wide)
            return (uint64_t)p & mask_of(2 * bits);
        return high ? (uint64_t)(p >> bits) : (uint64_t)p;
    };
    bool hi = in.mods & MOD_HI, wide = in.mods & MOD_WIDE;
    switch (in.op) {
    case Op::Add: return ua + ub;
    case Op::Sub: return ua - ub;
    case Op::Mul: return product(hi, wide);
    case Op::Mad: return product(hi, wide) + c;
    case Op::Div:
        if (ub == 0)
            return mask_of(bits); /* what the GPU gives */
        if (sgn)
            return sb == -1 ? (uint64_t)(-(uint64_t)sa) : (uint64_t)(sa / sb);
        return ua / ub;
    case Op::Rem:
        if (ub == 0)
            return ua;
        if (sgn)
            return sb == -1 ? 0 : (uint64_t)(sa % sb);
        return ua % ub;
    case Op::Min: return sgn ? (uint64_t)std::min(sa, sb) : std::min(ua, ub);
    case Op::Max: return sgn ? (uint64_t)std::max(sa, sb) : std::max(ua, ub);
    case Op::Abs: return sa < 0 ? (uint64_t)(-(uint64_t)sa) : (uint64_t)sa;
    case Op::Neg: return -(uint64_t)ua;
    case Op::And: return ua & ub;
    case Op::Or: return ua | ub;
    case Op::Xor: return ua ^ ub;
    case Op::Not: return ~ua;
    case Op::Shl: return ub >= (uint64_t)bits ? 0 : ua << ub;
    case Op::Shr:
        if (sgn)
            return (uint64_t)(sa >> (ub >= (uint64_t)bits ? bits - 1 : ub));
        return ub >= (uint64_t)bits ? 0 : ua >> ub;
    default: return 0;
    }
}

template <typename F> static F float_op(const Insn &in, F a, F b, F c)
{
    switch (in.op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Mad:
    case Op::Fma: return std::fma(a, b, c);
    case Op::Div: return a / b;
    case Op::Min: return std::isnan(a) ? b : std::isnan(b) ? a : std::min(a, b);
    case Op::Max: return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b);
    case Op::Abs: return std::fabs(a);
    case Op::Neg: return -a;
    case Op::Sqrt: return std::sqrt(a);
    case Op::Ex2: return std::exp2(a);
    case Op::Lg2: return std::log2(a);
    case Op::Sin: return std::sin(a);
    case Op::Cos: return std::cos(a);
    case Op::Tanh: return std::tanh(a);
    case Op::Copysign: return std::copysign(b, a); /* copysign d, a, b: b with a's sign */
    case Op::Rsqrt: return F(1) / std::sqrt(a);
    case Op::Rcp: return F(1) / a;
    default: return 0;
    }
}

uint64_t float_result(const Insn &in, uint64_t a, uint64_t b, uint64_t c)
{
    bool rounded = in.mods & (MOD_RZ | MOD_RM | MOD_RP);
    int saved = rounded ? std::fegetround() : 0;
    if (rounded)
        std::fesetround(rounding(in.mods));
    uint64_t r;
    if (in.type.bits == 64) {
        r = bits_of(float_op<double>(in, f64(a), f64(b), f64(c)));
    } else {
        float x = f32(a), y = f32(b), z = f32(c);
        if (in.mods & MOD_FTZ)
            x = ftz(x), y = ftz(y), z = ftz(z);
        float v = float_op<float>(in, x, y, z);
        if (in.mods & MOD_SAT)
            v = std::isnan(v) ? 0.0f : std::min(1.0f, std::max(0.0f, v));
        r = bits_of(in.mods & MOD_FTZ ? ftz(v) : v);
    }
    if (rounded)
        std::fesetround(saved);
    return r;
}

uint64_t bit_op(const Insn &in, uint64_t a, uint64_t b, uint64_t c, uint64_t e)
{
    int bits = in.type.bits;
    uint64_t m = mask_of(bits), ua = a & m;
    switch (in.op) {
    case Op::Popc: return (uint64_t)__builtin_popcountll(ua);
    case Op::Clz: return ua ? (uint64_t)(__builtin_clzll(ua) - (64 - bits)) : (uint64_t)bits;
    case Op::Brev: {
        uint64_t r = 0;
        for (int i = 0; i < bits; i++)
            r |= ((ua >> i) & 1) << (bits - 1 - i);
        return r;
    }
    case Op::Bfe: { /* PTX: pos and len are the low 8 bits of b and c */
        uint32_t pos = (uint32_t)b & 0xff, len = (uint32_t)c & 0xff;
        bool sgn = in.type.kind == Kind::Signed;
        uint64_t r = 0;
        for (uint32_t i = 0; i < (uint32_t)bits; i++) {
            uint64_t bit;
            if (i < len && pos + i < (uint32_t)bits)
                bit = (ua >> (pos + i)) & 1;
            else if (sgn && len > 0)
                bit = (ua >> std::min(pos + len - 1, (uint32_t)bits - 1)) & 1; /* the sign bit */
            else
                bit = 0;
            r |= bit << i;
        }
        return r & m;
    }
    case Op::Bfi: { /* bfi d, a, b, pos, len: a's low len bits into b at pos */
        uint32_t pos = (uint32_t)c & 0xff, len = (uint32_t)e & 0xff;
        uint64_t r = b & m;
        for (uint32_t i = 0; i < len && pos + i < (uint32_t)bits; i++)
            r = (r & ~(1ull << (pos + i))) | (((ua >> i) & 1) << (pos + i));
        return r;
    }
    case Op::Shf: { /* shf.l/r.wrap/clamp.b32 d, a, b, c: the funnel of b:a shifted by c */
        uint64_t both = (b & 0xffffffffull) << 32 | (ua & 0xffffffffull);
        uint32_t n = (uint32_t)c & 0xffffffffu;
        n = in.sub & SUB_SHF_WRAP ? n & 31 : (n > 32 ? 32 : n);
        return in.sub & SUB_SHF_RIGHT ? (both >> n) & 0xffffffffull : ((both << n) >> 32) & 0xffffffffull;
    }
    case Op::Prmt: { /* prmt.b32 d, a, b, c: bytes of b:a picked by c's four selectors (the default mode) */
        uint64_t both = (b & 0xffffffffull) << 32 | (ua & 0xffffffffull);
        uint32_t r = 0;
        for (int i = 0; i < 4; i++) {
            uint32_t sel = ((uint32_t)c >> (4 * i)) & 0xf;
            uint32_t byte = (uint32_t)(both >> (8 * (sel & 7))) & 0xff;
            if (sel & 8) /* the byte's sign replicated */
                byte = byte & 0x80 ? 0xff : 0;
            r |= byte << (8 * i);
        }
        return r;
    }
    case Op::Sad: { /* sad d, a, b, c: |a - b| + c */
        bool sgn = in.type.kind == Kind::Signed;
        uint64_t diff = sgn ? (uint64_t)(as_signed(a, bits) > as_signed(b, bits) ? as_signed(a, bits) - as_signed(b, bits)
                                                                                 : as_signed(b, bits) - as_signed(a, bits))
                            : (ua > (b & m) ? ua - (b & m) : (b & m) - ua);
        return (diff + c) & m;
    }
    case Op::Bfind: { /* the position of the most significant non-sign bit; all ones for none */
        uint64_t v = in.type.kind == Kind::Signed && (ua >> (bits - 1)) ? ~ua & m : ua;
        if (!v)
            return 0xffffffffull;
        uint32_t pos = 63 - (uint32_t)__builtin_clzll(v);
        return in.sub & SUB_SHIFTAMT ? (uint64_t)(bits - 1 - pos) : pos;
    }
    default: return 0;
    }
}

uint64_t atomic_result(AtomOp op, Type t, uint64_t old, uint64_t b, uint64_t c)
{
    int bits = t.bits;
    uint64_t m = mask_of(bits);
    if (t.kind == Kind::Float) {
        if (op == AtomOp::Exch)
            return b & m;
        if (bits == 64) {
            double x = f64(old), y = f64(b);
            return bits_of(op == AtomOp::Add ? x + y : op == AtomOp::Min ? std::fmin(x, y) : std::fmax(x, y));
        }
        float x = f32(old), y = f32(b);
        return bits_of(op == AtomOp::Add ? x + y : op == AtomOp::Min ? std::fmin(x, y) : std::fmax(x, y));
    }
    bool sgn = t.kind == Kind::Signed;
    int64_t so = as_signed(old, bits), sb = as_signed(b, bits);
    uint64_t uo = old & m, ub = b & m;
    switch (op) {
    case AtomOp::Add: return (uo + ub) & m;
    case AtomOp::Min: return (sgn ? (uint64_t)std::min(so, sb) : std::min(uo, ub)) & m;
    case AtomOp::Max: return (sgn ? (uint64_t)std::max(so, sb) : std::max(uo, ub)) & m;
    case AtomOp::Inc: return uo >= ub ? 0 : (uo + 1) & m;
    case AtomOp::Dec: return uo == 0 || uo > ub ? ub : (uo - 1) & m;
    case AtomOp::And: return uo & ub;
    case AtomOp::Or: return uo | ub;
    case AtomOp::Xor: return uo ^ ub;
    case AtomOp::Exch: return ub;
    case AtomOp::Cas: return uo == ub ? c & m : uo;
    }
    return uo;
}

} // namespace ptx
