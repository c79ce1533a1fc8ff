/* ptx_device.h - the executor's device (internal to emu/ptx/): its memory,
 * allocations at addresses of its own, looked up for every access, and its
 * loaded modules. ptx_api.cpp implements ptx.h on it; ptx_exec.cpp runs a
 * launch. */
#ifndef CUGRADE_PTX_DEVICE_H
#define CUGRADE_PTX_DEVICE_H

#include "ptx.h"
#include "ptx_module.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ptx {

/* Where the state spaces lie in a generic address: the global allocations
 * from GLOBAL_BASE up, each followed by a gap no allocation uses (so an
 * access a little past one lands nowhere); a block's shared memory in
 * SHARED_WINDOW, a thread's local memory in LOCAL_WINDOW (cvta adds and
 * takes off the window's base). */
constexpr uint64_t GLOBAL_BASE = 0x0000010000000000ull;
constexpr uint64_t GLOBAL_GAP = 1ull << 20;
constexpr uint64_t SHARED_WINDOW = 0x00007e0000000000ull;
constexpr uint64_t LOCAL_WINDOW = 0x00007f0000000000ull;
constexpr uint64_t WINDOW_SIZE = 1ull << 32;
constexpr size_t MAX_ALLOCATION = 1ull << 30;
constexpr size_t MAX_DEVICE_BYTES = 4ull << 30;

/* The red zone on each side of an allocation of size bytes, as the CPU
 * emulator's (emu/src/memory.cpp): max(64 KiB, size / 4) rounded up to 256
 * bytes, at most 64 MiB. An access there is out of bounds but near the
 * array (a tile loaded past a matrix's last row), where a GPU reads what
 * lies there and does not fault. */
inline uint64_t red_zone(uint64_t size)
{
    uint64_t z = (size / 4 + 255) / 256 * 256;
    z = z < (64u << 10) ? (64u << 10) : z;
    return z > (64u << 20) ? (64u << 20) : z;
}

/* Who last wrote each 4-byte word of device memory: the provenance of an
 * output (issue 39: a C copied from the host is not a kernel's work). */
enum Origin : uint8_t {
    ORIGIN_NONE = 0,
    ORIGIN_HOST = 1,
    ORIGIN_KERNEL = 2,
    ORIGIN_ZEROED = 3, /* a memset to 0: no host values (a histogram's bins, zeroed, then counted into) */
};

struct Allocation {
    uint64_t base = 0;
    std::vector<uint8_t> bytes;
    std::vector<uint8_t> origin; /* an Origin per 4-byte word of bytes */
    std::vector<uint8_t> read;   /* 1 per 4-byte word a kernel loaded (ptx_set_read_tracking; else empty) */
    void mark_read(uint64_t off, uint64_t n)
    {
        if (!read.empty() && n)
            memset(read.data() + off / 4, 1, (off + n - 1) / 4 - off / 4 + 1);
    }
    void mark(uint64_t off, uint64_t n, Origin o)
    {
        if (n)
            memset(origin.data() + off / 4, o, (off + n - 1) / 4 - off / 4 + 1);
    }
};

struct Device {
    std::map<uint64_t, Allocation> allocations; /* by base */
    uint64_t next_base = GLOBAL_BASE;
    size_t allocated = 0;
    std::vector<std::unique_ptr<Module>> modules;
    bool fast_paths = true;
    bool sample_blocks = false; /* ptx_set_sampling */
    bool dry = false;           /* ptx_set_dry */
    bool track_reads = false;   /* ptx_set_read_tracking */
    unsigned checks = 0; /* PTX_CHECK_* */
    std::vector<std::string> printed; /* what kernels printed (vprintf), the first lines */
    uint64_t printed_total = 0;

    /* The allocation addr lies in, or null. */
    Allocation *find(uint64_t addr)
    {
        auto it = allocations.upper_bound(addr);
        if (it == allocations.begin())
            return nullptr;
        --it;
        return addr - it->second.base < it->second.bytes.size() ? &it->second : nullptr;
    }
    /* The allocation in whose red zone [addr, addr + size) lies, or null. */
    const Allocation *near(uint64_t addr, uint64_t size) const
    {
        auto after = allocations.upper_bound(addr);
        if (after != allocations.begin()) {
            const Allocation &a = std::prev(after)->second;
            uint64_t end = a.base + a.bytes.size();
            if (addr >= end && addr + size <= end + red_zone(a.bytes.size()))
                return &a;
        }
        if (after != allocations.end()) {
            const Allocation &a = after->second;
            if (addr + size <= a.base && addr >= a.base - red_zone(a.bytes.size()))
                return &a;
        }
        return nullptr;
    }
    /* The bytes [addr, addr + size) if they lie in one allocation, else null. */
    uint8_t *global(uint64_t addr, uint64_t size)
    {
        Allocation *a = find(addr);
        if (!a || size > a->bytes.size() - (addr - a->base))
            return nullptr;
        return a->bytes.data() + (addr - a->base);
    }
    const Function *kernel(const char *name) const
    {
        for (const auto &m : modules)
            if (const Function *f = m->find(name))
                if (f->is_entry)
                    return f;
        return nullptr;
    }
};

/* Runs one launch of k on d (ptx_exec.cpp); params: the parameter buffer,
 * laid out as k's .params. */
ptx_status_t execute(Device &d, const Function &k, ptx_dim3_t grid, ptx_dim3_t block,
                     size_t dynamic_shared, const std::vector<uint8_t> &params,
                     uint64_t max_instructions, ptx_launch_result_t &result);

} // namespace ptx

#endif
