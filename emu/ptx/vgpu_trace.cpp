/* vgpu_trace.cpp - the executor's record of what a program asked of the
 * device (vgpu_trace.h), in the format grader/replay/trace.h reads. */
#include "vgpu_trace.h"
#include "ptx_device.h"

#include <cinttypes>
#include <cstdarg>
#include <cstring>
#include <cstdio>

namespace ptx {
namespace {

std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

} // namespace

void Trace::begin(ptx_device_t *d)
{
    on = true, replayable = true;
    why.clear(), text = "cugrade-trace 1\n", blob.clear(), reads.clear();
    for (auto &[base, a] : live) { /* kept from before: its bytes as they are now */
        if (a.global.empty())
            text += format("alloc %" PRIu32 " %" PRIu64 "\n", a.id, a.size);
        else
            text += format("global %" PRIu32 " %" PRIu64 " %s\n", a.id, a.size, a.global.c_str());
        std::string bytes(a.size, '\0');
        if (ptx_copy_from_device(d, bytes.data(), base, a.size) == PTX_OK) {
            text += format("copy %" PRIu32 " 0 %" PRIu64 " %zu\n", a.id, a.size, blob.size());
            blob += bytes;
        }
    }
}

void Trace::end(std::string &out_text, std::string &out_bytes)
{
    if (!on) {
        out_text.clear(), out_bytes.clear();
        return;
    }
    if (!replayable)
        text += "unreplayable " + why + "\n";
    text += "end\n";
    out_text.swap(text), out_bytes.swap(blob);
    drop();
}

void Trace::refuse(const std::string &reason)
{
    if (replayable)
        why = reason;
    replayable = false;
}

const Trace::Live *Trace::holding(uint64_t addr, uint64_t n, uint64_t *offset) const
{
    auto it = live.upper_bound(addr);
    if (it == live.begin())
        return nullptr;
    --it;
    uint64_t off = addr - it->first;
    if (off > it->second.size || n > it->second.size - off)
        return nullptr;
    *offset = off;
    return &it->second;
}

/* The allocation and offset of [addr, addr + n); false (the record
 * unreplayable, saying what) when the record never saw it allocated. */
bool Trace::place(uint64_t addr, uint64_t n, const char *what, uint32_t *id, uint64_t *offset)
{
    const Live *a = holding(addr, n, offset);
    if (!a) {
        refuse(format("%s at a device address the record never saw allocated", what));
        return false;
    }
    *id = a->id;
    return true;
}

void Trace::alloc(uint64_t addr, uint64_t size)
{
    if (!addr)
        return;
    Live a{next_id++, size, ""};
    live[addr] = a;
    if (on)
        text += format("alloc %" PRIu32 " %" PRIu64 "\n", a.id, size);
}

void Trace::global(uint64_t addr, uint64_t size, const std::string &name)
{
    if (!addr || !size || live.count(addr))
        return; /* asked for before: the same lines stand */
    Live a{next_id++, size, name};
    live[addr] = a;
    if (on)
        text += format("global %" PRIu32 " %" PRIu64 " %s\n", a.id, size, name.c_str());
}

void Trace::free(uint64_t addr)
{
    auto it = live.find(addr);
    if (it == live.end())
        return;
    if (on)
        text += format("free %" PRIu32 "\n", it->second.id);
    live.erase(it);
}

void Trace::load(uint64_t addr, int input, uint64_t n, bool as_int)
{
    uint32_t id;
    uint64_t off;
    if (on && place(addr, n, "an input", &id, &off))
        text += format("%s %" PRIu32 " %" PRIu64 " %d %" PRIu64 "\n", as_int ? "load-int" : "load", id, off, input, n);
}

void Trace::copy(uint64_t addr, const uint8_t *p, uint64_t n)
{
    uint32_t id;
    uint64_t off;
    if (!on || !place(addr, n, "a copy to the device", &id, &off))
        return;
    text += format("copy %" PRIu32 " %" PRIu64 " %" PRIu64 " %zu\n", id, off, n, blob.size());
    blob.append((const char *)p, n);
}

void Trace::memset(uint64_t addr, int value, uint64_t n)
{
    uint32_t id;
    uint64_t off;
    if (on && place(addr, n, "a memset", &id, &off))
        text += format("memset %" PRIu32 " %" PRIu64 " %d %" PRIu64 "\n", id, off, value & 0xff, n);
}

void Trace::launch(const std::string &kernel, ptx_dim3_t grid, ptx_dim3_t block, uint64_t shared,
                   const std::vector<size_t> &sizes, const uint8_t *params)
{
    if (!on)
        return;
    text += format("launch %s %u %u %u %u %u %u %" PRIu64 " %zu\n", kernel.c_str(), grid.x, grid.y,
                   grid.z, block.x, block.y, block.z, shared, sizes.size());
    for (size_t i = 0, at = 0; i < sizes.size(); at += sizes[i], i++) {
        std::string line = format("arg %zu ", sizes[i]), relocs;
        for (size_t k = 0; k < sizes[i]; k++)
            line += format("%02x", params[at + k]);
        for (size_t k = 0; k + 8 <= sizes[i]; k += 8) { /* the words that are device addresses */
            uint64_t v, off;
            memcpy(&v, params + at + k, sizeof v);
            if (v < GLOBAL_BASE || v >= GLOBAL_BASE + (MAX_DEVICE_BYTES << 4))
                continue;
            const Live *a = holding(v, 0, &off);
            if (a)
                relocs += format(" %zu=%" PRIu32 "+%" PRIu64, k, a->id, off);
            else
                refuse(format("argument %zu of %s points at device memory the record never saw "
                              "allocated (a module's variable?)", i + 1, kernel.c_str()));
        }
        text += line + relocs + "\n";
    }
}

void Trace::read(uint64_t addr, uint64_t n)
{
    uint32_t id;
    uint64_t off;
    if (!on || !place(addr, n, "a copy from the device", &id, &off))
        return;
    reads.push_back({addr, addr + n});
    text += format("read %" PRIu32 " %" PRIu64 " %" PRIu64 "\n", id, off, n);
}

void Trace::output(uint64_t addr, int rows, int cols, bool vector, bool is_int)
{
    uint32_t id;
    uint64_t off, n = (uint64_t)rows * (uint64_t)cols * 4;
    if (on && place(addr, n, "the output", &id, &off))
        text += format("output %" PRIu32 " %" PRIu64 " %d %d %s%s\n", id, off, rows, cols,
                       vector ? "vector" : "matrix", is_int ? " int" : "");
}

bool Trace::output_of_read(uint64_t end_addr, uint64_t n, int rows, int cols, bool vector)
{
    /* the reads that continue each other and end at end_addr, as the server's runs are made */
    for (size_t last = reads.size(); on && last-- > 0;) {
        if (reads[last].end != end_addr)
            continue;
        uint64_t bytes = 0;
        size_t first = last + 1;
        while (first > 0 && bytes < n && (first == last + 1 || reads[first - 1].end == reads[first].start))
            bytes += reads[first - 1].end - reads[first - 1].start, first--;
        if (bytes != n)
            continue;
        text += format("output-read %zu %zu %d %d %s\n", first, last - first + 1, rows, cols,
                       vector ? "vector" : "matrix");
        return true;
    }
    return false;
}

} // namespace ptx
