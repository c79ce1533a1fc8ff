/* vgpu_trace.h - what a program asked of the device, recorded by the
 * executor as it served it, so that it can be done again with no student
 * code present (issue 39, item 5): bin/cugrade-replay runs the student's
 * cubin on a real GPU from this record, the executor's --replay on itself.
 *
 * The record is text, a line a step (grader/replay/trace.h reads it, and
 * says what each line means); the bytes the program copied to the device
 * go beside it, in a second buffer the lines point into. Device addresses
 * become allocation numbers: a kernel's pointer arguments are found by
 * value among the live allocations (the executor's addresses lie from
 * 1 TiB up, where no integer or float argument falls), so the replay can
 * put its own addresses there. What cannot be replayed (an argument that
 * points into a module's variable, a copy into memory the record never saw
 * allocated) marks the record unreplayable, with why. */
#ifndef CUGRADE_VGPU_TRACE_H
#define CUGRADE_VGPU_TRACE_H

#include "ptx.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ptx {

class Trace {
  public:
    /* Starts a record: the allocations alive now are its first lines, with
     * their bytes as they are (memory a program kept from an earlier call). */
    void begin(ptx_device_t *d);
    bool recording() const { return on; }
    /* Ends the record; text and bytes are what was recorded ("" when none). */
    void end(std::string &text, std::string &bytes);
    void drop() { on = false, text.clear(), blob.clear(); }

    /* Allocations are followed even while not recording (begin needs them). */
    void alloc(uint64_t addr, uint64_t size);
    /* A module's variable the program asked for by name (cudaMemcpyToSymbol): a
     * "global" line, which a replay finds in its own module; never freed. */
    void global(uint64_t addr, uint64_t size, const std::string &name);
    void free(uint64_t addr);
    /* The executor wrote dataset input `input` (its floats, n bytes; as_int:
     * converted to 32-bit ints, an int array's) at addr. */
    void load(uint64_t addr, int input, uint64_t n, bool as_int = false);
    void copy(uint64_t addr, const uint8_t *p, uint64_t n);
    void memset(uint64_t addr, int value, uint64_t n);
    void launch(const std::string &kernel, ptx_dim3_t grid, ptx_dim3_t block, uint64_t shared,
                const std::vector<size_t> &sizes, const uint8_t *params);
    /* A copy back to the program; pieces that continue each other are one read. */
    void read(uint64_t addr, uint64_t n);
    /* The output: the rows x cols floats at addr, as they are now. */
    void output(uint64_t addr, int rows, int cols, bool vector, bool is_int = false);
    /* The output: the read (one copy back, its pieces joined) of n bytes that
     * ended at end_addr, rows x cols floats. False if no such read was recorded. */
    bool output_of_read(uint64_t end_addr, uint64_t n, int rows, int cols, bool vector);

  private:
    struct Live {
        uint32_t id;
        uint64_t size;
        std::string global; /* a module's variable's name; "" for an allocation */
    };
    struct Read {
        uint64_t start, end;
    };
    bool on = false;
    bool replayable = true;
    std::string why;
    uint32_t next_id = 1;
    std::map<uint64_t, Live> live; /* by base */
    std::vector<Read> reads;
    std::string text, blob;
    /* the live allocation holding [addr, addr + n] (n 0: addr may be one past its end) */
    const Live *holding(uint64_t addr, uint64_t n, uint64_t *offset) const;
    bool place(uint64_t addr, uint64_t n, const char *what, uint32_t *id, uint64_t *offset);
    void refuse(const std::string &reason);
};

} // namespace ptx

#endif
