/* cuda_runtime.h - the CPU emulator's stand-in for CUDA's runtime header.
 *
 * A student's .cu file, after the launch rewriter, compiles with the host
 * g++ (-std=c++17) against this header and links with libcugrade_emu.a; it
 * never sees a real CUDA header. This file pulls in the pieces and defines
 * the CUDA qualifiers:
 *   __global__ __device__ __host__ __constant__ __managed__   nothing
 *   __shared__        a function-static in section "cugrade_shared": blocks
 *                     run one after another, so a static is per-block memory
 *   extern __shared__ T a[]   rewritten by the rewriter to a pointer into
 *                     __cugrade_dynamic_smem (the launch's dynamic shared)
 *   __forceinline__ __noinline__ __launch_bounds__(...) __align__(n)
 *   (a kernel's __launch_bounds__ is checked at launch: emucc's rewriter puts
 *   __cugrade_launch_bounds_exceeded(MAX) first in its body)
 *   __cugrade_unroll(N)  what the rewriter makes of `#pragma unroll N`
 * See docs/emulator.md for how the emulator works. */
#ifndef CUGRADE_CUDA_RUNTIME_H
#define CUGRADE_CUDA_RUNTIME_H
#define __CUDA_RUNTIME_H__

/* libstdc++ spells __attribute__((__noinline__)) in several headers (gcc 12:
 * shared_ptr_base.h; gcc 13: more, included by <sstream> and friends), so
 * __noinline__ below expands to nothing: `__attribute__(())` is valid, and a
 * student's `__noinline__ __device__ f()` still compiles (inlining does not
 * change what the emulator checks). */
#include <cmath>
#include <cstddef>
#include <memory>

#include "cugrade_vector_types.h"
#include "cugrade_runtime_api.h"
#include "cugrade_device.h"
#include "cugrade_math.h"
#include "cugrade_launch.h"

/* Largest dynamic shared allocation (the opt-in limit, 227 KiB). */
#define CUGRADE_MAX_DYNAMIC_SMEM (227 * 1024)

/* The dynamic shared memory of the running block: 16-byte aligned,
 * CUGRADE_MAX_DYNAMIC_SMEM bytes, of which the launch's shmem are in use. */
extern "C" unsigned char __cugrade_dynamic_smem[];

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
#define __shared__ __attribute__((section("cugrade_shared"))) static
#define __forceinline__ __inline__
#define __noinline__
#define __launch_bounds__(...)
#define __maxnreg__(n)
#define __align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __builtin_align__(n) __attribute__((aligned(n)))

/* `#pragma unroll N` (emu/rewrite/pragma_rewrite.c): g++'s unroll pragma;
 * not in a checked build (CUGRADE_CHECKED_BUILD, cugrade_device.h), where
 * unrolled copies of an access would each be an instruction of their own
 * and report the same line several times. */
#define CUGRADE_PRAGMA(text) _Pragma(#text)
#ifdef CUGRADE_CHECKED_BUILD
#define __cugrade_unroll(n)
#else
#define __cugrade_unroll(n) CUGRADE_PRAGMA(GCC unroll n)
#endif

#endif
