/* pipeline.cpp - asynchronous copies from global to shared memory
 * (cp.async: __pipeline_memcpy_async, __pipeline_commit,
 * __pipeline_wait_prior and nvcuda::experimental's memcpy_async;
 * emu/include/cuda_pipeline.h).
 *
 * Each CUDA thread of the running block has its own queue of copies and
 * the ends of its committed groups. A copy is only recorded when it is
 * issued; it is performed (source read, destination written, the zfill
 * bytes zeroed) as late as CUDA allows: when a __pipeline_wait_prior of the
 * issuing thread needs its group, or when the thread returns. So a kernel
 * that reads shared memory before the wait that covers the copy sees the
 * old contents there, as it may on a GPU, every run. In the checking mode
 * the copy is an access of its issuing thread at its call site: a global
 * read and a shared write when it lands, and until then its shared words
 * are marked in flight, so that any access to them is a race
 * (async_check.cpp).
 *
 * Issuing checks what the GPU would fault on: a size other than 4, 8 or 16
 * (the primitive), a zfill larger than the size, a destination outside
 * shared memory, a source in it, an address not aligned to the size. Each
 * problem is an invalid-address diagnostic naming the call's file:line
 * (once per call site and problem per launch); a copy that cannot be done
 * is dropped, a misaligned one still done. */
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"

extern "C" {
extern char __executable_start[];
extern char _end[];
extern unsigned char __start_cugrade_shared[] __attribute__((weak));
extern unsigned char __stop_cugrade_shared[] __attribute__((weak));
}

namespace cugrade::emu {

bool g_pipeline_used;

namespace {

struct async_copy {
    unsigned char *dst;
    const unsigned char *src;
    uint32_t size, src_size;
    uintptr_t pc;
};

/* One thread's copies in issue order: [done, size) are still in flight;
 * group_ends[g] is the end of committed group g, [groups_done, ...) are
 * the groups not waited for yet. */
struct thread_pipe {
    std::vector<async_copy> copies;
    std::vector<size_t> group_ends;
    size_t done = 0, groups_done = 0;
};

std::vector<thread_pipe> g_pipes; /* by linear thread index, sized for the largest block */

/* Problems already reported in this launch: (file, line, problem). */
struct reported_site {
    const char *file;
    int line;
    int problem;
};
std::vector<reported_site> g_reported;
unsigned long long g_reported_in = ~0ull; /* the launch (count of launches run before it) */

uintptr_t symbol_address(const void *p)
{
    asm("" : "+r"(p));
    return reinterpret_cast<uintptr_t>(p);
}

bool in_shared(const void *p)
{
    uintptr_t a = reinterpret_cast<uintptr_t>(p), lo = symbol_address(__start_cugrade_shared);
    return __start_cugrade_shared && a - lo < symbol_address(__stop_cugrade_shared) - lo;
}

/* The program's static data: a __shared__ array of a function template
 * lands there (g++ drops its section, see shared.cpp). */
bool in_image(const void *p)
{
    uintptr_t a = reinterpret_cast<uintptr_t>(p), lo = symbol_address(__executable_start);
    return a - lo < symbol_address(_end) - lo;
}

enum problem { kBadSize, kBadZfill, kDstNotShared, kSrcShared, kMisalignedDst, kMisalignedSrc };

void report(const char *file, int line, problem what, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void report(const char *file, int line, problem what, const char *fmt, ...)
{
    const launch_site *site;
    uint3 block, thread;
    if (!running_thread(&site, &block, &thread))
        return;
    if (g_reported_in != launch_count()) {
        g_reported.clear();
        g_reported_in = launch_count();
    }
    for (const reported_site &r : g_reported)
        if (r.line == line && r.problem == what && (r.file == file || strcmp(r.file, file) == 0))
            return;
    g_reported.push_back(reported_site{file, line, what});
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    diag_report(severity::error, diag_kind::invalid_address,
                "Invalid asynchronous copy in kernel %s launched at %s:%d: thread (%u,%u,%u) of block (%u,%u,%u) "
                "at %s:%d %s",
                site->name, site->file, site->line, thread.x, thread.y, thread.z, block.x, block.y, block.z, file,
                line, detail);
}

/* Checks a copy before it is queued; false if it cannot be done at all. */
bool valid_copy(const char *file, int line, void *dst, const void *src, size_t size, size_t align)
{
    if (!in_shared(dst) && !in_image(dst)) {
        report(file, line, kDstNotShared,
               "copies to %p, which is not shared memory: the destination of __pipeline_memcpy_async must be a "
               "__shared__ array (a GPU stops the kernel there); the copy was not done.",
               dst);
        return false;
    }
    if (in_shared(src)) {
        report(file, line, kSrcShared,
               "copies from shared memory: the source of __pipeline_memcpy_async must be global memory (a GPU "
               "stops the kernel there); the copy was not done.");
        return false;
    }
    uintptr_t d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
    if (d % align)
        report(file, line, kMisalignedDst,
               "copies %zu bytes to a shared address that is not a multiple of %zu (byte %zu of an aligned "
               "block); both addresses of a %zu-byte asynchronous copy must be %zu-byte aligned, and a GPU stops "
               "the kernel there with cudaErrorMisalignedAddress.",
               size, align, size_t(d % align), size, align);
    if (s % align)
        report(file, line, kMisalignedSrc,
               "copies %zu bytes from a global address that is not a multiple of %zu (byte %zu of an aligned "
               "block); both addresses of a %zu-byte asynchronous copy must be %zu-byte aligned, and a GPU stops "
               "the kernel there with cudaErrorMisalignedAddress: copy 4 bytes at a time where a row does not "
               "start aligned.",
               size, align, size_t(s % align), size, align);
    return true;
}

void perform(const async_copy &c)
{
    if (checks_enabled())
        async_check_complete(reinterpret_cast<uintptr_t>(c.dst), reinterpret_cast<uintptr_t>(c.src), c.size,
                             c.src_size, c.pc);
    memcpy(c.dst, c.src, c.src_size);
    memset(c.dst + c.src_size, 0, c.size - c.src_size);
}

/* Performs the copies of p up to index end. */
void complete_until(thread_pipe &p, size_t end)
{
    for (; p.done < end; p.done++)
        perform(p.copies[p.done]);
    if (p.groups_done == p.group_ends.size() && p.done > 0) { /* forget what is finished */
        p.copies.erase(p.copies.begin(), p.copies.begin() + long(p.done));
        p.done = 0;
        p.group_ends.clear();
        p.groups_done = 0;
    }
}

/* The running thread's queue; null on the host (outside a kernel). */
thread_pipe *current_pipe()
{
    const launch_site *site;
    uint3 block, thread;
    if (!running_thread(&site, &block, &thread))
        return nullptr;
    size_t t = g_exec.thread_linear;
    if (t >= g_pipes.size())
        g_pipes.resize(size_t(__cugrade_blockDim.x) * __cugrade_blockDim.y * __cugrade_blockDim.z);
    return &g_pipes[t];
}

void issue(const char *file, int line, void *dst, const void *src, size_t size, size_t src_size, size_t align,
           uintptr_t pc)
{
    if (!valid_copy(file, line, dst, src, size, align))
        return;
    async_copy c{static_cast<unsigned char *>(dst), static_cast<const unsigned char *>(src), uint32_t(size),
                 uint32_t(src_size), pc};
    thread_pipe *p = current_pipe();
    if (!p) { /* called on the host: nothing runs asynchronously there */
        memcpy(c.dst, c.src, c.src_size);
        memset(c.dst + c.src_size, 0, c.size - c.src_size);
        return;
    }
    g_pipeline_used = true;
    if (checks_enabled())
        async_check_issue(reinterpret_cast<uintptr_t>(dst), c.size, pc);
    p->copies.push_back(c);
}

} // namespace

void pipeline_thread_exit()
{
    size_t t = g_exec.thread_linear;
    if (t < g_pipes.size() && g_pipes[t].done < g_pipes[t].copies.size()) {
        thread_pipe &p = g_pipes[t];
        p.groups_done = p.group_ends.size();
        complete_until(p, p.copies.size());
    }
}

} // namespace cugrade::emu

using namespace cugrade::emu;

extern "C" void __cudaEmuPipelineMemcpyAsync(const char *file, int line, void *dst_shared, const void *src_global,
                                             size_t size_and_align, size_t zfill)
{
    uintptr_t pc = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
    if (size_and_align != 4 && size_and_align != 8 && size_and_align != 16) {
        report(file, line, kBadSize,
               "asks for a copy of %zu bytes: __pipeline_memcpy_async copies 4, 8 or 16 bytes (a GPU stops the "
               "kernel there); the copy was not done.",
               size_and_align);
        return;
    }
    if (zfill > size_and_align) {
        report(file, line, kBadZfill,
               "asks to zero %zu of %zu bytes: zfill may not exceed the size (a GPU stops the kernel there); the "
               "copy was not done.",
               zfill, size_and_align);
        return;
    }
    issue(file, line, dst_shared, src_global, size_and_align, size_and_align - zfill, size_and_align, pc);
}

extern "C" void __cudaEmuPipelineCopy(const char *file, int line, void *dst_shared, const void *src_global,
                                      size_t size, size_t src_size, size_t align)
{
    uintptr_t pc = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
    issue(file, line, dst_shared, src_global, size, src_size < size ? src_size : size, align ? align : 1, pc);
}

extern "C" void __cudaEmuPipelineCommit(void)
{
    if (thread_pipe *p = current_pipe())
        p->group_ends.push_back(p->copies.size());
}

/* As CUDA's: a prior above 8 waits as 8 does. */
extern "C" void __cudaEmuPipelineWaitPrior(size_t prior)
{
    thread_pipe *p = current_pipe();
    if (!p)
        return;
    if (prior > 8)
        prior = 8;
    size_t groups = p->group_ends.size();
    if (groups - p->groups_done <= prior)
        return;
    p->groups_done = groups - prior;
    complete_until(*p, p->group_ends[p->groups_done - 1]);
}
