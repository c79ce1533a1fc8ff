/* ptx_arith.h - the values PTX computes with (internal to emu/ptx/): a
 * register holds 64 bits; an instruction's type says how many of them it
 * reads and how (ptx_arith.cpp). */
#ifndef CUGRADE_PTX_ARITH_H
#define CUGRADE_PTX_ARITH_H

#include "ptx_module.h"

#include <cstdint>
#include <cstring>

namespace ptx {

uint64_t mask_of(int bits);               /* the low bits set */
int64_t as_signed(uint64_t v, int bits);  /* v's low bits, sign-extended */

/* A register's low 32 bits as a float, its 64 as a double, and back
 * (inline: the fast paths call them for every lane). */
inline float f32(uint64_t v)
{
    uint32_t b = (uint32_t)v;
    float f;
    memcpy(&f, &b, 4);
    return f;
}
inline double f64(uint64_t v)
{
    double f;
    memcpy(&f, &v, 8);
    return f;
}
inline uint64_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
inline uint64_t bits_of(double f)
{
    uint64_t b;
    memcpy(&b, &f, 8);
    return b;
}

bool compare_int(Cmp c, uint64_t a, uint64_t b, bool is_signed, int bits);
bool compare_float(Cmp c, double a, double b);

/* cvt: v (of type from) as type to, by the cvt's modifiers (rounding,
 * saturation). */
uint64_t convert(uint64_t v, Type to, Type from, uint16_t mods);

/* An integer instruction (add ... shr, mul/mad with .lo, .hi, .wide) on a, b, c. */
uint64_t int_op(const Insn &in, uint64_t a, uint64_t b, uint64_t c);

/* A float instruction of in's type (f32, f64) on a, b, c, rounded and
 * flushed as in says. */
uint64_t float_result(const Insn &in, uint64_t a, uint64_t b, uint64_t c);

/* popc, clz, brev (of a), bfe (a's bits from b, c of them), bfi (a's low e
 * bits into b at c): in's type says the width and, for bfe, the sign. */
uint64_t bit_op(const Insn &in, uint64_t a, uint64_t b, uint64_t c, uint64_t e);

/* What atom or red (op, of type t) leaves in memory holding old, with b
 * (and c, cas's new value). */
uint64_t atomic_result(AtomOp op, Type t, uint64_t old, uint64_t b, uint64_t c);

} // namespace ptx

#endif
