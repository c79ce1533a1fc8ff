/* cugrade_math.h - CUDA's device math that the host C library lacks, for
 * the CPU emulator: min/max overloads, the __f*_rn / __fdividef / __expf
 * intrinsics (computed here at full float precision, so they may be more
 * accurate than the GPU's fast forms), conversions with explicit rounding,
 * bit reinterpretation and integer intrinsics.
 *
 * The standard <cmath> functions (sqrtf, fmaf, expf, ...) come from the host
 * library, also in the global namespace as nvcc makes them. Part of the
 * shim; include cuda_runtime.h. */
#ifndef CUGRADE_MATH_H
#define CUGRADE_MATH_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <math.h>

/* ---- min / max: CUDA's overload set, mixed signedness gives unsigned ------ */
#define CUGRADE_MINMAX(ret, ta, tb)                                                                \
    inline ret min(ta a, tb b) { return (ret)a < (ret)b ? (ret)a : (ret)b; }                       \
    inline ret max(ta a, tb b) { return (ret)a > (ret)b ? (ret)a : (ret)b; }
CUGRADE_MINMAX(int, int, int)
CUGRADE_MINMAX(unsigned int, unsigned int, unsigned int)
CUGRADE_MINMAX(unsigned int, int, unsigned int)
CUGRADE_MINMAX(unsigned int, unsigned int, int)
CUGRADE_MINMAX(long, long, long)
CUGRADE_MINMAX(unsigned long, unsigned long, unsigned long)
CUGRADE_MINMAX(unsigned long, long, unsigned long)
CUGRADE_MINMAX(unsigned long, unsigned long, long)
CUGRADE_MINMAX(long long, long long, long long)
CUGRADE_MINMAX(unsigned long long, unsigned long long, unsigned long long)
CUGRADE_MINMAX(unsigned long long, long long, unsigned long long)
CUGRADE_MINMAX(unsigned long long, unsigned long long, long long)
#undef CUGRADE_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
inline double min(float a, double b) { return fmin(a, b); }
inline double max(float a, double b) { return fmax(a, b); }
inline double min(double a, float b) { return fmin(a, b); }
inline double max(double a, float b) { return fmax(a, b); }

/* ---- float intrinsics ----------------------------------------------------- */
inline float __fdividef(float x, float y) { return x / y; }
inline float fdividef(float x, float y) { return x / y; }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fsub_rn(float x, float y) { return x - y; }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fdiv_rn(float x, float y) { return x / y; }
inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline double __dadd_rn(double x, double y) { return x + y; }
inline double __dmul_rn(double x, double y) { return x * y; }
inline double __fma_rn(double x, double y, double z) { return fma(x, y, z); }
/* Clamps to [0, 1]; NaN gives 0 as on the GPU. */
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return powf(10.0f, x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline void __sincosf(float x, float *s, float *c)
{
    *s = sinf(x);
    *c = cosf(x);
}

/* ---- conversions with explicit rounding ---------------------------------- */
inline int __float2int_rn(float x) { return static_cast<int>(nearbyintf(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(truncf(x)); }
inline int __float2int_rd(float x) { return static_cast<int>(floorf(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(ceilf(x)); }
inline unsigned int __float2uint_rn(float x) { return static_cast<unsigned int>(nearbyintf(x)); }
inline unsigned int __float2uint_rz(float x) { return static_cast<unsigned int>(truncf(x)); }
inline long long __float2ll_rn(float x) { return static_cast<long long>(nearbyintf(x)); }
inline int __double2int_rn(double x) { return static_cast<int>(nearbyint(x)); }
inline int __double2int_rz(double x) { return static_cast<int>(trunc(x)); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned int x) { return static_cast<float>(x); }
inline float __ll2float_rn(long long x) { return static_cast<float>(x); }
inline double __int2double_rn(int x) { return static_cast<double>(x); }

/* ---- bit reinterpretation ------------------------------------------------- */
template <class To, class From> inline To cugrade_bit_cast(From v)
{
    static_assert(sizeof(To) == sizeof(From), "sizes differ");
    To out;
    std::memcpy(&out, &v, sizeof out);
    return out;
}
inline int __float_as_int(float x) { return cugrade_bit_cast<int>(x); }
inline unsigned int __float_as_uint(float x) { return cugrade_bit_cast<unsigned int>(x); }
inline float __int_as_float(int x) { return cugrade_bit_cast<float>(x); }
inline float __uint_as_float(unsigned int x) { return cugrade_bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return cugrade_bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return cugrade_bit_cast<double>(x); }

/* ---- integer intrinsics --------------------------------------------------- */
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x)
{
    unsigned int r = 0;
    for (int i = 0; i < 32; i++, x >>= 1)
        r = (r << 1) | (x & 1u);
    return r;
}
/* Multiplies the low 24 bits of each operand, sign-extended. */
inline int __mul24(int x, int y)
{
    int lx = ((x & 0xffffff) ^ 0x800000) - 0x800000;
    int ly = ((y & 0xffffff) ^ 0x800000) - 0x800000;
    return static_cast<int>(static_cast<long long>(lx) * ly);
}
inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned int __umulhi(unsigned int x, unsigned int y)
{
    return static_cast<unsigned int>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline int __sad(int x, int y, unsigned int z) { return static_cast<int>(z) + (x > y ? x - y : y - x); }

#endif
