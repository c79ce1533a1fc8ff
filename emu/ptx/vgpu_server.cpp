/* vgpu_server.cpp - serves one program's CUDA calls (vgpu_protocol.h) on
 * the executor's device. Every request is read whole and checked for its
 * size before anything is done with it: the program is hostile, and a
 * malformed request ends the session (the program's runtime never sends
 * one). A kernel's error is kept and returned by every call after it, as
 * a GPU's sticky errors are. */
#include "vgpu_server.h"
#include "vgpu_protocol.h"
#include "vgpu_trace.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace ptx {
namespace {

struct Reader { /* a request's payload, read in order with its size checked */
    const uint8_t *p;
    size_t left;
    template <typename T> bool get(T &v)
    {
        if (left < sizeof v)
            return false;
        memcpy(&v, p, sizeof v);
        p += sizeof v, left -= sizeof v;
        return true;
    }
};

uint64_t fnv1a(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* Where a complete solution came from: bytes the program read back from
 * device memory every word of which a kernel wrote ("kernel"); of which a
 * kernel wrote some and nothing else wrote the rest ("kernel, partly": a
 * grid short of C, whose unwritten words the comparison judges); read back,
 * but some written by the host ("host"); or never read back at all. */
std::string provenance_of(ServeLog &log)
{
    Solution &s = log.solution;
    uint64_t h = fnv1a(14695981039346656037ull, s.bytes.data(), s.bytes.size());
    std::string found = "not read back";
    for (const CopyRun &r : log.runs)
        if (r.bytes == s.bytes.size() && r.hash == h) {
            if (r.words[1] == 0 && r.words[0] == 0) {
                s.source_end = r.end;
                return "kernel";
            }
            if (r.words[1] == 0 && r.words[2] > 0) {
                s.source_end = r.end;
                found = "kernel, partly";
            } else if (found != "kernel, partly") {
                found = "host";
            }
        }
    return found;
}

/* The sizes of kernel's parameters, in order; false if there is no such kernel. */
bool param_sizes(const ptx_device_t *d, const char *kernel, std::vector<size_t> &sizes)
{
    int n = ptx_kernel_params(d, kernel, nullptr);
    if (n < 0)
        return false;
    for (int i = 0; i < n; i++)
        sizes.push_back((size_t)ptx_kernel_param_size(d, kernel, i));
    return true;
}

class Session {
  public:
    Session(ptx_device_t *d, int fd, uint64_t budget, ServeLog &log, CallSource *calls)
        : d(d), fd(fd), budget(budget), log(log), calls(calls) {}
    int run();
    void end_call() /* the program ended inside a call: it returned nothing more */
    {
        if (in_call && calls)
            calls->finish(d, sticky ? sticky : VGPU_LAUNCH_FAILURE, false, 0);
        in_call = false;
    }

  private:
    ptx_device_t *d;
    int fd;
    uint64_t budget;
    uint64_t spent = 0; /* instructions executed since the budget began: this call's, or the run's */
    ServeLog &log;
    CallSource *calls;
    bool in_call = false;
    int32_t sticky = VGPU_SUCCESS; /* a kernel's error, returned from then on */
    std::vector<uint8_t> reply;

    bool answer(int32_t error)
    {
        vgpu_reply_t r = {error, (uint32_t)reply.size()};
        return vgpu_io(fd, &r, sizeof r, true) && vgpu_io(fd, reply.data(), reply.size(), true);
    }
    template <typename T> void put(T v)
    {
        const uint8_t *b = (const uint8_t *)&v;
        reply.insert(reply.end(), b, b + sizeof v);
    }
    int32_t handle(uint32_t op, Reader in, bool &malformed);
    int32_t launch(Reader in, bool &malformed);
};

int32_t Session::launch(Reader in, bool &malformed)
{
    uint32_t name_len;
    if (!in.get(name_len) || name_len == 0 || name_len > 4096 || in.left < name_len)
        return malformed = true, 0;
    std::string name((const char *)in.p, name_len);
    in.p += name_len, in.left -= name_len;
    uint32_t g[3], b[3];
    uint64_t shared;
    for (uint32_t &v : g)
        if (!in.get(v))
            return malformed = true, 0;
    for (uint32_t &v : b)
        if (!in.get(v))
            return malformed = true, 0;
    if (!in.get(shared))
        return malformed = true, 0;
    std::vector<size_t> sizes;
    if (!param_sizes(d, name.c_str(), sizes))
        return VGPU_INVALID_DEVICE_FUNCTION;
    size_t total = 0;
    for (size_t s : sizes)
        total += s;
    if (in.left != total)
        return malformed = true, 0;
    std::vector<void *> args;
    for (size_t off = 0, i = 0; i < sizes.size(); off += sizes[i], i++)
        args.push_back((void *)(in.p + off));
    LaunchRecord rec{name, {g[0], g[1], g[2]}, {b[0], b[1], b[2]}, shared, {}};
    uint64_t left = !budget ? 0 : spent < budget ? budget - spent : 1; /* 0: none */
    ptx_status_t s = ptx_launch(d, name.c_str(), rec.grid, rec.block, shared, args.data(), left,
                                &rec.result);
    spent += rec.result.instructions;
    log.launches.push_back(rec);
    if (log.trace && (s == PTX_OK || s == PTX_ERR_BARRIER))
        log.trace->launch(name, rec.grid, rec.block, shared, sizes, in.p);
    switch (s) {
    case PTX_OK: return VGPU_SUCCESS;
    case PTX_ERR_CONFIG: return VGPU_INVALID_CONFIGURATION; /* at the launch, not sticky */
    case PTX_ERR_NO_KERNEL: return VGPU_INVALID_DEVICE_FUNCTION;
    case PTX_ERR_ADDRESS: sticky = VGPU_ILLEGAL_ADDRESS; return VGPU_SUCCESS;
    case PTX_ERR_BUDGET: sticky = VGPU_LAUNCH_TIMEOUT; return VGPU_SUCCESS;
    case PTX_ERR_BARRIER: return VGPU_SUCCESS; /* a GPU runs on; the finding is kept */
    default: sticky = VGPU_LAUNCH_FAILURE; return VGPU_SUCCESS;
    }
}

int32_t Session::handle(uint32_t op, Reader in, bool &malformed)
{
    uint64_t a = 0, n = 0;
    int32_t value;
    switch (op) {
    case VGPU_MALLOC: {
        if (!in.get(n) || in.left)
            return malformed = true, 0;
        uint64_t p = ptx_malloc(d, n);
        put(p);
        if (log.trace)
            log.trace->alloc(p, n);
        return p || n == 0 ? VGPU_SUCCESS : VGPU_MEMORY_ALLOCATION;
    }
    case VGPU_FREE:
        if (!in.get(a) || in.left)
            return malformed = true, 0;
        if (a == 0)
            return VGPU_SUCCESS;
        if (ptx_free(d, a) != PTX_OK)
            return VGPU_INVALID_DEVICE_POINTER;
        if (log.trace)
            log.trace->free(a);
        return VGPU_SUCCESS;
    case VGPU_TO_DEVICE:
        if (!in.get(a))
            return malformed = true, 0;
        if (sticky)
            return sticky;
        if (ptx_copy_to_device(d, a, in.p, in.left) != PTX_OK)
            return VGPU_INVALID_VALUE;
        if (log.trace)
            log.trace->copy(a, in.p, in.left);
        return VGPU_SUCCESS;
    case VGPU_FROM_DEVICE: {
        if (!in.get(a) || !in.get(n) || in.left || n > VGPU_CHUNK)
            return malformed = true, 0;
        if (sticky)
            return sticky;
        std::vector<uint8_t> bytes(n);
        if (ptx_copy_from_device(d, bytes.data(), a, n) != PTX_OK)
            return VGPU_INVALID_VALUE;
        ptx_mark_read(d, a, n); /* the program used what it copied (an input into constant memory) */
        if (log.trace)
            log.trace->read(a, n);
        CopyRecord rec{a, n, {0, 0, 0}};
        ptx_origin(d, a, n, rec.words);
        log.copies_out.push_back(rec);
        if (log.runs.empty() || log.runs.back().end != a) /* a copy of its own, or the next piece */
            log.runs.emplace_back();
        CopyRun &run = log.runs.back();
        run.hash = fnv1a(run.hash, bytes.data(), n);
        run.bytes += n, run.end = a + n;
        for (int k = 0; k < 3; k++)
            run.words[k] += rec.words[k];
        reply = std::move(bytes);
        return VGPU_SUCCESS;
    }
    case VGPU_MEMSET:
        if (!in.get(a) || !in.get(value) || !in.get(n) || in.left)
            return malformed = true, 0;
        if (sticky)
            return sticky;
        if (ptx_memset(d, a, value, n) != PTX_OK)
            return VGPU_INVALID_VALUE;
        if (log.trace)
            log.trace->memset(a, value, n);
        return VGPU_SUCCESS;
    case VGPU_PARAMS: {
        std::string name((const char *)in.p, in.left);
        std::vector<size_t> sizes;
        if (!param_sizes(d, name.c_str(), sizes))
            return VGPU_INVALID_DEVICE_FUNCTION;
        put((uint32_t)sizes.size());
        for (size_t s : sizes)
            put((uint32_t)s);
        return VGPU_SUCCESS;
    }
    case VGPU_LAUNCH:
        if (sticky)
            return sticky;
        return launch(in, malformed);
    case VGPU_SYMBOL: {
        std::string name((const char *)in.p, in.left);
        uint64_t addr = 0;
        size_t size = 0;
        if (name.empty() || name.size() > 1024 || name.find('\0') != std::string::npos)
            return malformed = true, 0;
        if (ptx_symbol(d, name.c_str(), &addr, &size) != PTX_OK)
            return VGPU_INVALID_VALUE; /* cudaErrorInvalidSymbol's place: no such variable */
        put(addr), put((uint64_t)size);
        if (log.trace) /* the record names it, so a replay finds the GPU module's own */
            log.trace->global(addr, size, name);
        return VGPU_SUCCESS;
    }
    case VGPU_NOTE_HOST_OVERFLOW: {
        HostOverflow o;
        if (!in.get(o.copied) || !in.get(o.size) || !in.get(o.at) || in.left)
            return malformed = true, 0;
        if (log.host_overflows.size() < 16)
            log.host_overflows.push_back(o);
        return VGPU_SUCCESS;
    }
    case VGPU_SOLUTION: {
        uint32_t rows, cols, vec;
        uint64_t offset;
        if (!in.get(rows) || !in.get(cols) || !in.get(vec) || !in.get(offset))
            return malformed = true, 0;
        Solution &sol = log.solution;
        uint64_t total = (uint64_t)rows * cols * 4;
        if (sol.complete || total > (1ull << 30) || offset != sol.bytes.size() ||
            (offset && (rows != sol.rows || cols != sol.cols)) || in.left > total - offset)
            return VGPU_INVALID_VALUE; /* one solution, in order */
        sol.rows = rows, sol.cols = cols, sol.vector = vec;
        sol.bytes.insert(sol.bytes.end(), in.p, in.p + in.left);
        if (sol.bytes.size() == total) {
            sol.complete = true;
            sol.provenance = provenance_of(log);
        }
        return VGPU_SUCCESS;
    }
    case VGPU_SYNC:
        if (in.left)
            return malformed = true, 0;
        return sticky;
    case VGPU_NEXT: {
        int64_t returned = 0;
        bool has_returned = in.left == sizeof returned;
        if ((has_returned && !in.get(returned)) || in.left)
            return malformed = true, 0;
        if (in_call && calls)
            calls->finish(d, sticky, has_returned, returned);
        std::vector<uint64_t> args;
        spent = 0; /* each call (a dataset) has the whole budget */
        in_call = calls && !sticky && calls->next(d, args);
        if (!in_call)
            args.clear();
        put((uint32_t)args.size());
        for (uint64_t v : args)
            put(v);
        return VGPU_SUCCESS;
    }
    default:
        return malformed = true, 0;
    }
}

int Session::run()
{
    std::vector<uint8_t> buf;
    for (;;) {
        vgpu_header_t h;
        if (!vgpu_io(fd, &h, sizeof h, false))
            return 0; /* the program has ended */
        if (h.len > VGPU_MAX_REQUEST) {
            log.stopped = "a request of " + std::to_string(h.len) + " bytes";
            return -1;
        }
        buf.resize(h.len);
        if (!vgpu_io(fd, buf.data(), h.len, false)) {
            log.stopped = "a request cut short";
            return -1;
        }
        log.requests++;
        bool malformed = false;
        reply.clear();
        int32_t error = handle(h.op, Reader{buf.data(), buf.size()}, malformed);
        if (malformed) {
            log.stopped = "a malformed request (op " + std::to_string(h.op) + ")";
            return -1;
        }
        if (!answer(error))
            return 0;
    }
}

} // namespace

int serve(ptx_device_t *d, int fd, uint64_t budget, ServeLog &log, CallSource *calls)
{
    Session s(d, fd, budget, log, calls);
    int rc = s.run();
    s.end_call();
    return rc;
}

} // namespace ptx
