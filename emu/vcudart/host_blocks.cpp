/* host_blocks.cpp - the program's malloc, calloc, realloc and free (glibc
 * allows their replacement): glibc's own, with each live block's size kept
 * in a table by address, for vcudart_host_size (host_blocks.h). Linked into
 * every program on the executor with the runtime; it changes nothing the
 * program's allocations do. */
#include "host_blocks.h"

#include <atomic>
#include <cstdint>

/* glibc's allocator itself, under the program's malloc (below) */
extern "C" void *__libc_malloc(size_t);
extern "C" void *__libc_calloc(size_t, size_t);
extern "C" void *__libc_realloc(void *, size_t);
extern "C" void __libc_free(void *);

namespace {

/* ---- the host arrays' sizes (issue 40, item 5) ----
 * malloc, calloc, realloc and free are the program's (glibc allows their
 * replacement), each glibc's own with the block's size remembered, so that
 * a copy from the device into a host array it does not fit is named, with
 * both sizes, where it happens: not as a crash in free much later. A table
 * of the live blocks by address; full, it forgets nothing and learns no
 * more (a copy into an unknown array is not judged). */
constexpr size_t HOST_SLOTS = 1u << 15;
constexpr uintptr_t SLOT_EMPTY = 0, SLOT_GONE = 1;
struct HostBlock {
    uintptr_t at;
    size_t size;
};
HostBlock host_blocks[HOST_SLOTS];
std::atomic_flag host_lock = ATOMIC_FLAG_INIT;

struct HostHold {
    HostHold() { while (host_lock.test_and_set(std::memory_order_acquire)) {} }
    ~HostHold() { host_lock.clear(std::memory_order_release); }
};

size_t host_slot(uintptr_t at) { return (at >> 4) * 0x9E3779B97F4A7C15ull % HOST_SLOTS; }

void host_remember(void *p, size_t size)
{
    if (!p)
        return;
    HostHold hold;
    uintptr_t at = (uintptr_t)p;
    for (size_t i = host_slot(at), k = 0; k < HOST_SLOTS; i = (i + 1) % HOST_SLOTS, k++)
        if (host_blocks[i].at == SLOT_EMPTY || host_blocks[i].at == SLOT_GONE || host_blocks[i].at == at) {
            host_blocks[i] = {at, size};
            return;
        }
}

void host_forget(void *p)
{
    if (!p)
        return;
    HostHold hold;
    uintptr_t at = (uintptr_t)p;
    for (size_t i = host_slot(at), k = 0; k < HOST_SLOTS && host_blocks[i].at != SLOT_EMPTY;
         i = (i + 1) % HOST_SLOTS, k++)
        if (host_blocks[i].at == at) {
            host_blocks[i].at = SLOT_GONE;
            return;
        }
}

/* The size the program asked for the block that starts at p; 0 if unknown. */
size_t host_size_of(const void *p)
{
    HostHold hold;
    uintptr_t at = (uintptr_t)p;
    for (size_t i = host_slot(at), k = 0; k < HOST_SLOTS && host_blocks[i].at != SLOT_EMPTY;
         i = (i + 1) % HOST_SLOTS, k++)
        if (host_blocks[i].at == at)
            return host_blocks[i].size;
    return 0;
}

} // namespace

size_t vcudart_host_size(const void *p) { return host_size_of(p); }

/* ---- the program's allocator: glibc's, each block's size remembered ---- */

extern "C" void *malloc(size_t n)
{
    void *p = __libc_malloc(n);
    host_remember(p, n);
    return p;
}

extern "C" void *calloc(size_t count, size_t n)
{
    void *p = __libc_calloc(count, n);
    host_remember(p, count * n);
    return p;
}

extern "C" void *realloc(void *old, size_t n)
{
    void *p = __libc_realloc(old, n);
    if (p || n == 0)
        host_forget(old);
    host_remember(p, n);
    return p;
}

extern "C" void free(void *p)
{
    host_forget(p);
    __libc_free(p);
}
