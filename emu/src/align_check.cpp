/* align_check.cpp - misaligned accesses in the checking mode.
 *
 * Every load and store of a GPU must be aligned to its size: a float4 read
 * through reinterpret_cast<float4 *>(p + 1) stops the kernel with
 * cudaErrorMisalignedAddress. The hooks (hooks.cpp) know which accesses the
 * compiler took to be aligned to their size (the plain __tsan_readN, not
 * the __tsan_unaligned_ forms) and call misaligned_access for such an
 * access to shared or device memory at an address that is not a multiple
 * of its size. It is reported as an invalid-address finding (the grader's
 * memory-safe check) at once, as an invalid address is: the access may
 * crash the program right after the hook (a whole-vector copy is compiled
 * to x86's aligned moves, which fault as the GPU does); repeats are counted
 * per instruction. */
#include <cstdio>

#include "check_internal.h"

namespace cugrade::emu {
namespace {

/* "16 bytes (a float4, int4 or double2)" */
const char *what_needs(unsigned size)
{
    switch (size) {
    case 16:
        return "a 16-byte access (a whole float4, int4, uint4 or double2)";
    case 8:
        return "an 8-byte access (a whole float2, int2, double or long long)";
    case 4:
        return "a 4-byte access (a float, an int)";
    default:
        return "a 2-byte access";
    }
}

} // namespace

void misaligned_access(uintptr_t addr, unsigned size, bool is_write, uintptr_t pc)
{
    if (finding_repeat(diag_kind::invalid_address, pc, 0))
        return;
    char place[320];
    long long goff;
    size_t soff;
    if (const char *buffer = global_buffer_at(addr, &goff))
        snprintf(place, sizeof place, "byte offset %lld of %s", goff, buffer);
    else if (is_shared_address(addr)) {
        const char *var = shared_address_label(addr, &soff);
        snprintf(place, sizeof place, "byte offset %zu of %s%s", soff, shared_label_prefix(var), var);
    } else
        snprintf(place, sizeof place, "0x%lx", static_cast<unsigned long>(addr));
    const launch_site &s = *g_exec.site;
    uint3 t = thread_of(g_exec.thread_linear), b = g_exec.block_idx;
    finding_add_now(diag_kind::invalid_address, pc,
                    "Misaligned address in kernel %s launched at %s:%d: thread (%u,%u,%u) of block (%u,%u,%u) %s %u "
                "bytes at %s at " CUGRADE_LOC0 ", an address that is not a multiple of %u; %s must be %u-byte "
                "aligned, and a GPU stops the kernel there with cudaErrorMisalignedAddress. Take a vector only at "
                "an element whose index is a multiple of its width (and only where each row starts aligned), or "
                "load the elements one by one.",
                s.name, s.file, s.line, t.x, t.y, t.z, b.x, b.y, b.z, is_write ? "writes" : "reads", size, place,
                size, what_needs(size), size);
}

} // namespace cugrade::emu
