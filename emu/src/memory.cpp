/* memory.cpp - device memory in the emulator: cudaMalloc and friends hand
 * out 256-byte-aligned host memory and record every allocation in a
 * registry, so that cudaMemcpy, cudaMemset and cudaFree can refuse, with
 * cudaErrorInvalidValue as a GPU would, a pointer that is not device memory
 * or a size that runs past the end of its allocation. Copies are
 * synchronous memmoves. __constant__/__device__ variables are ordinary host
 * globals; the symbol copies check offset and size against the variable.
 *
 * In the checking mode (check.h) a device or managed allocation also gets a
 * red zone on each side, max(64 KiB, size / 4) rounded up to 256 bytes (at
 * most 64 MiB), filled with the NaN pattern kSharedPoison, so that a kernel
 * reading rows past a matrix lands in it (unguarded 16-row tile loads from a
 * 1 x 1000 matrix go 60 KB past its end), and one "written" bit per
 * 4-byte word, set by cudaMemcpy/cudaMemset to it (and by kernel stores, in
 * global_check.cpp). Managed memory gets no such bits: the host writes it
 * directly, unseen. */
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>

#include "check_internal.h"

namespace cugrade::emu {
namespace {

constexpr size_t kDeviceAlignment = 256;

enum class memory_kind { device, managed, host };

constexpr size_t kMinRedZone = 64 * 1024;
constexpr size_t kMaxRedZone = size_t(64) << 20;

struct allocation {
    size_t size;
    memory_kind kind;
    void *raw;                           /* what to free: the front red zone's start */
    size_t zone;                         /* red zone bytes on each side (0: none) */
    unsigned serial;                     /* n-th allocation of the process */
    std::unique_ptr<uint64_t[]> written; /* checking mode: a bit per 4-byte word */
};

std::mutex g_memory_mutex;
std::map<uintptr_t, allocation> g_allocations; /* by base address */
size_t g_device_bytes;                          /* device + managed in use */
unsigned g_serial;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

void fill_pattern(unsigned char *p, size_t bytes)
{
    uint32_t pattern = kSharedPoison;
    for (size_t i = 0; i + 4 <= bytes; i += 4)
        memcpy(p + i, &pattern, 4);
}

/* Sets the written bits of [p, p + count) if p lies in a tracked
 * allocation. Called with the lock held. */
void mark_written_locked(const void *ptr, size_t count)
{
    uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
    auto it = g_allocations.upper_bound(p);
    if (it == g_allocations.begin() || count == 0)
        return;
    --it;
    allocation &a = it->second;
    if (!a.written || p >= it->first + a.size)
        return;
    size_t first = (p - it->first) / 4, last = (p - it->first + count - 1) / 4;
    for (size_t w = first; w <= last && w * 4 < a.size; w++)
        a.written[w / 64] |= uint64_t(1) << (w % 64);
}

void mark_written(const void *ptr, size_t count)
{
    std::lock_guard<std::mutex> lock(g_memory_mutex);
    mark_written_locked(ptr, count);
}

/* Where a range lies relative to the registry. */
enum class range_status { device, not_device, overruns };

range_status classify(const void *ptr, size_t count)
{
    uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
    std::lock_guard<std::mutex> lock(g_memory_mutex);
    auto it = g_allocations.upper_bound(p);
    if (it == g_allocations.begin())
        return range_status::not_device;
    --it;
    const allocation &a = it->second;
    if (a.kind == memory_kind::host || p >= it->first + a.size)
        return range_status::not_device;
    return count <= it->first + a.size - p ? range_status::device : range_status::overruns;
}

bool is_device_range(const void *ptr, size_t count) { return classify(ptr, count) == range_status::device; }

cudaError_t allocate(void **ptr, size_t size, memory_kind kind)
{
    if (!ptr)
        return record_error(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (size == 0)
        return cudaSuccess;
    size_t rounded = (size + kDeviceAlignment - 1) / kDeviceAlignment * kDeviceAlignment;
    if (rounded < size)
        return record_error(cudaErrorMemoryAllocation);
    std::lock_guard<std::mutex> lock(g_memory_mutex);
    bool counts = kind != memory_kind::host;
    if (counts && rounded > kTotalGlobalMem - g_device_bytes)
        return record_error(cudaErrorMemoryAllocation);
    bool checked = counts && checks_enabled();
    size_t zone = checked ? red_zone_bytes(size) : 0;
    void *raw = nullptr;
    if (posix_memalign(&raw, kDeviceAlignment, rounded + 2 * zone) != 0)
        return record_error(cudaErrorMemoryAllocation);
    unsigned char *mem = static_cast<unsigned char *>(raw) + zone;
    allocation a{size, kind, raw, zone, ++g_serial, nullptr};
    if (checked) {
        fill_pattern(static_cast<unsigned char *>(raw), zone);
        fill_pattern(mem + size / 4 * 4, rounded - size / 4 * 4 + zone);
        if (kind == memory_kind::device) /* the host writes managed memory unseen */
            a.written.reset(new (std::nothrow) uint64_t[(size + 255) / 256]());
    }
    g_allocations[reinterpret_cast<uintptr_t>(mem)] = std::move(a);
    if (counts)
        g_device_bytes += rounded;
    *ptr = mem;
    return cudaSuccess;
}

/* Frees ptr if it is the base of an allocation of an accepted kind. */
cudaError_t release(void *ptr, bool host_kind)
{
    if (!ptr)
        return cudaSuccess;
    std::lock_guard<std::mutex> lock(g_memory_mutex);
    auto it = g_allocations.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == g_allocations.end() || (it->second.kind == memory_kind::host) != host_kind)
        return record_error(cudaErrorInvalidValue);
    if (!host_kind)
        g_device_bytes -= (it->second.size + kDeviceAlignment - 1) / kDeviceAlignment * kDeviceAlignment;
    void *raw = it->second.raw;
    g_allocations.erase(it);
    free(raw);
    return cudaSuccess;
}

/* The device side(s) a copy of this kind must touch. */
cudaError_t check_copy(void *dst, const void *src, size_t count, cudaMemcpyKind kind)
{
    bool dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if ((dst_device && !is_device_range(dst, count)) || (src_device && !is_device_range(src, count)))
        return cudaErrorInvalidValue;
    if (kind == cudaMemcpyDefault &&
        (classify(dst, count) == range_status::overruns || classify(src, count) == range_status::overruns))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

} // namespace

void memory_release_all()
{
    std::lock_guard<std::mutex> lock(g_memory_mutex);
    for (auto &entry : g_allocations)
        free(entry.second.raw);
    g_allocations.clear();
    g_device_bytes = 0;
}

size_t red_zone_bytes(size_t size)
{
    size_t zone = size / 4 > kMinRedZone ? size / 4 : kMinRedZone;
    return round_up(zone < kMaxRedZone ? zone : kMaxRedZone, kDeviceAlignment);
}

void memory_regions(std::vector<device_region> *out)
{
    std::lock_guard<std::mutex> lock(g_memory_mutex);
    out->clear();
    for (auto &entry : g_allocations) {
        const allocation &a = entry.second;
        bool device = a.kind != memory_kind::host;
        uintptr_t base = entry.first;
        size_t span = device ? round_up(a.size, kDeviceAlignment) + a.zone : a.size;
        out->push_back(device_region{base - a.zone, base + span, base, a.size, a.serial, device, a.written.get()});
    }
}

} // namespace cugrade::emu

using namespace cugrade::emu;

extern "C" cudaError_t cudaMalloc(void **devPtr, size_t size) { return allocate(devPtr, size, memory_kind::device); }

extern "C" cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
        return record_error(cudaErrorInvalidValue);
    return allocate(devPtr, size, memory_kind::managed);
}

extern "C" cudaError_t cudaMallocHost(void **ptr, size_t size) { return allocate(ptr, size, memory_kind::host); }

extern "C" cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags)
{
    (void)flags;
    return allocate(ptr, size, memory_kind::host);
}

extern "C" cudaError_t cudaFree(void *devPtr) { return release(devPtr, false); }

extern "C" cudaError_t cudaFreeHost(void *ptr) { return release(ptr, true); }

extern "C" cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind)
{
    if (unsigned(kind) > unsigned(cudaMemcpyDefault))
        return record_error(cudaErrorInvalidMemcpyDirection);
    if (count == 0)
        return cudaSuccess;
    if (!dst || !src)
        return record_error(cudaErrorInvalidValue);
    cudaError_t err = check_copy(dst, src, count, kind);
    if (err != cudaSuccess)
        return record_error(err);
    memmove(dst, src, count);
    mark_written(dst, count);
    return cudaSuccess;
}

extern "C" cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                                       cudaStream_t stream)
{
    if (!stream_is_valid(stream))
        return record_error(cudaErrorInvalidResourceHandle);
    return cudaMemcpy(dst, src, count, kind);
}

extern "C" cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    if (count == 0)
        return cudaSuccess;
    if (!is_device_range(devPtr, count))
        return record_error(cudaErrorInvalidValue);
    memset(devPtr, value, count);
    mark_written(devPtr, count);
    return cudaSuccess;
}

extern "C" cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    if (!stream_is_valid(stream))
        return record_error(cudaErrorInvalidResourceHandle);
    return cudaMemset(devPtr, value, count);
}

extern "C" cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    if (!free_bytes || !total)
        return record_error(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lock(g_memory_mutex);
    *free_bytes = kTotalGlobalMem - g_device_bytes;
    *total = kTotalGlobalMem;
    return cudaSuccess;
}

extern "C" cudaError_t cugrade_memcpy_to_symbol(void *symbol, size_t symbol_size, const void *src, size_t count,
                                                size_t offset, cudaMemcpyKind kind)
{
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return record_error(cudaErrorInvalidMemcpyDirection);
    if (offset > symbol_size || count > symbol_size - offset || (count > 0 && !src))
        return record_error(cudaErrorInvalidValue);
    if (kind == cudaMemcpyDeviceToDevice && count > 0 && !is_device_range(src, count))
        return record_error(cudaErrorInvalidValue);
    if (count > 0)
        memmove(static_cast<unsigned char *>(symbol) + offset, src, count);
    return cudaSuccess;
}

extern "C" cudaError_t cugrade_memcpy_from_symbol(void *dst, const void *symbol, size_t symbol_size, size_t count,
                                                  size_t offset, cudaMemcpyKind kind)
{
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return record_error(cudaErrorInvalidMemcpyDirection);
    if (offset > symbol_size || count > symbol_size - offset || (count > 0 && !dst))
        return record_error(cudaErrorInvalidValue);
    if (kind == cudaMemcpyDeviceToDevice && count > 0 && !is_device_range(dst, count))
        return record_error(cudaErrorInvalidValue);
    if (count > 0)
        memmove(dst, static_cast<const unsigned char *>(symbol) + offset, count);
    return cudaSuccess;
}
