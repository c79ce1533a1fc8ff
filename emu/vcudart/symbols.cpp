/* symbols.cpp - a module's variables for the program's CUDA runtime on the
 * executor (issue 41: a convolution's mask in constant memory): each
 * __cudaRegisterVar shadow mapped to its PTX name, its device address asked
 * of the executor once (VGPU_SYMBOL), and cudaMemcpyToSymbol,
 * cudaMemcpyFromSymbol, cudaGetSymbolAddress and cudaGetSymbolSize made of
 * it and of vcudart.cpp's copies (vcudart_wire.h). */
#include <cuda_runtime_api.h>

#include "vcudart_wire.h"
#include "vgpu_protocol.h"

#include <cstdint>
#include <map>
#include <string>

namespace {

/* A module's variables by their host shadow (__cudaRegisterVar): the
 * name the PTX gives each, and its device address once the executor said. */
struct Symbol {
    std::string name;
    uint64_t addr = 0, size = 0;
};

std::map<const void *, Symbol> &symbols()
{
    static std::map<const void *, Symbol> m;
    return m;
}

/* The device address and bytes of symbol (its host shadow): asked of the
 * executor once. cudaErrorInvalidSymbol when it names none. */
cudaError_t symbol_at(const void *symbol, uint64_t *addr, uint64_t *size)
{
    auto it = symbols().find(symbol);
    if (it == symbols().end())
        return cudaErrorInvalidSymbol;
    Symbol &s = it->second;
    if (!s.addr) {
        uint64_t reply[2] = {0, 0};
        cudaError_t e = vcudart_call(VGPU_SYMBOL, s.name.data(), s.name.size(), reply, sizeof reply);
        if (e != cudaSuccess)
            return e == cudaErrorInvalidValue ? cudaErrorInvalidSymbol : e;
        s.addr = reply[0], s.size = reply[1];
    }
    *addr = s.addr, *size = s.size;
    return cudaSuccess;
}

} // namespace

extern "C" {

void CUDARTAPI __cudaRegisterVar(void **handle, char *host_var, char *device_address,
                                 const char *device_name, int ext, size_t size, int constant, int global)
{
    (void)handle, (void)device_address, (void)ext, (void)size, (void)constant, (void)global;
    symbols()[host_var].name = device_name;
}

/* cudaMemcpyToSymbol and its kin: the variable's device address from the
 * executor, then a copy as cudaMemcpy makes it. */
cudaError_t CUDARTAPI cudaGetSymbolAddress(void **dev_ptr, const void *symbol)
{
    uint64_t addr, size;
    cudaError_t e = dev_ptr ? symbol_at(symbol, &addr, &size) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *dev_ptr = (void *)(uintptr_t)addr;
    return vcudart_note(e);
}

cudaError_t CUDARTAPI cudaGetSymbolSize(size_t *out, const void *symbol)
{
    uint64_t addr, size;
    cudaError_t e = out ? symbol_at(symbol, &addr, &size) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *out = size;
    return vcudart_note(e);
}

/* The device address of bytes [offset, offset + count) of symbol's
 * variable into *at: cudaSuccess, or why not (no such variable, a range
 * past its end). */
static cudaError_t symbol_range(const void *symbol, size_t count, size_t offset, uint64_t *at)
{
    uint64_t addr = 0, size = 0;
    cudaError_t e = symbol_at(symbol, &addr, &size);
    if (e == cudaSuccess && (offset > size || count > size - offset))
        e = cudaErrorInvalidValue;
    *at = addr + offset;
    return e;
}

cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind)
{
    uint64_t addr;
    cudaError_t e = symbol_range(symbol, count, offset, &addr);
    if (e != cudaSuccess)
        return vcudart_note(e);
    if (kind == cudaMemcpyDefault)
        kind = vcudart_on_device(src) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice)
        return vcudart_note(cudaErrorInvalidMemcpyDirection);
    return vcudart_copy((void *)(uintptr_t)addr, src, count, kind, __builtin_return_address(0));
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind)
{
    uint64_t addr;
    cudaError_t e = symbol_range(symbol, count, offset, &addr);
    if (e != cudaSuccess)
        return vcudart_note(e);
    if (kind == cudaMemcpyDefault)
        kind = vcudart_on_device(dst) ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost;
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice)
        return vcudart_note(cudaErrorInvalidMemcpyDirection);
    return vcudart_copy(dst, (const void *)(uintptr_t)addr, count, kind, __builtin_return_address(0));
}

cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                              enum cudaMemcpyKind kind, cudaStream_t s)
{
    (void)s;
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

} // extern "C"
