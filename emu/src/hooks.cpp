/* hooks.cpp - the entry points that code compiled with -fsanitize=thread
 * calls (emucc --checks), defined here instead of by libtsan, which is
 * never linked: __tsan_init, __tsan_func_entry/exit, __tsan_read/write
 * (1, 2, 4, 8, 16 bytes, aligned, unaligned and volatile), the range and
 * vptr forms, __tsan_memcpy/memset/memmove, and the __tsan_atomic* family,
 * which performs the operation.
 *
 * Every hook returns at once outside a kernel (host code is instrumented
 * too). In a kernel the address is classified, most frequent first: shared
 * memory (the shared checker), the program's own code and static data
 * (threadIdx, __device__ variables: nothing to check), the fiber stacks and
 * the launch's stored arguments (locals: nothing to check), device memory
 * (the global checker), anything else (invalid-address). An access the
 * compiler took to be aligned to its size (a whole float4: 16 bytes) at an
 * address that is not is also reported (misaligned address, as a GPU stops
 * the kernel there). The pc of an access is the hook's return address. */
#include <cstring>
#include <mutex>

#include "check_internal.h"

using namespace cugrade::emu;

#define CUGRADE_RET_PC reinterpret_cast<uintptr_t>(__builtin_return_address(0))

namespace {

inline bool in_range(uintptr_t a, uintptr_t lo, uintptr_t len) { return a - lo < len; }

/* natural: the compiler took the access to be aligned to its size (the
 * plain hooks; the unaligned ones say it did not), as every GPU load and
 * store must be. */
__attribute__((noinline)) void other_access(uintptr_t a, unsigned size, bool is_write, uintptr_t pc, bool natural)
{
    if (in_range(a, g_ranges.stacks_lo, g_ranges.stacks_len) || in_range(a, g_ranges.call_lo, g_ranges.call_len))
        return;
    if (!global_access(a, size, is_write, pc))
        invalid_access(a, size, is_write, pc);
    else if (natural && (a & (size - 1)) != 0)
        misaligned_access(a, size, is_write, pc);
}

inline void on_access(const volatile void *p, unsigned size, bool is_write, uintptr_t pc, bool natural = false)
{
    if (!g_exec.in_kernel || size == 0) /* size is a constant in all but the range hooks */
        return;
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    if (in_range(a, g_ranges.shared_lo, g_ranges.shared_len)) {
        if (natural && __builtin_expect((a & (size - 1)) != 0, 0))
            misaligned_access(a, size, is_write, pc);
        shared_access(a, size, is_write, pc);
        return;
    }
    if (in_range(a, g_ranges.image_lo, g_ranges.image_len))
        return;
    other_access(a, size, is_write, pc, natural);
}

} // namespace

void cugrade::emu::check_access(uintptr_t addr, unsigned size, bool is_write, uintptr_t pc)
{
    on_access(reinterpret_cast<const volatile void *>(addr), size, is_write, pc);
}

namespace {

/* An atomic operation on size bytes at p (the emulator's atomicAdd & co.
 * and the __tsan_atomic* hooks other than loads, which count as reads). */
void on_atomic(const volatile void *p, unsigned size, bool reads_old, uintptr_t pc)
{
    if (!g_exec.in_kernel)
        return;
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    if (in_range(a, g_ranges.shared_lo, g_ranges.shared_len))
        shared_atomic(a, size, reads_old, pc);
    else if (in_range(a, g_ranges.image_lo, g_ranges.image_len) || in_range(a, g_ranges.stacks_lo, g_ranges.stacks_len))
        return;
    else if (!in_range(a, g_ranges.call_lo, g_ranges.call_len))
        global_atomic(a, size, reads_old, pc);
}

/* 16-byte atomics would need libatomic: they take this lock instead. */
std::mutex g_wide_atomic_mutex;

} // namespace

extern "C" {

void __tsan_init() { enable_checks(); }
void __tsan_func_entry(void *call_pc) { (void)call_pc; }
void __tsan_func_exit() {}
void __tsan_ignore_thread_begin() {}
void __tsan_ignore_thread_end() {}

/* Our own atomics (cugrade_device.h), built without instrumentation. */
void __cugrade_atomic_access(const volatile void *addr, unsigned size, int reads_old, void *pc)
{
    on_atomic(addr, size, reads_old != 0, reinterpret_cast<uintptr_t>(pc));
}

/* The plain, volatile and _pc forms are accesses the compiler knows to be
 * aligned to their size (natural): checked for a misaligned address. */
#define CUGRADE_ACCESS_HOOKS(n)                                                                               \
    void __tsan_read##n(void *p) { on_access(p, n, false, CUGRADE_RET_PC, true); }                            \
    void __tsan_write##n(void *p) { on_access(p, n, true, CUGRADE_RET_PC, true); }                            \
    void __tsan_unaligned_read##n(void *p) { on_access(p, n, false, CUGRADE_RET_PC); }                        \
    void __tsan_unaligned_write##n(void *p) { on_access(p, n, true, CUGRADE_RET_PC); }                        \
    void __tsan_volatile_read##n(void *p) { on_access(p, n, false, CUGRADE_RET_PC, true); }                   \
    void __tsan_volatile_write##n(void *p) { on_access(p, n, true, CUGRADE_RET_PC, true); }                   \
    void __tsan_unaligned_volatile_read##n(void *p) { on_access(p, n, false, CUGRADE_RET_PC); }               \
    void __tsan_unaligned_volatile_write##n(void *p) { on_access(p, n, true, CUGRADE_RET_PC); }               \
    void __tsan_read##n##_pc(void *p, void *pc)                                                               \
    {                                                                                                         \
        on_access(p, n, false, reinterpret_cast<uintptr_t>(pc), true);                                        \
    }                                                                                                         \
    void __tsan_write##n##_pc(void *p, void *pc) { on_access(p, n, true, reinterpret_cast<uintptr_t>(pc), true); }
CUGRADE_ACCESS_HOOKS(1)
CUGRADE_ACCESS_HOOKS(2)
CUGRADE_ACCESS_HOOKS(4)
CUGRADE_ACCESS_HOOKS(8)
CUGRADE_ACCESS_HOOKS(16)
#undef CUGRADE_ACCESS_HOOKS

void __tsan_read_range(void *p, unsigned long size) { on_access(p, unsigned(size), false, CUGRADE_RET_PC); }
void __tsan_write_range(void *p, unsigned long size) { on_access(p, unsigned(size), true, CUGRADE_RET_PC); }
void __tsan_vptr_read(void **vptr_p) { on_access(vptr_p, sizeof(void *), false, CUGRADE_RET_PC); }
void __tsan_vptr_update(void **vptr_p, void *new_val)
{
    (void)new_val;
    on_access(vptr_p, sizeof(void *), true, CUGRADE_RET_PC);
}

void *__tsan_memcpy(void *dst, const void *src, unsigned long size)
{
    on_access(src, unsigned(size), false, CUGRADE_RET_PC);
    on_access(dst, unsigned(size), true, CUGRADE_RET_PC);
    return memcpy(dst, src, size);
}
void *__tsan_memmove(void *dst, const void *src, unsigned long size)
{
    on_access(src, unsigned(size), false, CUGRADE_RET_PC);
    on_access(dst, unsigned(size), true, CUGRADE_RET_PC);
    return memmove(dst, src, size);
}
void *__tsan_memset(void *dst, int value, unsigned long size)
{
    on_access(dst, unsigned(size), true, CUGRADE_RET_PC);
    return memset(dst, value, size);
}

void __tsan_atomic_thread_fence(int mo)
{
    (void)mo;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
void __tsan_atomic_signal_fence(int mo)
{
    (void)mo;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* The memory order arguments are ignored: every operation is sequentially
 * consistent, which is always a correct implementation. */
#define CUGRADE_ATOMIC_RMW(bits, T, op)                                                                       \
    T __tsan_atomic##bits##_##op(volatile T *a, T v, int mo)                                                  \
    {                                                                                                         \
        (void)mo;                                                                                             \
        on_atomic(a, sizeof(T), true, CUGRADE_RET_PC);                                                        \
        return __atomic_##op(a, v, __ATOMIC_SEQ_CST);                                                         \
    }
#define CUGRADE_ATOMIC_HOOKS(bits, T)                                                                         \
    T __tsan_atomic##bits##_load(const volatile T *a, int mo)                                                 \
    {                                                                                                         \
        (void)mo;                                                                                             \
        on_access(a, sizeof(T), false, CUGRADE_RET_PC);                                                       \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                          \
    }                                                                                                         \
    void __tsan_atomic##bits##_store(volatile T *a, T v, int mo)                                              \
    {                                                                                                         \
        (void)mo;                                                                                             \
        on_atomic(a, sizeof(T), false, CUGRADE_RET_PC);                                                       \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                             \
    }                                                                                                         \
    T __tsan_atomic##bits##_exchange(volatile T *a, T v, int mo)                                              \
    {                                                                                                         \
        (void)mo;                                                                                             \
        on_atomic(a, sizeof(T), false, CUGRADE_RET_PC);                                                       \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                                   \
    }                                                                                                         \
    CUGRADE_ATOMIC_RMW(bits, T, fetch_add)                                                                    \
    CUGRADE_ATOMIC_RMW(bits, T, fetch_sub)                                                                    \
    CUGRADE_ATOMIC_RMW(bits, T, fetch_and)                                                                    \
    CUGRADE_ATOMIC_RMW(bits, T, fetch_or)                                                                     \
    CUGRADE_ATOMIC_RMW(bits, T, fetch_xor)                                                                    \
    CUGRADE_ATOMIC_RMW(bits, T, fetch_nand)                                                                   \
    int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fail_mo)          \
    {                                                                                                         \
        (void)mo, (void)fail_mo;                                                                              \
        on_atomic(a, sizeof(T), true, CUGRADE_RET_PC);                                                        \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);               \
    }                                                                                                         \
    int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fail_mo)            \
    {                                                                                                         \
        (void)mo, (void)fail_mo;                                                                              \
        on_atomic(a, sizeof(T), true, CUGRADE_RET_PC);                                                        \
        return __atomic_compare_exchange_n(a, c, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                \
    }                                                                                                         \
    T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fail_mo)                \
    {                                                                                                         \
        (void)mo, (void)fail_mo;                                                                              \
        on_atomic(a, sizeof(T), true, CUGRADE_RET_PC);                                                        \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                     \
        return c;                                                                                             \
    }
CUGRADE_ATOMIC_HOOKS(8, char)
CUGRADE_ATOMIC_HOOKS(16, short)
CUGRADE_ATOMIC_HOOKS(32, int)
CUGRADE_ATOMIC_HOOKS(64, long)
#undef CUGRADE_ATOMIC_HOOKS
#undef CUGRADE_ATOMIC_RMW

/* 128 bits: the same operations under a lock. */
typedef __int128 cugrade_a128;
#define CUGRADE_WIDE_RMW(op, expr)                                                                            \
    cugrade_a128 __tsan_atomic128_##op(volatile cugrade_a128 *a, cugrade_a128 v, int mo)                      \
    {                                                                                                         \
        (void)mo;                                                                                             \
        on_atomic(a, 16, true, CUGRADE_RET_PC);                                                               \
        std::lock_guard<std::mutex> lock(g_wide_atomic_mutex);                                                \
        cugrade_a128 old = *a;                                                                                \
        *a = (expr);                                                                                          \
        return old;                                                                                           \
    }
CUGRADE_WIDE_RMW(exchange, v)
CUGRADE_WIDE_RMW(fetch_add, old + v)
CUGRADE_WIDE_RMW(fetch_sub, old - v)
CUGRADE_WIDE_RMW(fetch_and, old & v)
CUGRADE_WIDE_RMW(fetch_or, old | v)
CUGRADE_WIDE_RMW(fetch_xor, old ^ v)
CUGRADE_WIDE_RMW(fetch_nand, ~(old & v))
#undef CUGRADE_WIDE_RMW

cugrade_a128 __tsan_atomic128_load(const volatile cugrade_a128 *a, int mo)
{
    (void)mo;
    on_access(a, 16, false, CUGRADE_RET_PC);
    std::lock_guard<std::mutex> lock(g_wide_atomic_mutex);
    return *a;
}
void __tsan_atomic128_store(volatile cugrade_a128 *a, cugrade_a128 v, int mo)
{
    (void)mo;
    on_atomic(a, 16, false, CUGRADE_RET_PC);
    std::lock_guard<std::mutex> lock(g_wide_atomic_mutex);
    *a = v;
}
static int wide_compare_exchange(volatile cugrade_a128 *a, cugrade_a128 *c, cugrade_a128 v)
{
    std::lock_guard<std::mutex> lock(g_wide_atomic_mutex);
    if (*a == *c) {
        *a = v;
        return 1;
    }
    *c = *a;
    return 0;
}
int __tsan_atomic128_compare_exchange_strong(volatile cugrade_a128 *a, cugrade_a128 *c, cugrade_a128 v, int mo,
                                             int fail_mo)
{
    (void)mo, (void)fail_mo;
    on_atomic(a, 16, true, CUGRADE_RET_PC);
    return wide_compare_exchange(a, c, v);
}
int __tsan_atomic128_compare_exchange_weak(volatile cugrade_a128 *a, cugrade_a128 *c, cugrade_a128 v, int mo,
                                           int fail_mo)
{
    (void)mo, (void)fail_mo;
    on_atomic(a, 16, true, CUGRADE_RET_PC);
    return wide_compare_exchange(a, c, v);
}
cugrade_a128 __tsan_atomic128_compare_exchange_val(volatile cugrade_a128 *a, cugrade_a128 c, cugrade_a128 v,
                                                   int mo, int fail_mo)
{
    (void)mo, (void)fail_mo;
    on_atomic(a, 16, true, CUGRADE_RET_PC);
    wide_compare_exchange(a, &c, v);
    return c;
}

} // extern "C"
