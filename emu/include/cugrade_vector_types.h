/* cugrade_vector_types.h - CUDA's built-in vector types for the CPU emulator:
 * uint3 and dim3 (thread and block coordinates), the short vectors
 * (float2, int4, ...) with CUDA's alignments, and their make_* helpers.
 * The alignments are CUDA's (float4, int4, double2: 16; float2, int2: 8;
 * the *_32a forms of CUDA 13: 32), so that a vector load or store through
 * a misaligned pointer, which stops a kernel on a GPU (misaligned address),
 * is reported by the checking mode (docs/emulator.md, "Vector types").
 *
 * Part of the emulator shim; include cuda_runtime.h, not this file. */
#ifndef CUGRADE_VECTOR_TYPES_H
#define CUGRADE_VECTOR_TYPES_H

struct uint3 {
    unsigned int x, y, z;
};

struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

/* One struct and one make_* function per (name, element type, alignment). */
#define CUGRADE_VEC1(name, type, align)                                                            \
    struct alignas(align) name {                                                                   \
        type x;                                                                                    \
    };                                                                                             \
    inline name make_##name(type x) { return name{x}; }
#define CUGRADE_VEC2(name, type, align)                                                            \
    struct alignas(align) name {                                                                   \
        type x, y;                                                                                 \
    };                                                                                             \
    inline name make_##name(type x, type y) { return name{x, y}; }
#define CUGRADE_VEC3(name, type, align)                                                            \
    struct alignas(align) name {                                                                   \
        type x, y, z;                                                                              \
    };                                                                                             \
    inline name make_##name(type x, type y, type z) { return name{x, y, z}; }
#define CUGRADE_VEC4(name, type, align)                                                            \
    struct alignas(align) name {                                                                   \
        type x, y, z, w;                                                                           \
    };                                                                                             \
    inline name make_##name(type x, type y, type z, type w) { return name{x, y, z, w}; }

CUGRADE_VEC1(char1, signed char, 1)
CUGRADE_VEC2(char2, signed char, 2)
CUGRADE_VEC3(char3, signed char, 1)
CUGRADE_VEC4(char4, signed char, 4)
CUGRADE_VEC1(uchar1, unsigned char, 1)
CUGRADE_VEC2(uchar2, unsigned char, 2)
CUGRADE_VEC3(uchar3, unsigned char, 1)
CUGRADE_VEC4(uchar4, unsigned char, 4)
CUGRADE_VEC1(short1, short, 2)
CUGRADE_VEC2(short2, short, 4)
CUGRADE_VEC3(short3, short, 2)
CUGRADE_VEC4(short4, short, 8)
CUGRADE_VEC1(ushort1, unsigned short, 2)
CUGRADE_VEC2(ushort2, unsigned short, 4)
CUGRADE_VEC3(ushort3, unsigned short, 2)
CUGRADE_VEC4(ushort4, unsigned short, 8)
CUGRADE_VEC1(int1, int, 4)
CUGRADE_VEC2(int2, int, 8)
CUGRADE_VEC3(int3, int, 4)
CUGRADE_VEC4(int4, int, 16)
CUGRADE_VEC1(uint1, unsigned int, 4)
CUGRADE_VEC2(uint2, unsigned int, 8)
CUGRADE_VEC4(uint4, unsigned int, 16)
CUGRADE_VEC1(long1, long, 8)
CUGRADE_VEC2(long2, long, 16)
CUGRADE_VEC3(long3, long, 8)
CUGRADE_VEC4(long4, long, 16)
CUGRADE_VEC1(ulong1, unsigned long, 8)
CUGRADE_VEC2(ulong2, unsigned long, 16)
CUGRADE_VEC3(ulong3, unsigned long, 8)
CUGRADE_VEC4(ulong4, unsigned long, 16)
CUGRADE_VEC4(long4_16a, long, 16)
CUGRADE_VEC4(long4_32a, long, 32)
CUGRADE_VEC4(ulong4_16a, unsigned long, 16)
CUGRADE_VEC4(ulong4_32a, unsigned long, 32)
CUGRADE_VEC1(longlong1, long long, 8)
CUGRADE_VEC2(longlong2, long long, 16)
CUGRADE_VEC3(longlong3, long long, 8)
CUGRADE_VEC4(longlong4, long long, 16)
CUGRADE_VEC4(longlong4_16a, long long, 16)
CUGRADE_VEC4(longlong4_32a, long long, 32)
CUGRADE_VEC1(ulonglong1, unsigned long long, 8)
CUGRADE_VEC2(ulonglong2, unsigned long long, 16)
CUGRADE_VEC3(ulonglong3, unsigned long long, 8)
CUGRADE_VEC4(ulonglong4, unsigned long long, 16)
CUGRADE_VEC4(ulonglong4_16a, unsigned long long, 16)
CUGRADE_VEC4(ulonglong4_32a, unsigned long long, 32)
CUGRADE_VEC1(float1, float, 4)
CUGRADE_VEC2(float2, float, 8)
CUGRADE_VEC3(float3, float, 4)
CUGRADE_VEC4(float4, float, 16)
CUGRADE_VEC1(double1, double, 8)
CUGRADE_VEC2(double2, double, 16)
CUGRADE_VEC3(double3, double, 8)
CUGRADE_VEC4(double4, double, 16)
CUGRADE_VEC4(double4_16a, double, 16)
CUGRADE_VEC4(double4_32a, double, 32)

#undef CUGRADE_VEC1
#undef CUGRADE_VEC2
#undef CUGRADE_VEC3
#undef CUGRADE_VEC4

inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }

#endif
