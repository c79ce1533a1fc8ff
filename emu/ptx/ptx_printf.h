/* ptx_printf.h - a kernel's printf (vprintf, as nvcc calls it) formatted by
 * the executor (internal to emu/ptx/). The format string and the arguments
 * are the student's: each conversion is rebuilt from the characters a
 * printf conversion may have (flags, width, precision, length, one of
 * diouxXcfeEgGaAsp) and given a value of its own type, so that nothing
 * read from the kernel reaches the host's printf as a format; %n and
 * anything unknown are printed as they stand. */
#ifndef CUGRADE_PTX_PRINTF_H
#define CUGRADE_PTX_PRINTF_H

#include <cstdint>
#include <functional>
#include <string>

namespace ptx {

/* Reads n bytes of device memory at a generic address; false if it cannot. */
using DeviceReader = std::function<bool(uint64_t addr, void *out, size_t n)>;

/* The text printf(fmt, args...) prints, fmt and the argument buffer (each
 * argument aligned to its size, as CUDA packs them) read through read;
 * nargs: the conversions it consumed. At most 4096 bytes. */
std::string format_printf(const DeviceReader &read, uint64_t fmt, uint64_t args, int &nargs);

} // namespace ptx

#endif
