/* vgpu_server.h - the executor's side of the wire (vgpu_protocol.h): one
 * program's requests served on a device until the program closes its end.
 * What the program did (its launches and their findings) is kept here, in
 * the executor, where the program cannot reach it. */
#ifndef CUGRADE_VGPU_SERVER_H
#define CUGRADE_VGPU_SERVER_H

#include "ptx.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ptx {

struct LaunchRecord {
    std::string kernel;
    ptx_dim3_t grid, block;
    uint64_t shared_bytes;
    ptx_launch_result_t result;
};

/* A copy from the device to the program: who last wrote what it read. */
struct CopyRecord {
    uint64_t address, bytes;
    uint64_t words[3]; /* by Origin: none, the host, a kernel */
};

/* Copies back to the program that continue each other (the runtime cuts a
 * copy into pieces): their bytes' hash (FNV-1a), length and origins. */
struct CopyRun {
    uint64_t end = 0, bytes = 0, hash = 14695981039346656037ull;
    uint64_t words[3] = {0, 0, 0};
};

/* A libwb program's solution (wbSolution), and where it came from. */
struct Solution {
    uint32_t rows = 0, cols = 0, vector = 0;
    std::vector<uint8_t> bytes;
    bool complete = false;
    std::string provenance; /* "kernel", "host", "not read back" (once complete) */
    uint64_t source_end = 0; /* "kernel": where the copy back it came from ended */
};

class Trace;

/* A copy from the device into a host array too small for it: the bytes
 * copied, the array's size, and where the program called cudaMemcpy (its
 * file address, which addr2line takes; 0: not in the program itself). */
struct HostOverflow {
    uint64_t copied = 0, size = 0, at = 0;
};

struct ServeLog {
    std::vector<LaunchRecord> launches;
    std::vector<CopyRecord> copies_out;
    std::vector<CopyRun> runs;
    Solution solution;
    /* copies from the device into a host array too small, as the program's runtime saw them:
     * at most 16 */
    std::vector<HostOverflow> host_overflows;
    uint64_t requests = 0;
    std::string stopped; /* why serving stopped before the program closed its end ("" if not) */
    Trace *trace = nullptr; /* records what the program asked of the device (vgpu_trace.h), if set */
};

/* The calls the executor asks of the program (VGPU_NEXT): the lab's
 * driver, on the executor's side. next() is asked when the program is
 * ready for a call, and again when that call has returned (finish() runs
 * first then, with the error the device holds); false: no more calls. */
struct CallSource {
    virtual ~CallSource() = default;
    virtual bool next(ptx_device_t *d, std::vector<uint64_t> &args) = 0;
    /* returned: what the call returned (has_returned: whether it returns anything) */
    virtual void finish(ptx_device_t *d, int32_t device_error, bool has_returned, int64_t returned) = 0;
};

/* Serves fd until end of file (0) or a malformed request (-1, log.stopped
 * says what); the launches stop once budget instructions were executed
 * (0: none) in all, counted from each call the executor asks for (a
 * dataset) or, with no calls, from the start. calls:
 * the calls to ask for (null: the program asks none). */
int serve(ptx_device_t *d, int fd, uint64_t budget, ServeLog &log, CallSource *calls = nullptr);

} // namespace ptx

#endif
