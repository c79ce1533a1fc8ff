/* async_check.cpp - asynchronous copies (pipeline.cpp) in the checking mode.
 *
 * While a copy into shared memory is in flight (issued, not yet covered by
 * a __pipeline_wait_prior of its thread), each of its 4-byte words carries
 * a count of the copies in flight into it, the thread that issued the last
 * one and its call site. An access by any thread to such a word is a race
 * with the copy: on a GPU the copy may land before or after it. It is
 * reported as a race (once per copy site and instruction in a launch) with
 * the same key as the race the shared checker would see when the copy
 * lands in the same interval, so the two are one finding; a read of such a
 * word is not also reported as uninitialised. When the copy lands it is an
 * access of its issuing thread at its call site: a read of the source
 * (global memory: bounds, initialisation, traffic) and a write of the
 * destination (shared memory: races with other threads, initialisation). */
#include <cstdio>
#include <vector>

#include "check_internal.h"

namespace cugrade::emu {

size_t g_async_inflight;

namespace {

struct inflight_word {
    uint16_t count;  /* copies in flight into the word */
    uint16_t thread; /* the thread that issued the last of them */
    uint32_t pc;     /* its call site, as an offset in the program image */
};
std::vector<inflight_word> g_words; /* one per word of the shared section */

/* Words [first, last] of [addr, addr + size) in the shared section. */
bool word_span(uintptr_t addr, unsigned size, size_t *first, size_t *last)
{
    if (!is_shared_address(addr) || size == 0)
        return false;
    if (g_words.empty())
        g_words.assign(g_ranges.shared_len / 4 + 1, inflight_word{0, 0, 0});
    *first = (addr - g_ranges.shared_lo) / 4;
    *last = (addr - g_ranges.shared_lo + size - 1) / 4;
    if (*last >= g_words.size())
        *last = g_words.size() - 1;
    return true;
}

void report(const inflight_word &w, uintptr_t addr, unsigned size, bool is_write, uintptr_t pc)
{
    uintptr_t copy_pc = g_ranges.image_lo + w.pc;
    if (finding_repeat(diag_kind::race, copy_pc, pc))
        return;
    size_t off;
    const char *var = shared_address_label(addr, &off);
    const launch_site &s = *g_exec.site;
    uint3 t = thread_of(g_exec.thread_linear), c = thread_of(w.thread), b = g_exec.block_idx;
    finding_add(diag_kind::race, copy_pc, pc,
                "Race on %s%s (element %zu, byte offset %zu) in kernel %s launched at %s:%d: thread (%u,%u,%u) "
                "of block (%u,%u,%u) %s it at " CUGRADE_LOC1 " while the asynchronous copy into it that thread "
                "(%u,%u,%u) started at " CUGRADE_LOC0 " has not been waited for, so the copy may land %s; "
                "wait for it first with __pipeline_wait_prior%s.",
                shared_label_prefix(var), var, off / (size ? size : 1), off, s.name, s.file, s.line, t.x, t.y, t.z, b.x, b.y, b.z,
                is_write ? "writes" : "reads", c.x, c.y, c.z,
                is_write ? "after the write and overwrite it" : "before or after the read",
                w.thread == g_exec.thread_linear ? "" : " and then __syncthreads(), since another thread copies it");
}

} // namespace

void async_check_issue(uintptr_t dst, unsigned size, uintptr_t pc)
{
    size_t first, last;
    if (!word_span(dst, size, &first, &last))
        return;
    for (size_t i = first; i <= last; i++) {
        inflight_word &w = g_words[i];
        if (w.count < 0xFFFF)
            w.count++;
        w.thread = uint16_t(g_exec.thread_linear);
        w.pc = uint32_t(pc - g_ranges.image_lo);
    }
    g_async_inflight++;
}

void async_check_complete(uintptr_t dst, uintptr_t src, unsigned size, unsigned src_size, uintptr_t pc)
{
    size_t first, last;
    if (word_span(dst, size, &first, &last)) {
        for (size_t i = first; i <= last; i++)
            if (g_words[i].count > 0)
                g_words[i].count--;
        g_async_inflight--;
    }
    if (src_size > 0)
        check_access(src, src_size, false, pc);
    check_access(dst, size, true, pc);
}

bool async_inflight_access(uintptr_t addr, unsigned size, bool is_write, uintptr_t pc)
{
    size_t first, last;
    if (!word_span(addr, size, &first, &last))
        return false;
    for (size_t i = first; i <= last; i++)
        if (g_words[i].count > 0) {
            report(g_words[i], addr, size, is_write, pc);
            return true;
        }
    return false;
}

} // namespace cugrade::emu
