/* ptx_api.cpp - ptx.h on the executor's device (ptx_device.h): modules
 * loaded, memory allocated at the device's own addresses and copied in and
 * out only through bounds-checked calls, launches checked against the
 * kernel's parameters and the limits a real GPU has. */
#include "ptx_device.h"

#include <cstdio>
#include <cstring>
#include <new>

using namespace ptx;

struct ptx_device {
    Device d;
};

ptx_device_t *ptx_device_new(void) { return new (std::nothrow) ptx_device; }

void ptx_device_free(ptx_device_t *d) { delete d; }

ptx_status_t ptx_load(ptx_device_t *d, const char *text, size_t len, char *err, size_t errlen)
{
    auto m = std::make_unique<Module>();
    std::string why;
    if (!parse(std::string(text, len), *m, why)) {
        snprintf(err, errlen, "%s", why.c_str());
        return PTX_ERR_PARSE;
    }
    /* the module's variables get their device memory, and every operand
     * naming one its address */
    for (size_t i = 0; i < m->globals.size(); i++) {
        Var &g = m->globals[i];
        g.address = ptx_malloc(d, g.size ? g.size : 1);
        if (!g.address || ptx_copy_to_device(d, g.address, m->init[i].data(), g.size) != PTX_OK) {
            snprintf(err, errlen, "no device memory for the module's variable '%s'", g.name.c_str());
            return PTX_ERR_PARSE;
        }
    }
    for (Function &f : m->functions)
        for (Insn &in : f.code)
            for (Operand &o : in.ops)
                if (o.global_sym >= 0) {
                    o.imm += (int64_t)m->globals[o.global_sym].address;
                    o.global_sym = -1;
                }
    d->d.modules.push_back(std::move(m));
    return PTX_OK;
}

ptx_status_t ptx_symbol(const ptx_device_t *d, const char *name, uint64_t *address, size_t *size)
{
    for (const auto &m : d->d.modules)
        for (const Var &g : m->globals)
            if (g.name == name) {
                *address = g.address;
                if (size)
                    *size = g.size;
                return PTX_OK;
            }
    return PTX_ERR_INVALID;
}

uint64_t ptx_malloc(ptx_device_t *d, size_t size)
{
    Device &dev = d->d;
    if (size == 0 || size > MAX_ALLOCATION || dev.allocated + size > MAX_DEVICE_BYTES)
        return 0;
    Allocation a;
    uint64_t zone = red_zone(size); /* before it; after it, its own and the gap */
    a.base = dev.next_base + zone;
    try {
        a.bytes.assign(size, 0xff); /* never written: NaN as floats */
        a.origin.assign((size + 3) / 4, ORIGIN_NONE);
        if (dev.track_reads)
            a.read.assign((size + 3) / 4, 0);
    } catch (const std::bad_alloc &) {
        return 0;
    }
    dev.next_base = a.base + (size + 255) / 256 * 256 + zone + GLOBAL_GAP;
    dev.allocated += size;
    uint64_t base = a.base;
    dev.allocations.emplace(base, std::move(a));
    return base;
}

ptx_status_t ptx_free(ptx_device_t *d, uint64_t addr)
{
    auto it = d->d.allocations.find(addr);
    if (it == d->d.allocations.end())
        return PTX_ERR_INVALID;
    d->d.allocated -= it->second.bytes.size();
    d->d.allocations.erase(it);
    return PTX_OK;
}

/* The allocation holding [addr, addr + n), or null. */
static Allocation *holding(ptx_device_t *d, uint64_t addr, size_t n)
{
    Allocation *a = d->d.find(addr);
    return a && n <= a->bytes.size() - (addr - a->base) ? a : nullptr;
}

ptx_status_t ptx_copy_to_device(ptx_device_t *d, uint64_t dst, const void *src, size_t n)
{
    if (!n)
        return PTX_OK;
    Allocation *a = holding(d, dst, n);
    if (!a)
        return PTX_ERR_INVALID;
    memcpy(a->bytes.data() + (dst - a->base), src, n);
    a->mark(dst - a->base, n, ORIGIN_HOST);
    return PTX_OK;
}

ptx_status_t ptx_origin(ptx_device_t *d, uint64_t addr, size_t n, uint64_t counts[3])
{
    counts[0] = counts[1] = counts[2] = 0;
    Allocation *a = n ? holding(d, addr, n) : nullptr;
    if (n && !a)
        return PTX_ERR_INVALID;
    uint64_t off = addr - (a ? a->base : 0);
    for (uint64_t w = off / 4; n && w <= (off + n - 1) / 4; w++)
        counts[a->origin[w] == ORIGIN_ZEROED ? (int)ORIGIN_KERNEL : (int)a->origin[w]]++; /* zeroed: no host values */
    return PTX_OK;
}

ptx_status_t ptx_unread(ptx_device_t *d, uint64_t addr, size_t n, uint64_t *count, uint64_t *first)
{
    *count = 0, *first = 0;
    Allocation *a = n ? holding(d, addr, n) : nullptr;
    if ((n && !a) || (a && a->read.empty()))
        return PTX_ERR_INVALID;
    uint64_t off = addr - (a ? a->base : 0);
    for (uint64_t w = off / 4; n && w <= (off + n - 1) / 4; w++)
        if (!a->read[w] && a->origin[w] == ORIGIN_HOST && !(*count)++)
            *first = w - off / 4;
    return PTX_OK;
}

void ptx_mark_read(ptx_device_t *d, uint64_t addr, size_t n)
{
    if (Allocation *a = n ? holding(d, addr, n) : nullptr)
        a->mark_read(addr - a->base, n);
}

ptx_status_t ptx_copy_from_device(ptx_device_t *d, void *dst, uint64_t src, size_t n)
{
    const uint8_t *p = n ? d->d.global(src, n) : nullptr;
    if (n && !p)
        return PTX_ERR_INVALID;
    if (n)
        memcpy(dst, p, n);
    return PTX_OK;
}

ptx_status_t ptx_memset(ptx_device_t *d, uint64_t dst, int value, size_t n)
{
    if (!n)
        return PTX_OK;
    Allocation *a = holding(d, dst, n);
    if (!a)
        return PTX_ERR_INVALID;
    memset(a->bytes.data() + (dst - a->base), value, n);
    /* the host asked for it: no kernel computed it; but 0xFF bytes are the poison (labs/common
     * wb.h's cudaMalloc fills with it), a NaN no output may hold: still written by nothing */
    a->mark(dst - a->base, n, (value & 0xFF) == 0xFF ? ORIGIN_NONE : (value & 0xFF) == 0 ? ORIGIN_ZEROED : ORIGIN_HOST);
    return PTX_OK;
}

uint64_t ptx_printed(const ptx_device_t *d, size_t i, const char **line)
{
    if (line)
        *line = i < d->d.printed.size() ? d->d.printed[i].c_str() : nullptr;
    return d->d.printed_total;
}

void ptx_set_fast_paths(ptx_device_t *d, int on) { d->d.fast_paths = on != 0; }

void ptx_set_checks(ptx_device_t *d, unsigned checks) { d->d.checks = checks; }

void ptx_set_sampling(ptx_device_t *d, int on) { d->d.sample_blocks = on != 0; }
void ptx_set_read_tracking(ptx_device_t *d, int on) { d->d.track_reads = on != 0; }

void ptx_set_dry(ptx_device_t *d, int on) { d->d.dry = on != 0; }

int ptx_kernel_params(const ptx_device_t *d, const char *kernel, size_t *param_bytes)
{
    const Function *k = d->d.kernel(kernel);
    if (!k)
        return -1;
    if (param_bytes)
        *param_bytes = k->param_bytes;
    return (int)k->params.size();
}

const char *ptx_kernel_name(const ptx_device_t *d, int i)
{
    for (const auto &m : d->d.modules)
        for (const Function &f : m->functions)
            if (f.is_entry && i-- == 0)
                return f.name.c_str();
    return nullptr;
}

int ptx_kernel_param_size(const ptx_device_t *d, const char *kernel, int i)
{
    const Function *k = d->d.kernel(kernel);
    if (!k || i < 0 || (size_t)i >= k->params.size())
        return -1;
    return (int)k->params[i].size;
}

static ptx_status_t refuse(ptx_launch_result_t *r, ptx_status_t s, const char *what)
{
    r->status = s;
    snprintf(r->message, sizeof r->message, "%s", what);
    return s;
}

ptx_status_t ptx_launch(ptx_device_t *d, const char *kernel, ptx_dim3_t grid, ptx_dim3_t block,
                        size_t shared_bytes, void **args, uint64_t max_instructions,
                        ptx_launch_result_t *r)
{
    memset(r, 0, sizeof *r);
    const Function *k = d->d.kernel(kernel);
    if (!k)
        return refuse(r, PTX_ERR_NO_KERNEL, "no kernel of that name in the loaded PTX");
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (threads == 0 || threads > 1024 || block.z > 64 || grid.x == 0 || grid.y == 0 ||
        grid.z == 0 || grid.y > 65535 || grid.z > 65535 || grid.x > 0x7fffffffu)
        return refuse(r, PTX_ERR_CONFIG, "invalid configuration argument (the grid or the block)");
    if (k->shared_bytes + shared_bytes > 227 * 1024)
        return refuse(r, PTX_ERR_CONFIG, "too much shared memory for one block");
    /* what a GPU refuses too, and what would exhaust the executor's memory:
     * 512 KiB of local memory a thread, 255 registers a thread once
     * allocated (here: 64 MiB of registers a block, PTX's virtual ones) */
    if (k->local_bytes > 512 * 1024)
        return refuse(r, PTX_ERR_CONFIG, "too much local memory for one thread");
    if ((uint64_t)k->nregs * threads * 8 > (64ull << 20))
        return refuse(r, PTX_ERR_CONFIG, "too many registers for a block of this size");
    if (d->d.dry)
        return r->status = PTX_OK;
    std::vector<uint8_t> params(k->param_bytes, 0);
    for (size_t i = 0; i < k->params.size(); i++)
        memcpy(params.data() + k->params[i].offset, args[i], k->params[i].size);
    r->status = execute(d->d, *k, grid, block, shared_bytes, params, max_instructions, *r);
    if (r->status == PTX_ERR_BUDGET)
        snprintf(r->message, sizeof r->message, "the kernel ran past its budget of %llu instructions",
                 (unsigned long long)max_instructions);
    else if (r->status == PTX_ERR_ADDRESS)
        snprintf(r->message, sizeof r->message, "an illegal memory access (%u)", r->nfindings);
    else if (r->status == PTX_ERR_BARRIER)
        snprintf(r->message, sizeof r->message, "threads of a block wait at different barriers");
    return r->status;
}

const char *ptx_file_name(const ptx_device_t *d, unsigned n)
{
    for (const auto &m : d->d.modules) {
        auto it = m->files.find((uint16_t)n);
        if (it != m->files.end())
            return it->second.c_str();
    }
    return nullptr;
}

const char *ptx_shared_name(const ptx_device_t *d, const char *kernel, uint64_t offset, uint64_t *within)
{
    const Function *k = d->d.kernel(kernel);
    if (!k)
        return nullptr;
    for (const Var &v : k->vars)
        if (v.space == Space::Shared && !v.is_extern && offset >= v.offset && offset - v.offset < v.size) {
            *within = offset - v.offset;
            return v.name.c_str();
        }
    uint64_t dyn_at = (k->shared_bytes + k->shared_align - 1) / k->shared_align * k->shared_align;
    if (offset < dyn_at)
        return nullptr;
    *within = offset - dyn_at; /* dynamic shared memory: the extern array's */
    for (const Var &v : k->vars)
        if (v.space == Space::Shared && v.is_extern)
            return v.name.c_str();
    for (const auto &m : d->d.modules)
        if (!m->extern_shared.empty())
            return m->extern_shared[0].name.c_str();
    return nullptr;
}
