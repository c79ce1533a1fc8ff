/* fiber.cpp - stacks for the fibers that run CUDA threads.
 *
 * One mapping holds a slot per thread of the largest block launched so far:
 * a kFiberGuardBytes guard region (no access) below a kFiberStackBytes
 * stack (plus one page, so that staggered stack tops keep the full size). It is mapped once, grown when a launch needs more threads, and
 * reused by every block and launch; only the pages a thread touches become
 * resident. A thread that overflows its stack faults in its guard region,
 * which guard.cpp turns into a diagnostic.
 *
 * A fresh fiber is a stack whose top holds the frame cugrade_fiber_switch
 * (fiber_x86_64.S) expects, with cugrade_fiber_start as return address. */
#include <cstring>
#include <sys/mman.h>

#include "emu_internal.h"

extern "C" void cugrade_fiber_start();

namespace cugrade::emu {
namespace {

constexpr size_t kCacheColours = 64; /* cache lines in a 4 KiB page */
constexpr size_t kSlotBytes = kFiberGuardBytes + kFiberStackBytes + kCacheColours * 64;

/* Read by the signal handler: written only between launches. */
unsigned char *volatile g_stacks_base;
volatile size_t g_stacks_slots;

bool map_stacks(size_t slots)
{
    size_t bytes = slots * kSlotBytes;
    void *mem = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED)
        return false;
    unsigned char *base = static_cast<unsigned char *>(mem);
    for (size_t i = 0; i < slots; i++) {
        if (mprotect(base + i * kSlotBytes + kFiberGuardBytes, kSlotBytes - kFiberGuardBytes,
                     PROT_READ | PROT_WRITE) != 0) {
            munmap(mem, bytes);
            return false;
        }
    }
    g_stacks_base = base;
    g_stacks_slots = slots;
    return true;
}

} // namespace

bool fiber_stacks_reserve(unsigned nthreads)
{
    if (nthreads <= g_stacks_slots)
        return true;
    unsigned char *old_base = g_stacks_base;
    size_t old_slots = g_stacks_slots;
    if (!map_stacks(nthreads))
        return false;
    if (old_base)
        munmap(old_base, old_slots * kSlotBytes);
    return true;
}

uint32_t fiber_current_fp_control()
{
    uint32_t mxcsr = __builtin_ia32_stmxcsr();
    uint16_t x87cw;
    __asm__ __volatile__("fnstcw %0" : "=m"(x87cw));
    return (mxcsr & 0xffffu) | (uint32_t(x87cw) << 16);
}

void *fiber_initial_frame(unsigned slot, uint32_t fp_control)
{
    /* Stagger the stack tops by a cache line per slot: at the same page
     * offset, every fiber's frames would compete for one L1 set. */
    size_t colour = (slot % kCacheColours) * 64;
    unsigned char *top = g_stacks_base + (size_t(slot) + 1) * kSlotBytes - colour;
    uint64_t *frame = reinterpret_cast<uint64_t *>(top) - 10;
    /* [0] mxcsr | x87 control word << 32, [1..6] r15 r14 r13 r12 rbx rbp,
     * [7] return address, [8..9] zero: ends backtraces, keeps alignment. */
    frame[0] = uint64_t(fp_control & 0xffffu) | (uint64_t(fp_control >> 16) << 32);
    for (int i = 1; i <= 6; i++)
        frame[i] = 0;
    frame[7] = reinterpret_cast<uint64_t>(&cugrade_fiber_start);
    frame[8] = 0;
    frame[9] = 0;
    return frame;
}

void fiber_stacks_range(uintptr_t *lo, uintptr_t *hi)
{
    *lo = reinterpret_cast<uintptr_t>(g_stacks_base);
    *hi = *lo + g_stacks_slots * kSlotBytes;
}

long fiber_guard_slot(const void *addr)
{
    const unsigned char *p = static_cast<const unsigned char *>(addr);
    const unsigned char *base = g_stacks_base;
    size_t slots = g_stacks_slots;
    if (!base || p < base || p >= base + slots * kSlotBytes)
        return -1;
    size_t offset = size_t(p - base);
    return offset % kSlotBytes < kFiberGuardBytes ? long(offset / kSlotBytes) : -1;
}

} // namespace cugrade::emu
