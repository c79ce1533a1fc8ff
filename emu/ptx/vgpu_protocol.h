/* vgpu_protocol.h - the wire between a program's CUDA runtime calls and the
 * executor, as between a driver and its GPU (issue 39): the program (the
 * student's host code, linked with emu/vcudart/ instead of libcudart) sends
 * requests on one stream socket; the executor (bin/cugrade-vgpu,
 * vgpu_server.cpp) owns device memory, runs the kernels and answers. The
 * program never holds a pointer into device memory: an address is a number
 * the executor looks up. Both sides are little-endian x86-64.
 *
 * A request: vgpu_header_t {op, len} and len bytes; the reply:
 * vgpu_reply_t {error, len} and len bytes. error is a cudaError_t value:
 * what the runtime call returns. Payloads (u32/u64/i32 little-endian):
 *
 *   MALLOC        u64 size                    -> u64 address
 *   FREE          u64 address
 *   TO_DEVICE     u64 dst, bytes              (at most VGPU_CHUNK bytes a request)
 *   FROM_DEVICE   u64 src, u64 n              -> n bytes (n at most VGPU_CHUNK)
 *   MEMSET        u64 dst, i32 value, u64 n
 *   PARAMS        the kernel's name           -> u32 count, count x u32 sizes
 *   LAUNCH        u32 name length, name, u32 grid[3], u32 block[3], u64 shared,
 *                 the parameters' bytes, in order
 *   SYNC                                      (the error a kernel left, as
 *                                              cudaDeviceSynchronize returns it)
 *   NEXT          [i64 returned]              -> u32 count, count x u64 values:
 *                                              the next call the executor asks
 *                                              of the program's launch function
 *                                              (its device pointers and sizes;
 *                                              count 0: none, the program ends).
 *                                              Asking again says the call returned
 *                                              (with what it returned, when the
 *                                              launch function returns a value).
 *   SOLUTION      u32 rows, u32 cols, u32 vector, u64 offset, bytes
 *                                             (a libwb program's wbSolution, in
 *                                              pieces of at most VGPU_CHUNK bytes,
 *                                              in order: the executor writes the
 *                                              solution, once it knows where the
 *                                              program got it)
 *
 * A kernel's error (an illegal address, a budget run out) is returned by
 * the calls after its launch, as a GPU's is: sticky, as CUDA's are. */
#ifndef CUGRADE_VGPU_PROTOCOL_H
#define CUGRADE_VGPU_PROTOCOL_H

#include <stdint.h>

#define VGPU_CHUNK (1u << 20)       /* bytes of one copy request */
#define VGPU_MAX_REQUEST (VGPU_CHUNK + 4096)
#define VGPU_FD_ENV "CUGRADE_VGPU_FD" /* the program's end of the socket */

typedef enum {
    VGPU_MALLOC = 1,
    VGPU_FREE,
    VGPU_TO_DEVICE,
    VGPU_FROM_DEVICE,
    VGPU_MEMSET,
    VGPU_PARAMS,
    VGPU_LAUNCH,
    VGPU_SYNC,
    VGPU_NEXT,
    VGPU_SOLUTION,
    VGPU_NOTE_HOST_OVERFLOW, /* uint64 bytes copied, uint64 the host array's size, uint64 the call's
                              * address in the program: a copy from the device that does not fit
                              * (the runtime's note; only ever a finding against the program) */
    VGPU_SYMBOL,             /* the name of a module's .global or .const variable (a __constant__
                              * array): its device address and bytes (u64, u64), for
                              * cudaMemcpyToSymbol and its kin */
} vgpu_op_t;

typedef struct {
    uint32_t op, len;
} vgpu_header_t;

typedef struct {
    int32_t error;
    uint32_t len;
} vgpu_reply_t;

/* cudaError_t values the executor answers with (the CUDA runtime's own). */
enum {
    VGPU_SUCCESS = 0,
    VGPU_INVALID_VALUE = 1,
    VGPU_MEMORY_ALLOCATION = 2,
    VGPU_INVALID_CONFIGURATION = 9,
    VGPU_INVALID_DEVICE_POINTER = 17,
    VGPU_LAUNCH_TIMEOUT = 702,
    VGPU_ILLEGAL_ADDRESS = 700,
    VGPU_INVALID_DEVICE_FUNCTION = 98,
    VGPU_LAUNCH_FAILURE = 719,
    VGPU_NOT_SUPPORTED = 801,
};

#ifdef __cplusplus
#include <cerrno>
#include <sys/syscall.h>
#include <unistd.h>

/* read(2) or write(2) as the kernel's system call itself, never through a
 * symbol: in the student's process libc's read and write can be replaced
 * by a definition of the submission's own (the object check lists only
 * what it calls), and the wire must not pass through it. The result as
 * read/write's: -1 with errno. */
static inline ssize_t vgpu_syscall_io(int fd, void *buf, size_t n, bool out)
{
#if defined(__x86_64__)
    long r;
    long nr = out ? SYS_write : SYS_read;
    __asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"((long)fd), "S"(buf), "d"(n) : "rcx", "r11", "memory");
    if (r < 0) {
        errno = (int)-r;
        return -1;
    }
    return (ssize_t)r;
#else
    return out ? write(fd, buf, n) : read(fd, buf, n);
#endif
}

/* All n bytes of a read (out == 0) or a write (out == 1) on the wire, through
 * interruptions; false when the other end has gone or fails. */
static inline bool vgpu_io(int fd, void *buf, size_t n, bool out)
{
    uint8_t *p = (uint8_t *)buf;
    while (n > 0) {
        ssize_t k = vgpu_syscall_io(fd, p, n, out);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k, n -= (size_t)k;
    }
    return true;
}
#endif

#endif
