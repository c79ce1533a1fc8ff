/* vcudart.cpp - the CUDA runtime a program is linked with instead of
 * libcudart when it runs on the executor (issue 39): every call that
 * touches the device is sent to the executor (emu/ptx/vgpu_protocol.h) on
 * the socket named by $CUGRADE_VGPU_FD and answered there. This code runs
 * in the student's process, so nothing in it is trusted: it holds no
 * device memory, knows nothing of the datasets and reports nothing; what a
 * program does to it changes only what that program sends. Built against
 * the toolkit's own headers (cuda_runtime_api.h), so that its calls have
 * the types nvcc's host code was compiled with; nvcc's launch stubs call
 * __cudaRegisterFunction, __cudaGetKernel, __cudaPushCallConfiguration,
 * __cudaPopCallConfiguration and __cudaLaunchKernel. */
#include <cuda_runtime_api.h>

#include "host_blocks.h"
#include "vcudart_wire.h"
#include "vgpu_protocol.h"

#include <cerrno>
#include <cstdio>
#include <link.h>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::mutex wire;                         /* one request and its reply at a time */
int sock = -2;                           /* -2: not looked up yet */
thread_local cudaError_t last_error = cudaSuccess;
/* A launch stub: its kernel's (mangled) name. Made on first use: nvcc's
 * registration runs from static constructors, before this file's. */
std::map<const void *, std::string> &kernel_names()
{
    static std::map<const void *, std::string> names;
    return names;
}
std::map<std::string, std::vector<uint32_t>> param_sizes;
struct Config {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
};
thread_local std::vector<Config> configs;

constexpr uint64_t DEVICE_LOW = 0x0000010000000000ull, DEVICE_HIGH = 0x0000020000000000ull;

/* Sends op with payload, and returns the executor's error; its reply's
 * bytes into out (which must hold them: out_len) when not null. */
cudaError_t call(uint32_t op, const void *payload, size_t len, void *out = nullptr, size_t out_len = 0,
                 std::vector<uint8_t> *out_vec = nullptr)
{
    std::lock_guard<std::mutex> hold(wire);
    if (sock == -2) {
        const char *v = getenv(VGPU_FD_ENV);
        sock = v && *v ? atoi(v) : -1;
    }
    if (sock < 0)
        return cudaErrorNoDevice;
    vgpu_header_t h = {op, (uint32_t)len};
    vgpu_reply_t r;
    if (!vgpu_io(sock, &h, sizeof h, true) || !vgpu_io(sock, (void *)payload, len, true) ||
        !vgpu_io(sock, &r, sizeof r, false))
        return cudaErrorDevicesUnavailable;
    std::vector<uint8_t> bytes(r.len);
    if (!vgpu_io(sock, bytes.data(), r.len, false))
        return cudaErrorDevicesUnavailable;
    if (out)
        memcpy(out, bytes.data(), r.len < out_len ? r.len : out_len);
    if (out_vec)
        *out_vec = std::move(bytes);
    return (cudaError_t)r.error;
}

cudaError_t note(cudaError_t e)
{
    if (e != cudaSuccess)
        last_error = e;
    return e;
}

template <typename T> void put(std::vector<uint8_t> &b, T v)
{
    const uint8_t *p = (const uint8_t *)&v;
    b.insert(b.end(), p, p + sizeof v);
}

bool on_device(const void *p)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    return a >= DEVICE_LOW && a < DEVICE_HIGH;
}

cudaError_t to_device(void *dst, const void *src, size_t n)
{
    for (size_t done = 0; done < n;) {
        size_t k = n - done < VGPU_CHUNK ? n - done : VGPU_CHUNK;
        std::vector<uint8_t> b;
        put(b, (uint64_t)(uintptr_t)dst + done);
        b.insert(b.end(), (const uint8_t *)src + done, (const uint8_t *)src + done + k);
        cudaError_t e = call(VGPU_TO_DEVICE, b.data(), b.size());
        if (e != cudaSuccess)
            return e;
        done += k;
    }
    return cudaSuccess;
}

/* The file address of the call a return address follows, when it lies in
 * the program itself (pc - 1, less the load bias: what addr2line takes);
 * 0 elsewhere (a library). */
struct CallSite {
    uintptr_t pc, bias;
    bool in_program;
};

static int find_call_site(struct dl_phdr_info *info, size_t, void *data)
{
    CallSite *c = (CallSite *)data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) &p = info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + p.p_vaddr;
        if (p.p_type == PT_LOAD && c->pc >= start && c->pc - start < p.p_memsz) {
            c->bias = info->dlpi_addr;
            c->in_program = !info->dlpi_name || !info->dlpi_name[0]; /* the first object: the program */
            return 1;
        }
    }
    return 0;
}

static uint64_t program_address(const void *return_address)
{
    CallSite c = {(uintptr_t)return_address, 0, false};
    dl_iterate_phdr(find_call_site, &c);
    return c.in_program && c.pc > c.bias ? c.pc - 1 - c.bias : 0;
}

/* A copy into a host array it does not fit, told to the executor with
 * where the program called it, which names it (vgpu_findings:
 * host-copy-overflow); the copy goes on, as on a GPU. */
void note_host_overflow(const void *dst, size_t n, const void *called_from)
{
    size_t size = vcudart_host_size(dst);
    if (size == 0 || n <= size)
        return;
    uint64_t req[3] = {n, size, program_address(called_from)};
    call(VGPU_NOTE_HOST_OVERFLOW, req, sizeof req);
}

cudaError_t from_device(void *dst, const void *src, size_t n)
{
    for (size_t done = 0; done < n;) {
        size_t k = n - done < VGPU_CHUNK ? n - done : VGPU_CHUNK;
        uint64_t req[2] = {(uint64_t)(uintptr_t)src + done, k};
        cudaError_t e = call(VGPU_FROM_DEVICE, req, sizeof req, (uint8_t *)dst + done, k);
        if (e != cudaSuccess)
            return e;
        done += k;
    }
    return cudaSuccess;
}

/* Each kernel's cudaFuncAttributeMaxDynamicSharedMemorySize: a GPU refuses
 * a launch of more than 48 KiB of dynamic shared memory not asked for. */
std::map<const void *, int> &max_dynamic_shared()
{
    static std::map<const void *, int> m;
    return m;
}

cudaError_t launch(const void *stub, dim3 grid, dim3 block, void **args, size_t shared)
{
    auto k = kernel_names().find(stub);
    if (k == kernel_names().end())
        return cudaErrorInvalidDeviceFunction;
    auto asked = max_dynamic_shared().find(stub);
    if (shared > 48 * 1024 && (asked == max_dynamic_shared().end() || (size_t)asked->second < shared))
        return cudaErrorInvalidValue;
    const std::string &name = k->second;
    auto sizes = param_sizes.find(name);
    if (sizes == param_sizes.end()) {
        std::vector<uint8_t> reply;
        cudaError_t e = call(VGPU_PARAMS, name.data(), name.size(), nullptr, 0, &reply);
        if (e != cudaSuccess)
            return e;
        uint32_t count = 0;
        if (reply.size() < 4 || (memcpy(&count, reply.data(), 4), reply.size() != 4 + 4ull * count))
            return cudaErrorInvalidDeviceFunction;
        std::vector<uint32_t> v(count);
        memcpy(v.data(), reply.data() + 4, 4ull * count);
        sizes = param_sizes.emplace(name, v).first;
    }
    std::vector<uint8_t> b;
    put(b, (uint32_t)name.size());
    b.insert(b.end(), name.begin(), name.end());
    for (unsigned v : {grid.x, grid.y, grid.z, block.x, block.y, block.z})
        put(b, (uint32_t)v);
    put(b, (uint64_t)shared);
    for (size_t i = 0; i < sizes->second.size(); i++)
        b.insert(b.end(), (const uint8_t *)args[i], (const uint8_t *)args[i] + sizes->second[i]);
    return call(VGPU_LAUNCH, b.data(), b.size());
}

} // namespace

extern "C" {

/* ---- the lab's driver: the calls the executor asks for ---- */

/* The next call of the launch function the executor asks for: its values
 * (device pointers and sizes) into v, at most max; the count, 0 when there
 * is none (the program ends), -1 if the executor cannot be reached. */
static int next_call(const int64_t *returned, uint64_t *v, int max)
{
    std::vector<uint8_t> reply;
    if (call(VGPU_NEXT, returned, returned ? sizeof *returned : 0, nullptr, 0, &reply) != cudaSuccess ||
        reply.size() < 4)
        return -1;
    uint32_t n;
    memcpy(&n, reply.data(), 4);
    if (reply.size() != 4 + 8ull * n || (int)n > max)
        return -1;
    memcpy(v, reply.data() + 4, 8ull * n);
    return (int)n;
}

int cugrade_vgpu_next(uint64_t *v, int max) { return next_call(nullptr, v, max); }

/* The same, saying what the previous call returned (a launch function that
 * returns a count: the reduction kind's). */
int cugrade_vgpu_next_after(int64_t returned, uint64_t *v, int max) { return next_call(&returned, v, max); }

/* A libwb program's solution (wbSolution, labs/common/wb_io.cu built with
 * -DCUGRADE_VGPU): handed to the executor, which writes it once it knows
 * where the program got it. 1, or 0 if the executor refused it. */
int cugrade_vgpu_solution(const float *data, int rows, int cols, int vector)
{
    size_t total = (size_t)rows * cols * sizeof(float), done = 0;
    do {
        size_t k = total - done < VGPU_CHUNK ? total - done : VGPU_CHUNK;
        std::vector<uint8_t> b;
        put(b, (uint32_t)rows), put(b, (uint32_t)cols), put(b, (uint32_t)vector), put(b, (uint64_t)done);
        b.insert(b.end(), (const uint8_t *)data + done, (const uint8_t *)data + done + k);
        if (call(VGPU_SOLUTION, b.data(), b.size()) != cudaSuccess)
            return 0;
        done += k;
    } while (done < total);
    return 1;
}

/* ---- what nvcc's host code calls ---- */

void **CUDARTAPI __cudaRegisterFatBinary(void *fatbin)
{
    (void)fatbin; /* the executor runs the grader's own compile of this source, not these bytes */
    static void *handle;
    return &handle;
}

void CUDARTAPI __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }

void CUDARTAPI __cudaUnregisterFatBinary(void **handle) { (void)handle; }

char CUDARTAPI __cudaInitModule(void **handle)
{
    (void)handle;
    return 1;
}

void CUDARTAPI __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun,
                                      const char *device_name, int thread_limit, uint3 *tid,
                                      uint3 *bid, dim3 *bdim, dim3 *gdim, int *wsize)
{
    (void)handle, (void)device_name, (void)thread_limit, (void)tid, (void)bid, (void)bdim, (void)gdim,
        (void)wsize;
    kernel_names()[host_fun] = device_fun;
}

unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared,
                                               struct CUstream_st *stream)
{
    configs.push_back({grid, block, shared, stream});
    return 0;
}

cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream)
{
    if (configs.empty())
        return cudaErrorMissingConfiguration;
    Config c = configs.back();
    configs.pop_back();
    *grid = c.grid, *block = c.block, *shared = c.shared;
    *(cudaStream_t *)stream = c.stream;
    return cudaSuccess;
}

cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t *kernel, const void *fun)
{
    *kernel = (cudaKernel_t)fun; /* the stub stands for its kernel */
    return kernel_names().count(fun) ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
                                         size_t shared, cudaStream_t stream)
{
    (void)stream;
    return note(launch((const void *)kernel, grid, block, args, shared));
}

cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
                                              size_t shared, cudaStream_t stream)
{
    return __cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

cudaError_t CUDARTAPI cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                                       size_t shared, cudaStream_t stream)
{
    (void)stream;
    return note(launch(func, grid, block, args, shared));
}

/* ---- memory ---- */

cudaError_t CUDARTAPI cudaMalloc(void **p, size_t size)
{
    if (!p)
        return note(cudaErrorInvalidValue);
    uint64_t n = size, addr = 0;
    cudaError_t e = call(VGPU_MALLOC, &n, sizeof n, &addr, sizeof addr);
    *p = e == cudaSuccess ? (void *)(uintptr_t)addr : nullptr;
    return note(e);
}

cudaError_t CUDARTAPI cudaFree(void *p)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    return note(call(VGPU_FREE, &a, sizeof a));
}

/* cudaMemcpy and cudaMemcpyAsync, called from called_from */
static cudaError_t copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, const void *called_from)
{
    if (kind == cudaMemcpyDefault)
        kind = on_device(dst) ? (on_device(src) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                              : (on_device(src) ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    switch (kind) {
    case cudaMemcpyHostToDevice: return note(to_device(dst, src, n));
    case cudaMemcpyDeviceToHost:
        note_host_overflow(dst, n, called_from);
        return note(from_device(dst, src, n));
    case cudaMemcpyDeviceToDevice: {
        std::vector<uint8_t> tmp(n);
        cudaError_t e = from_device(tmp.data(), src, n);
        return note(e == cudaSuccess ? to_device(dst, tmp.data(), n) : e);
    }
    case cudaMemcpyHostToHost:
        memmove(dst, src, n);
        return cudaSuccess;
    default: return note(cudaErrorInvalidMemcpyDirection);
    }
}

cudaError_t CUDARTAPI cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
    return copy(dst, src, n, kind, __builtin_return_address(0));
}

cudaError_t CUDARTAPI cudaMemset(void *dst, int value, size_t n)
{
    struct __attribute__((packed)) {
        uint64_t a;
        int32_t v;
        uint64_t n;
    } req = {(uint64_t)(uintptr_t)dst, value, n};
    return note(call(VGPU_MEMSET, &req, sizeof req));
}

/* ---- synchronisation and errors ---- */

cudaError_t CUDARTAPI cudaDeviceSynchronize(void) { return note(call(VGPU_SYNC, nullptr, 0)); }

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t s)
{
    (void)s;
    return cudaDeviceSynchronize();
}

cudaError_t CUDARTAPI cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    return e;
}

cudaError_t CUDARTAPI cudaPeekAtLastError(void) { return last_error; }

const char *CUDARTAPI cudaGetErrorName(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    default: return "cudaErrorUnknown";
    }
}

const char *CUDARTAPI cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    default: return "unknown error";
    }
}

/* ---- the device ---- */

cudaError_t CUDARTAPI cudaGetDeviceCount(int *n)
{
    *n = 1;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDevice(int *d)
{
    *d = 0;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaSetDevice(int d) { return d == 0 ? cudaSuccess : note(cudaErrorInvalidDevice); }

cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp *p, int device)
{
    if (device != 0)
        return note(cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "cugrade virtual GPU");
    p->major = 9, p->minor = 0, p->warpSize = 32, p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = 1024, p->maxThreadsDim[1] = 1024, p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 0x7fffffff, p->maxGridSize[1] = 65535, p->maxGridSize[2] = 65535;
    p->sharedMemPerBlock = 48 * 1024, p->sharedMemPerBlockOptin = 227 * 1024;
    p->totalGlobalMem = 4ull << 30, p->multiProcessorCount = 132, p->regsPerBlock = 65536;
    p->maxThreadsPerMultiProcessor = 2048, p->totalConstMem = 64 * 1024;
    return cudaSuccess;
}

/* A few attributes of the device cudaGetDeviceProperties describes. */
cudaError_t CUDARTAPI cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    if (device != 0)
        return note(cudaErrorInvalidDevice);
    struct cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    default: return note(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || value > 227 * 1024)
            return note(cudaErrorInvalidValue);
        max_dynamic_shared()[func] = value;
    }
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaRuntimeGetVersion(int *v)
{
    *v = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDriverGetVersion(int *v)
{
    *v = CUDART_VERSION;
    return cudaSuccess;
}

/* ---- streams: one queue, in order, as the executor runs every call ---- */

cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t *s)
{
    static int streams;
    *s = (cudaStream_t)(uintptr_t)(++streams);
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    (void)flags;
    return cudaStreamCreate(s);
}

cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t s)
{
    (void)s;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

cudaError_t CUDARTAPI cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
                                      cudaStream_t s)
{
    (void)s;
    return copy(dst, src, n, kind, __builtin_return_address(0));
}

cudaError_t CUDARTAPI cudaMemsetAsync(void *dst, int value, size_t n, cudaStream_t s)
{
    (void)s;
    return cudaMemset(dst, value, n);
}

/* Pinned host memory is host memory here; a device pointer to it is not
 * to be had: the device is another process (zero-copy memory refused). */
cudaError_t CUDARTAPI cudaHostAlloc(void **p, size_t size, unsigned flags)
{
    (void)flags;
    *p = malloc(size ? size : 1);
    return *p ? cudaSuccess : note(cudaErrorMemoryAllocation);
}

cudaError_t CUDARTAPI cudaMallocHost(void **p, size_t size) { return cudaHostAlloc(p, size, 0); }

cudaError_t CUDARTAPI cudaFreeHost(void *p)
{
    free(p);
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaHostGetDevicePointer(void **d, void *h, unsigned flags)
{
    (void)h, (void)flags;
    *d = nullptr;
    return note(cudaErrorNotSupported);
}

cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags)
{
    (void)flags;
    return cudaEventCreate(e);
}

cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t *e)
{
    static int events;
    *e = (cudaEvent_t)(uintptr_t)(++events);
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    (void)e, (void)s;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t e)
{
    (void)e;
    return cudaDeviceSynchronize();
}

cudaError_t CUDARTAPI cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    (void)a, (void)b;
    *ms = 0; /* kernels are not timed here: a GPU times them (the replay) */
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t e)
{
    (void)e;
    return cudaSuccess;
}

} // extern "C"


/* ---- for symbols.cpp (vcudart_wire.h) ---------------------------------------------- */

cudaError_t vcudart_call(uint32_t op, const void *payload, size_t len, void *out, size_t out_len)
{
    return call(op, payload, len, out, out_len);
}

cudaError_t vcudart_note(cudaError_t e) { return note(e); }

bool vcudart_on_device(const void *p) { return on_device(p); }

cudaError_t vcudart_copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, const void *called_from)
{
    return copy(dst, src, n, kind, called_from);
}
