/* global_check.cpp - device memory in the checking mode: out-of-bounds and
 * uninitialised accesses to cudaMalloc'd buffers, accesses to no memory of
 * the program at all, and host pointers given to a kernel.
 *
 * At the start of a launch the registry of allocations (memory.cpp) is
 * copied, and each buffer gets the name of the first pointer parameter of
 * the kernel that points into it ("A"), or "device allocation #n". An
 * access inside a buffer marks its words written (a store) or checks that
 * they were (a load: uninit-global); an access in a red zone around it is
 * global-oob with the distance past its end or before its start; an access
 * outside every buffer, shared memory, the stacks and the program's static
 * data is invalid-address, reported at once because the process may crash
 * on it right after the hook returns. */
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "check_internal.h"

namespace cugrade::emu {
namespace {

struct buffer {
    device_region r;
    std::string name; /* "A" or "device allocation #2 (4096 bytes)" */
};

std::vector<buffer> g_buffers; /* in address order */
buffer *g_last;                /* the buffer of the last access */

buffer *find_buffer(uintptr_t a)
{
    if (g_last && a - g_last->r.lo < g_last->r.hi - g_last->r.lo)
        return g_last;
    auto it = std::upper_bound(g_buffers.begin(), g_buffers.end(), a,
                               [](uintptr_t x, const buffer &b) { return x < b.r.lo; });
    if (it == g_buffers.begin() || a >= (it - 1)->r.hi)
        return nullptr;
    g_last = &*(it - 1);
    return g_last;
}

void launch_context(char *buf, size_t len)
{
    const launch_site &s = *g_exec.site;
    snprintf(buf, len, "kernel %s launched at %s:%d", s.name, s.file, s.line);
}

/* "thread (1,2,0) of block (3,0,0)" */
void who(char *buf, size_t len)
{
    uint3 t = thread_of(g_exec.thread_linear), b = g_exec.block_idx;
    snprintf(buf, len, "thread (%u,%u,%u) of block (%u,%u,%u)", t.x, t.y, t.z, b.x, b.y, b.z);
}

/* "64 bytes past the end of A (25600 bytes)" for an address outside b. */
void distance(char *buf, size_t len, const buffer &b, uintptr_t a, unsigned size)
{
    if (a + size > b.r.base + b.r.size && a >= b.r.base)
        snprintf(buf, len, "%zu bytes past the end of %s (%zu bytes)", size_t(a + size - (b.r.base + b.r.size)),
                 b.name.c_str(), b.r.size);
    else
        snprintf(buf, len, "%zu bytes before the start of %s", size_t(b.r.base - a), b.name.c_str());
}

void report_oob(const buffer &b, uintptr_t a, unsigned size, bool is_write, uintptr_t pc)
{
    if (finding_repeat(diag_kind::global_oob, pc, 0))
        return;
    char where[256], thread[96], far[256];
    launch_context(where, sizeof where);
    who(thread, sizeof thread);
    distance(far, sizeof far, b, a, size);
    long long offset = (long long)(a - b.r.base);
    finding_add(diag_kind::global_oob, pc, 0,
                "Out-of-bounds %s of %s in %s: %s %s %u bytes at byte offset %lld (element %lld) at " CUGRADE_LOC0
                ", %s; check the bounds that guard this access.",
                is_write ? "write" : "read", b.name.c_str(), where, thread, is_write ? "writes" : "reads", size, offset,
                offset / (long long)size, far);
}

void report_uninit(const buffer &b, uintptr_t a, unsigned size, uintptr_t pc)
{
    if (finding_repeat(diag_kind::uninit_global, pc, 0))
        return;
    char where[256], thread[96];
    launch_context(where, sizeof where);
    who(thread, sizeof thread);
    size_t offset = a - b.r.base;
    finding_add(diag_kind::uninit_global, pc, 0,
                "Uninitialised device memory read in %s: %s reads %s (element %zu, byte offset %zu) at " CUGRADE_LOC0
                ", which nothing has written: no cudaMemcpy, cudaMemset or kernel store reached it; copy or store "
                "the data before the kernel reads it.",
                where, thread, b.name.c_str(), offset / size, offset);
}

/* Marks (store) or checks (load) the written bits of [a, a + size). */
bool words_written(const buffer &b, uintptr_t a, unsigned size, bool mark)
{
    uint64_t *bits = b.r.written;
    size_t first = (a - b.r.base) / 4, last = (a - b.r.base + size - 1) / 4;
    bool all = true;
    for (size_t w = first; w <= last; w++) {
        uint64_t bit = uint64_t(1) << (w % 64);
        all &= (bits[w / 64] & bit) != 0;
        if (mark)
            bits[w / 64] |= bit;
    }
    return all;
}

/* Checks an access inside b or its red zones: is_write marks the words
 * written, reads checks that they were. */
void check_buffer_access(const buffer &b, uintptr_t a, unsigned size, bool is_write, bool reads, uintptr_t pc)
{
    if (a < b.r.base || a + size > b.r.base + b.r.size) {
        report_oob(b, a, size, is_write, pc);
        return;
    }
    if (!b.r.written)
        return;
    if (!words_written(b, a, size, is_write) && reads)
        report_uninit(b, a, size, pc);
}

/* A buffer's name: the first pointer parameter pointing into it. */
void name_buffers(const launch_site &site, const launch_args &args)
{
    const std::vector<std::string> *names = kernel_param_names(site.name, args.count);
    for (int i = 0; names && i < args.count; i++) {
        buffer *b = args.is_pointer[i] ? find_buffer(reinterpret_cast<uintptr_t>(args.pointers[i])) : nullptr;
        if (b && b->name.empty() && !(*names)[size_t(i)].empty())
            b->name = (*names)[size_t(i)];
    }
    for (buffer &b : g_buffers)
        if (b.name.empty())
            b.name = "device allocation #" + std::to_string(b.r.serial) + " (" + std::to_string(b.r.size) + " bytes)";
}

/* "argument A (1 of 9)" or "argument 1 of 9" */
std::string argument_label(const launch_site &site, const launch_args &args, int i)
{
    const std::vector<std::string> *names = kernel_param_names(site.name, args.count);
    std::string pos = std::to_string(i + 1) + " of " + std::to_string(args.count);
    if (names && !(*names)[size_t(i)].empty())
        return "argument " + (*names)[size_t(i)] + " (" + pos + ")";
    return "argument " + pos;
}

bool in_image(uintptr_t a) { return a - g_ranges.image_lo < g_ranges.image_len; }

void check_host_pointers(const launch_site &site, const launch_args &args)
{
    for (int i = 0; i < args.count; i++) {
        uintptr_t p = reinterpret_cast<uintptr_t>(args.pointers[i]);
        if (!args.is_pointer[i] || p == 0 || find_buffer(p) || in_image(p))
            continue;
        diag_report(severity::error, diag_kind::host_pointer,
                    "Kernel %s launched at %s:%d gets a host pointer as %s: 0x%lx is not device memory (not from "
                    "cudaMalloc). A kernel cannot use host memory: allocate the buffer with cudaMalloc, copy the "
                    "data with cudaMemcpy and pass the device pointer.",
                    site.name, site.file, site.line, argument_label(site, args, i).c_str(),
                    static_cast<unsigned long>(p));
    }
}

/* The buffer an invalid address probably belongs to: the nearest one that
 * ends below it (overruns are far more common than underruns), else the
 * nearest above; either within four times its size plus its red zone. */
const buffer *nearest_buffer(uintptr_t a)
{
    const buffer *below = nullptr, *above = nullptr;
    for (const buffer &b : g_buffers) {
        uintptr_t reach = 4 * b.r.size + (b.r.base - b.r.lo);
        if (a >= b.r.base + b.r.size && a - (b.r.base + b.r.size) <= reach &&
            (!below || b.r.base > below->r.base))
            below = &b;
        if (a < b.r.base && b.r.base - a <= reach && (!above || b.r.base < above->r.base))
            above = &b;
    }
    return below ? below : above;
}

} // namespace

void global_check_launch_begin(const launch_site &site, const launch_args &args)
{
    std::vector<device_region> regions;
    memory_regions(&regions);
    g_buffers.clear();
    for (const device_region &r : regions)
        g_buffers.push_back(buffer{r, ""});
    g_last = nullptr;
    name_buffers(site, args);
    check_host_pointers(site, args);
}

bool global_access(uintptr_t addr, unsigned size, bool is_write, uintptr_t pc)
{
    const buffer *b = find_buffer(addr);
    if (!b)
        return false;
    traffic::access(false, addr, size, is_write, pc);
    (is_write ? g_check_counts.global_store_bytes : g_check_counts.global_load_bytes) += size;
    check_buffer_access(*b, addr, size, is_write, !is_write, pc);
    return true;
}

void global_atomic(uintptr_t addr, unsigned size, bool reads_old, uintptr_t pc)
{
    const buffer *b = find_buffer(addr);
    if (!b) {
        invalid_access(addr, size, true, pc);
        return;
    }
    traffic::access(false, addr, size, true, pc);
    g_check_counts.global_store_bytes += size;
    g_check_counts.global_load_bytes += reads_old ? size : 0;
    check_buffer_access(*b, addr, size, true, reads_old, pc);
}

const char *global_buffer_at(uintptr_t addr, long long *offset)
{
    const buffer *b = find_buffer(addr);
    if (!b)
        return nullptr;
    *offset = (long long)(addr - b->r.base);
    return b->name.c_str();
}

void invalid_access(uintptr_t addr, unsigned size, bool is_write, uintptr_t pc)
{
    if (finding_repeat(diag_kind::invalid_address, pc, 0))
        return;
    char where[256], thread[96], hint[320] = "";
    launch_context(where, sizeof where);
    who(thread, sizeof thread);
    const buffer *near = nearest_buffer(addr);
    if (addr < 65536)
        snprintf(hint, sizeof hint, " It is a null pointer%s.", addr ? " plus an offset" : "");
    else if (near) {
        char far[256];
        distance(far, sizeof far, *near, addr, size);
        snprintf(hint, sizeof hint, " It lies %s.", far);
    }
    finding_add_now(diag_kind::invalid_address, pc,
                    "Invalid address in %s: %s %s %u bytes at 0x%lx at " CUGRADE_LOC0
                    ", which is not device memory: not inside any cudaMalloc allocation (nor its red zones), "
                    "shared memory or a __device__ variable.%s",
                    where, thread, is_write ? "writes" : "reads", size, static_cast<unsigned long>(addr), hint);
}

} // namespace cugrade::emu
